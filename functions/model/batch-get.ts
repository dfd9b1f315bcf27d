/**
 * BatchGetItem of any number of keys of the single table. Its own module (not db.ts): unit
 * tests replace db.ts's client and Query helpers with fakes.
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './db';
import type { Item } from './item';

/**
 * BatchGetItem of any number of keys (100 per call, or `perCall`, the calls in parallel),
 * retrying UnprocessedKeys; results by `pk|sk`. A latency-bound reader splits its keys into
 * smaller calls that the table serves side by side.
 */
export async function batchGet(
  keyList: readonly { pk: string; sk: string }[],
  opts: { projection?: string; names?: Record<string, string>; consistent?: boolean; perCall?: number } = {},
): Promise<Map<string, Item>> {
  const out = new Map<string, Item>();
  const calls: Promise<void>[] = [];
  const perCall = Math.min(100, Math.max(1, opts.perCall ?? 100));
  for (let i = 0; i < keyList.length; i += perCall) {
    let pending: Record<string, unknown>[] = keyList.slice(i, i + perCall).map((k) => ({ pk: k.pk, sk: k.sk }));
    calls.push(
      (async () => {
        for (let attempt = 0; pending.length; attempt++) {
          if (attempt > 0) await new Promise((r) => setTimeout(r, Math.random() * Math.min(1000, 20 * 2 ** attempt)));
          if (attempt > 8) throw new Error('BatchGetItem: chiavi non lette dopo 8 tentativi');
          const res = await ddb().send(
            new BatchGetCommand({
              RequestItems: {
                [table()]: {
                  Keys: pending,
                  ConsistentRead: opts.consistent,
                  ProjectionExpression: opts.projection,
                  ExpressionAttributeNames: opts.names,
                },
              },
            }),
          );
          for (const item of res.Responses?.[table()] ?? []) out.set(`${item.pk}|${item.sk}`, item);
          pending = (res.UnprocessedKeys?.[table()]?.Keys as Record<string, unknown>[] | undefined) ?? [];
        }
      })(),
    );
  }
  await Promise.all(calls);
  return out;
}
