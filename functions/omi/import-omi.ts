import type { S3Event } from 'aws-lambda';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../lib/aws/s3';
import { logger } from '../lib/logger';
import { count, trigger } from '../lib/observability';
import { classifyDropKey, decodeEventKey } from './drop-keys';
import { runClear } from './run-clear';
import { runImport } from './run-import';

/**
 * S3 ObjectCreated on the OMI drop bucket: an uploaded CSV starts its import job; a
 * `clears/{jobId}.json` marker starts "Cancella Tutti i Dati". A transient failure is
 * thrown so Lambda retries the event (the work is idempotent); a bad file ends its job as
 * failed with the reason.
 */
export const handler = trigger('omiImport', async (event: S3Event): Promise<void> => {
  for (const record of event.Records ?? []) {
    if (!record.eventName?.startsWith('ObjectCreated')) continue;
    const bucket = record.s3.bucket.name;
    const key = decodeEventKey(record.s3.object.key);
    const etag = (record.s3.object.eTag ?? '').replace(/"/g, '');
    const target = classifyDropKey(key, etag, record.s3.object.sequencer ?? '');
    if (target.kind === 'ignored') {
      logger.info('OMI drop: object ignored', { key, reason: target.reason });
      continue;
    }
    if (target.kind === 'clear') {
      await runClear(target.jobId);
      await s3().send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(() => undefined);
      continue;
    }
    const outcome = await runImport({ bucket, key, jobId: target.jobId, semester: target.semester, fileName: target.fileName, etag, size: record.s3.object.size });
    count('OmiRowsImported', outcome.inserted + outcome.updated);
    count('OmiRowsRejected', outcome.rejected);
  }
});
