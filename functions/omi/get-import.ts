import { NotFoundError } from '../lib/errors';
import { route } from '../lib/http';
import { getJob } from '../model/omi/jobs';
import { jobParams } from './schemas';

/** GET /omi/imports/{jobId}: the import's progress, then its result (rows, inserted, updated, rejected with reasons). */
export const handler = route('omiGetImport', { params: jobParams }, async ({ params }) => {
  const job = await getJob(params.jobId);
  if (!job || job.kind !== 'import') throw new NotFoundError('Importazione non trovata');
  return job;
});
