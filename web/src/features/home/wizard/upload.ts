import type { UploadForm, UploadRequest } from '@domain/property/upload';
import { api } from '@/lib/api';

export type { UploadForm, UploadRequest };

/**
 * One photo or video, straight to the private bucket: POST /api/uploads gives a presigned
 * POST (key, content type and 1 byte..20 MB enforced by its policy), then the browser posts
 * the file to S3 with XMLHttpRequest, whose upload events give the per-file progress
 * (fetch has none).
 */
export const UPLOAD_FAILED_MESSAGE = 'Caricamento non riuscito. Riprova.';

export class BucketError extends Error {
  constructor(readonly status: number) {
    super(UPLOAD_FAILED_MESSAGE);
    this.name = 'BucketError';
  }
}

export function requestUploadForm(input: UploadRequest, signal?: AbortSignal): Promise<UploadForm> {
  return api.post<UploadForm>('/uploads', input, { signal });
}

/** Posts the file to the bucket: every policy field first, the file last (S3's rule). */
export function postToBucket(form: UploadForm, file: Blob, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const body = new FormData();
    for (const [name, value] of Object.entries(form.fields)) body.append(name, value);
    body.append('file', file);
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(e.loaded / e.total, 1));
    };
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
      } else reject(new BucketError(xhr.status));
    };
    xhr.onerror = () => {
      done();
      reject(new BucketError(0));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('Upload aborted', 'AbortError'));
    };
    xhr.open('POST', form.url);
    xhr.send(body);
  });
}
