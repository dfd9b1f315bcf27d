import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { clientOptions, onReset } from './shared';

let client: DynamoDBDocumentClient | undefined;
onReset(() => (client = undefined));

export function ddb(): DynamoDBDocumentClient {
  client ??= DynamoDBDocumentClient.from(new DynamoDBClient(clientOptions(config().DYNAMODB_ENDPOINT)), {
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
