/**
 * Client of the OMI routes (functions/routes.ts: /omi/*) and the browser upload to the OMI
 * drop bucket; the response shapes are the server's (functions/domain/omi/api.ts).
 */
import type { OmiJob, QuotationListItem, QuotationPage } from '@domain/omi/api';
import { ApiError, api, NETWORK_ERROR_MESSAGE } from '@/lib/api';

export type { OmiJob, QuotationPage };
export type Quotation = QuotationListItem;

export interface UploadTicket {
  jobId: string;
  key: string;
  semester: string;
  fileName: string;
  upload: { method: 'POST'; url: string; fields: Record<string, string> };
  maxBytes: number;
  expiresIn: number;
}

export interface QuotationFilters {
  comune: string;
  provincia: string;
  /** Cod_Tip as text, '' = Tutte */
  tipologia: string;
  /** OTTIMO / NORMALE / SCADENTE, '' = Tutti */
  stato: string;
  /** YYYY-S1 / YYYY-S2, '' = all */
  semestre: string;
}

export const omiKeys = {
  all: ['omi'] as const,
  quotations: (filters: QuotationFilters, page: number) => ['omi', 'quotations', filters, page] as const,
  jobs: ['omi', 'jobs'] as const,
};

export function createUpload(input: { fileName: string; semester: string; size: number }): Promise<UploadTicket> {
  return api.post<UploadTicket>('/omi/uploads', input);
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

export const UPLOAD_TOO_LARGE_MESSAGE = 'Il file supera la dimensione massima di 50 MB';

/** The Italian message for an S3 error answer to the browser's POST. */
function s3UploadError(status: number, body: string): string {
  const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
  if (code === 'EntityTooLarge') return UPLOAD_TOO_LARGE_MESSAGE;
  if (code === 'EntityTooSmall') return 'Il file è vuoto';
  if (code === 'AccessDenied' && /expired/i.test(body)) return 'Il permesso di caricamento è scaduto: riprova.';
  return `Caricamento del file non riuscito (errore ${status}${code ? ` ${code}` : ''}). Riprova.`;
}

/**
 * Sends the file to the bucket with the presigned POST. XMLHttpRequest (not fetch) for the
 * upload progress of a national file (~19 MB). Only the signed fields and the file are sent:
 * S3 refuses a form field the policy does not name.
 */
export function uploadToBucket(
  ticket: UploadTicket['upload'],
  file: File,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
    form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', ticket.url);
    // the request is the file plus the form fields: report the file's share of it
    xhr.upload.onprogress = (e) => {
      const share = e.lengthComputable && e.total > 0 ? e.loaded / e.total : 0;
      onProgress(Math.min(file.size, Math.round(share * file.size)), file.size);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(file.size, file.size);
        resolve();
      } else {
        reject(new ApiError(xhr.status, s3UploadError(xhr.status, xhr.responseText ?? ''), 'UPLOAD'));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE, 'NETWORK'));
    xhr.onabort = () => reject(new DOMException('Caricamento annullato', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
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

/** A job that is still being worked on (its heartbeat is recent): the page resumes it. */
export function isLive(job: OmiJob, now = Date.now()): boolean {
  if (job.status === 'running') return now - Date.parse(job.updatedAt) < 60_000;
  // a clear is 'pending' only until its marker's event arrives; an import's pending job may
  // be an abandoned upload, so it is not resumed
  return job.kind === 'clear' && job.status === 'pending' && now - Date.parse(job.createdAt) < 60_000;
}
