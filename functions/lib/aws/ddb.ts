import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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
