/**
 * Client of the OMI routes (functions/routes.ts: /omi/*) and the browser upload to the OMI
 * drop bucket; the response shapes are the server's (functions/domain/omi/api.ts,
 * functions/domain/uploads.ts).
 */
import type { OmiJob, QuotationListItem, QuotationPage } from '@domain/omi/api';
import type { OmiUploadTicket } from '@domain/uploads';
import { ApiError, api } from '@/lib/api';
import { uploadFile } from '@/lib/upload';

export type { OmiJob, OmiUploadTicket, QuotationPage };
export type Quotation = QuotationListItem;

export interface QuotationFilters {
  comune: string;
  provincia: string;
  /** Cod_Tip as text, '' = Tutte */
  tipologia: string;
  /** OTTIMO / NORMALE / SCADENTE, '' = Tutti */
  stato: string;
  /** YYYY-S1 / YYYY-S2, '' = all */
  semestre: string;
  /** LinkZona or Zona code, '' = every zone */
  zona: string;
}

export const omiKeys = {
  all: ['omi'] as const,
  quotations: (filters: QuotationFilters, page: number) => ['omi', 'quotations', filters, page] as const,
  jobs: ['omi', 'jobs'] as const,
};

export function createUpload(input: { fileName: string; semester: string; size: number }): Promise<OmiUploadTicket> {
  return api.post<OmiUploadTicket>('/omi/uploads', input);
}

export function getImportJob(jobId: string, signal?: AbortSignal): Promise<OmiJob> {
  return api.get<OmiJob>(`/omi/imports/${encodeURIComponent(jobId)}`, { signal });
}

export function startClear(): Promise<OmiJob> {
  return api.post<OmiJob>('/omi/clear', { confirm: true });
}

export function getClearJob(jobId: string, signal?: AbortSignal): Promise<OmiJob> {
  return api.get<OmiJob>(`/omi/clear/${encodeURIComponent(jobId)}`, { signal });
}

export function listJobs(signal?: AbortSignal): Promise<{ items: OmiJob[] }> {
  return api.get<{ items: OmiJob[] }>('/omi/jobs', { signal });
}

export function listQuotations(filters: QuotationFilters, page: number, signal?: AbortSignal): Promise<QuotationPage> {
  return api.get<QuotationPage>('/omi/quotations', { query: { ...filters, page }, signal });
}

/** Sends the file to the drop bucket with the ticket's presigned POST (bytes sent, file size). */
export function uploadToBucket(
  ticket: OmiUploadTicket,
  file: File,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return uploadFile(ticket.upload, file, { onProgress, signal, declaredType: 'text/csv' });
}

export const POLL_INTERVAL_MS = 600;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Interrotto', 'AbortError'));
      },
      { once: true },
    );
  });
}

/**
 * Polls a job until it is completed or failed, reporting every answer. A few network
 * glitches in a row are tolerated (a long import must not fail on one lost poll).
 */
export async function pollJob(
  read: (signal?: AbortSignal) => Promise<OmiJob>,
  onUpdate: (job: OmiJob) => void,
  signal?: AbortSignal,
): Promise<OmiJob> {
  let failures = 0;
  for (;;) {
    let job: OmiJob | undefined;
    try {
      job = await read(signal);
      failures = 0;
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      const transient = !(err instanceof ApiError) || err.status === 0 || err.status >= 500;
      if (!transient || ++failures >= 5) throw err;
    }
    if (job) {
      onUpdate(job);
      if (job.status === 'completed' || job.status === 'failed') return job;
    }
    await sleep(POLL_INTERVAL_MS, signal);
  }
}

/** A running job whose heartbeat (it beats every few seconds) has not moved for this long may have stopped. */
export const SILENT_AFTER_MS = 60_000;

/** A job that is still being worked on (its heartbeat is recent): the page resumes it. */
export function isLive(job: OmiJob, now = Date.now()): boolean {
  if (job.status === 'running') return now - Date.parse(job.updatedAt) < SILENT_AFTER_MS;
  // a clear is 'pending' only until its marker's event arrives; an import's pending job may
  // be an abandoned upload, so it is not resumed
  return job.kind === 'clear' && job.status === 'pending' && now - Date.parse(job.createdAt) < 60_000;
}
