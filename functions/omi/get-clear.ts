import { NotFoundError } from '../lib/errors';
import { route } from '../lib/http';
import { getJob } from '../model/omi/jobs';
import { jobParams } from './schemas';

/** GET /omi/clear/{jobId}: progress of "Cancella Tutti i Dati" (deleted of total), then its result. */
export const handler = route('omiGetClear', { params: jobParams }, async ({ params }) => {
  const job = await getJob(params.jobId);
  if (!job || job.kind !== 'clear') throw new NotFoundError('Cancellazione non trovata');
  return job;
});
