import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { isLive, listJobs, omiKeys, type OmiJob } from './api';

/**
 * An import or clear already running (another tab, or this page before a reload): once,
 * when the page opens, hand it to `resumeImport` or `resumeClear` to follow it.
 */
export function useResumeLiveJob(resumeImport: (job: OmiJob) => void, resumeClear: (job: OmiJob) => void) {
  const jobs = useQuery({ queryKey: omiKeys.jobs, queryFn: ({ signal }) => listJobs(signal), staleTime: 0, gcTime: 0 });
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current || !jobs.data) return;
    resumed.current = true;
    const live = jobs.data.items.find((j) => isLive(j));
    if (!live) return;
    if (live.kind === 'import') resumeImport(live);
    else resumeClear(live);
  }, [jobs.data, resumeImport, resumeClear]);
}
