import { route } from '../lib/http';
import { recentJobs } from '../model/omi/jobs';

/** GET /omi/jobs: the 20 most recent import and clear jobs, newest first (the import page resumes a running one). */
export const handler = route('omiListJobs', {}, async () => ({ items: await recentJobs(20) }));
