import { randomUUID } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../lib/aws/s3';
import { requireConfig } from '../lib/config';
import { ConflictError } from '../lib/errors';
import { route } from '../lib/http';
import { activeJob, createJob } from '../model/omi/jobs';
import { clearObjectKey } from './drop-keys';
import { clearBody } from './schemas';

/**
 * POST /omi/clear {confirm: true}: starts deleting every OMI record in the background.
 * It writes a small `clears/{jobId}.json` marker to the OMI drop bucket, whose
 * ObjectCreated event runs the same background function as imports (no other trigger,
 * no 30 s API limit). Refused while another OMI job is running. Progress: GET /omi/clear/{jobId}.
 */
export const handler = route(
  'omiStartClear',
  { body: clearBody },
  async ({ caller }) => {
    const busy = await activeJob();
    if (busy) {
      throw new ConflictError(
        busy.kind === 'import'
          ? "È in corso un'importazione OMI: attendi che finisca prima di cancellare i dati"
          : 'È già in corso la cancellazione dei dati OMI',
      );
    }
    const jobId = randomUUID();
    const job = await createJob({ id: jobId, kind: 'clear', createdBy: caller?.userId });
    await s3().send(
      new PutObjectCommand({
        Bucket: requireConfig('OMI_BUCKET'),
        Key: clearObjectKey(jobId),
        Body: JSON.stringify({ jobId, requestedBy: caller?.userId ?? null, at: job.createdAt }),
        ContentType: 'application/json',
      }),
    );
    return job;
  },
  { successStatus: 202 },
);
