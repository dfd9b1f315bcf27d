import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { config } from './config';

/**
 * The one place AWS SDK clients are made. On AWS no endpoint is set and the SDK uses the
 * Lambda role; locally the endpoints point at the emulators.
 */
let clients:
  | { ddb: DynamoDBDocumentClient; s3: S3Client; ses: SESv2Client; cognito: CognitoIdentityProviderClient }
  | undefined;

const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

function make() {
  const c = config();
  const region = c.AWS_REGION;
  const ddbRaw = new DynamoDBClient({
    region,
    ...(c.DYNAMODB_ENDPOINT ? { endpoint: c.DYNAMODB_ENDPOINT, credentials: localCredentials } : {}),
  });
  const ddb = DynamoDBDocumentClient.from(ddbRaw, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  const s3 = new S3Client({
    region,
    ...(c.S3_ENDPOINT
      ? {
          endpoint: c.S3_ENDPOINT,
          forcePathStyle: true,
          // s3rver: without these, streamed uploads keep chunk framing and presigned URLs carry checksums
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
          responseChecksumValidation: 'WHEN_REQUIRED' as const,
          credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        }
      : {}),
  });
  const ses = new SESv2Client({
    region,
    ...(c.SES_ENDPOINT ? { endpoint: c.SES_ENDPOINT, credentials: localCredentials } : {}),
  });
  const cognito = new CognitoIdentityProviderClient({
    region,
    ...(c.COGNITO_ENDPOINT ? { endpoint: c.COGNITO_ENDPOINT, credentials: localCredentials } : {}),
  });
  return { ddb, s3, ses, cognito };
}

export function aws() {
  clients ??= make();
  return clients;
}

/** Drop the cached clients (after the configuration changed). */
export function resetAws(): void {
  clients = undefined;
}
