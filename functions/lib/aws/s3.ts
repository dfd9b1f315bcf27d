import { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config';
import { clientOptions, onReset } from './shared';
import { traced } from '../observability';

let client: S3Client | undefined;
onReset(() => (client = undefined));

export function s3(): S3Client {
  const endpoint = config().S3_ENDPOINT;
  client ??= traced(new S3Client({
    ...clientOptions(endpoint, { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }),
    ...(endpoint
      ? {
          forcePathStyle: true,
          // s3rver: without these, streamed uploads keep chunk framing and presigned URLs carry checksums
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
          responseChecksumValidation: 'WHEN_REQUIRED' as const,
        }
      : {}),
  }));
  return client;
}
