import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './db';
import { requireConfig } from '../lib/config';
import { ipHashSalt } from '../lib/secrets';
import { TooManyRequestsError } from '../lib/errors';
import { keys } from './keys';
import { logger } from '../lib/logger';
import { RATE_LIMITS, type RateLimitScope } from '../domain/property/limits';

/**
 * Per-client fixed-window rate limit in DynamoDB: one counter item per (scope, client, window),
 * incremented with a conditional UpdateItem (refused once it reaches the limit) and removed by
 * TTL after the window. Same behaviour on AWS and locally. The client is an HMAC-SHA-256 of
 * its IP address keyed with IP_HASH_SALT, a salt of each deployment (generated at deploy in
 * Secrets Manager by the api stack, read at run time through the Parameters and Secrets
 * extension, lib/secrets.ts; locally one per data folder, infra/local/setup.ts): no
 * raw IP is stored, the same IP has another key in another deployment, and a table of the
 * unsalted hashes of every IPv4 address matches nothing. Without a salt it refuses to hash.
 * API Gateway stage throttling caps the overall rate in AWS on top of this.
 */
export function clientKey(ip: string, salt: string = requireConfig('IP_HASH_SALT')): string {
  return createHmac('sha256', salt)
    .update(ip || 'unknown')
    .digest('base64url')
    .slice(0, 22);
}

/**
 * Whom a per-IP limit counts: an IPv4 address as it is, an IPv6 address by its /64 (a
 * subscriber line gets at least a /64 and may use any address in it, so counting single
 * IPv6 addresses would give each request a fresh counter); an IPv4-mapped IPv6 address is
 * its IPv4 address. Anything else is returned unchanged.
 */
export function rateLimitNetwork(ip: string): string {
  const address = ip.trim().replace(/%.*$/, '');
  if (!isIPv6(address)) return ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  // an embedded IPv4 tail (e.g. 64:ff9b::192.0.2.33) is the last two groups
  const withoutDots = address.replace(/(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/, (_m, a: string, b: string, c: string, d: string) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
  const [head = '', tail] = withoutDots.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

export async function enforceRateLimit(scope: RateLimitScope, ip: string, now: number = Date.now()): Promise<{ count: number; limit: number }> {
  const { limit, windowSeconds } = RATE_LIMITS[scope];
  const nowSeconds = Math.floor(now / 1000);
  const windowStart = nowSeconds - (nowSeconds % windowSeconds);
  const windowEnd = windowStart + windowSeconds;
  const client = clientKey(rateLimitNetwork(ip), await ipHashSalt());
  try {
    const res = await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.rateLimit(scope, client, windowStart),
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
    logger.warn('Rate limit reached', { scope, client, limit, windowStart });
    throw new TooManyRequestsError(
      `Hai fatto troppe richieste in poco tempo. Riprova tra ${minutes} ${minutes === 1 ? 'minuto' : 'minuti'}.`,
    );
  }
}

/** A daily count of something an account does (not an IP): `amount` more of `limit` per UTC day for `subject`. */
export interface DailyQuota {
  /** the counter's name, e.g. 'coOwnerInvitesProperty' */
  scope: string;
  /** whom it counts: a property id, a user id (never an IP: those go through clientKey) */
  subject: string;
  limit: number;
  amount: number;
}

const DAY_SECONDS = 86_400;

/** True when `amount` alone is over the limit (no counter can ever allow it). */
export const exceedsQuota = (q: DailyQuota) => q.amount > q.limit;

/**
 * The Update of a daily quota counter for a TransactWriteItems list: the same fixed-window
 * item as enforceRateLimit (keys.rateLimit, TTL after the window), incremented by `amount`
 * only while the total stays within `limit`. Its condition failing (isConditionFailure at
 * its index) means the quota is spent; as part of the transaction, a refusal counts nothing.
 */
export function dailyQuotaUpdate(q: DailyQuota, now: number = Date.now()) {
  const nowSeconds = Math.floor(now / 1000);
  const windowStart = nowSeconds - (nowSeconds % DAY_SECONDS);
  return {
    Update: {
      TableName: table(),
      Key: keys.rateLimit(q.scope, q.subject, windowStart),
      UpdateExpression: 'ADD #c :n SET expiresAt = if_not_exists(expiresAt, :ttl), entity = :entity',
      ConditionExpression: 'attribute_not_exists(#c) OR #c <= :room',
      ExpressionAttributeNames: { '#c': 'count' },
      ExpressionAttributeValues: { ':n': q.amount, ':ttl': windowStart + DAY_SECONDS + 60, ':room': q.limit - q.amount, ':entity': 'rateLimit' },
    },
  };
}
