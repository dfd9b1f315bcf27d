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
