import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  type TransactWriteCommandInput,
  type TransactWriteCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { config, requireConfig } from '../lib/config';
import { clientOptions, onReset } from '../lib/aws/shared';
import { traced } from '../lib/observability';

/** The single table's name (TABLE_NAME). */
export const table = () => requireConfig('TABLE_NAME');

let client: DynamoDBDocumentClient | undefined;
onReset(() => (client = undefined));

export function ddb(): DynamoDBDocumentClient {
  client ??= DynamoDBDocumentClient.from(traced(new DynamoDBClient(clientOptions(config().DYNAMODB_ENDPOINT))), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return client;
}

/**
 * True when a conditional write lost its condition (two concurrent writers: one loses
 * instead of overwriting): a single write's ConditionalCheckFailedException, or, given
 * `index`, item `index` of a TransactWriteItems cancelled for its condition.
 */
export function isConditionFailure(err: unknown, index?: number): boolean {
  const e = err as { name?: string; CancellationReasons?: { Code?: string }[] } | null | undefined;
  if (index === undefined) return e?.name === 'ConditionalCheckFailedException';
  return e?.name === 'TransactionCanceledException' && e.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';
}

/**
 * True when DynamoDB cancelled a TransactWriteItems only because another request held one of
 * its items at that moment (every reason `TransactionConflict` or `None`): nothing was
 * written, and running it again is safe. A failed condition is never a conflict.
 */
export function isTransactionConflict(err: unknown): boolean {
  const e = err as { name?: string; CancellationReasons?: { Code?: string }[] } | null | undefined;
  if (e?.name !== 'TransactionCanceledException') return false;
  const codes = (e.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
  return codes.includes('TransactionConflict') && codes.every((c) => c === 'TransactionConflict' || c === 'None');
}

/** Attempts of `transactWrite` before a conflict is thrown. */
export const TRANSACT_ATTEMPTS = 8;

/**
 * TransactWriteItems, run again when DynamoDB cancels it for a TransactionConflict. Two
 * transactions on the same item at the same moment conflict and one is cancelled; the SDK
 * does not retry that, so without this a burst of submissions (each adds 1 to the requests
 * counter item, keys.requestCount) would answer some of them with a 500. Up to
 * TRANSACT_ATTEMPTS attempts, with a jittered backoff from 25 ms to 1 s. DynamoDB Local runs
 * transactions one at a time and never reports conflicts: test/unit/transact-write.test.ts
 * proves this with a client that does.
 */
export async function transactWrite(
  input: TransactWriteCommandInput,
  opts: { client?: { send: (command: TransactWriteCommand) => Promise<TransactWriteCommandOutput> }; sleep?: (ms: number) => Promise<void> } = {},
): Promise<TransactWriteCommandOutput> {
  const client = opts.client ?? ddb();
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.send(new TransactWriteCommand(input));
    } catch (err) {
      if (!isTransactionConflict(err) || attempt >= TRANSACT_ATTEMPTS) throw err;
      await sleep(Math.random() * Math.min(1000, 25 * 2 ** attempt));
    }
  }
}

/** Every page of a Query, in order; `onPage` returning false stops early. */
export async function queryPages(input: QueryCommandInput, onPage: (page: QueryCommandOutput) => boolean | void): Promise<void> {
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb().send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    if (onPage(res) === false) return;
    start = res.LastEvaluatedKey;
  } while (start);
}

/** Every item of a Query, in order; `onItem` returning false stops early. */
export async function queryAll(input: QueryCommandInput, onItem: (item: Record<string, unknown>) => boolean | void): Promise<void> {
  await queryPages(input, (page) => {
    for (const item of page.Items ?? []) if (onItem(item) === false) return false;
  });
}
