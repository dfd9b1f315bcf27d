import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure } from './aws/ddb';
import { requireConfig } from './config';
import { TooManyRequestsError } from './errors';
import { keys } from './keys';
import { logger } from './logger';
import { RATE_LIMITS, type RateLimitScope } from '../domain/property/limits';

/**
 * Per-client fixed-window rate limit in DynamoDB: one counter item per (scope, client, window),
 * incremented with a conditional UpdateItem (refused once it reaches the limit) and removed by
 * TTL after the window. Same behaviour on AWS and locally. The client is the SHA-256 of its
 * IP address (no raw IP is stored). API Gateway stage throttling caps the overall rate
 * in AWS on top of this.
 */
export function clientKey(ip: string): string {
  return createHash('sha256').update(ip || 'unknown').digest('base64url').slice(0, 22);
}

export async function enforceRateLimit(scope: RateLimitScope, ip: string, now: number = Date.now()): Promise<{ count: number; limit: number }> {
  const { limit, windowSeconds } = RATE_LIMITS[scope];
  const nowSeconds = Math.floor(now / 1000);
  const windowStart = nowSeconds - (nowSeconds % windowSeconds);
  const windowEnd = windowStart + windowSeconds;
  try {
    const res = await ddb().send(
      new UpdateCommand({
        TableName: requireConfig('TABLE_NAME'),
        Key: keys.rateLimit(scope, clientKey(ip), windowStart),
        UpdateExpression: 'ADD #c :one SET expiresAt = if_not_exists(expiresAt, :ttl), entity = :entity',
        ConditionExpression: 'attribute_not_exists(#c) OR #c < :limit',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':ttl': windowEnd + 60, ':limit': limit, ':entity': 'rateLimit' },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return { count: Number(res.Attributes?.count ?? 0), limit };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const minutes = Math.max(1, Math.ceil((windowEnd - nowSeconds) / 60));
    logger.warn('Rate limit reached', { scope, client: clientKey(ip), limit, windowStart });
    throw new TooManyRequestsError(
      `Hai fatto troppe richieste in poco tempo. Riprova tra ${minutes} ${minutes === 1 ? 'minuto' : 'minuti'}.`,
    );
  }
}
