/**
 * Deletes the link tokens (INVITE, COINVITE, AVAIL) past their expiry. DynamoDB TTL removes
 * them on AWS too, but up to 48 h late and never on DynamoDB Local; until then every reader
 * already treats an expired token as missing (isExpired). Each token is written with its
 * entry in the sparse expiry index (keys.tokenExpiryIndex): one Query, page by page, finds
 * the expired ones, BatchWriteItem deletes them. Tokens made before the index existed are
 * left to the TTL.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './db';
import { BatchWriter } from './batch-writer';
import { keys } from './keys';
import { isExpired } from './tokens';

/** How many expired tokens were deleted. */
export async function deleteExpiredTokens(now: Date = new Date()): Promise<number> {
  const T = table();
  const q = keys.expiredTokens();
  const writer = new BatchWriter(ddb(), T, { concurrency: 4 });
  let deleted = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb().send(
      new QueryCommand({
        TableName: T,
        IndexName: q.index,
        KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk <= :now',
        ExpressionAttributeValues: { ':pk': q.pk, ':now': now.toISOString() },
        ProjectionExpression: 'pk, sk, expiresAt',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of res.Items ?? []) {
      if (!isExpired(item.expiresAt as number | undefined, now.getTime())) continue;
      await writer.delete({ pk: item.pk, sk: item.sk });
      deleted++;
    }
    start = res.LastEvaluatedKey;
  } while (start);
  await writer.flush();
  return deleted;
}
