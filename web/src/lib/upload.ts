import { fileTypeRefusal, SNIFF_BYTES } from '@domain/file-type';
import { tooLargeMessage, type PresignedUpload } from '@domain/uploads';
import { ApiError, NETWORK_ERROR_MESSAGE } from './api';

/**
 * THE browser upload to S3 with a presigned POST (wizard media, room media, identity images,
 * signed documents, OMI files): the file's first bytes are checked first (they must be what
 * its declared type claims, @domain/file-type: a text renamed .jpg, an SVG... is never sent;
 * the `file-type` package it uses is a chunk of its own, loaded when the first file is checked),
 * then every signed field, the file last (S3's rule; a field the policy does not name is
 * refused). XMLHttpRequest, not fetch, for the upload progress events.
 */
export const UPLOAD_FAILED_MESSAGE = 'Caricamento non riuscito. Riprova.';
export const EMPTY_FILE_MESSAGE = 'Il file è vuoto';
export const UPLOAD_EXPIRED_MESSAGE = 'Il permesso di caricamento è scaduto: riprova.';

/** A refused or failed upload: `status` 0 when the bucket could not be reached. */
export class UploadError extends ApiError {
  constructor(status: number, message: string, code = 'UPLOAD') {
    super(status, message, code);
    this.name = 'UploadError';
  }
}

/** The Italian message for S3's XML error answer to the POST. */
export function uploadErrorMessage(status: number, body: string, maxBytes?: number): string {
  const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
  if (code === 'EntityTooLarge' && maxBytes) return tooLargeMessage(maxBytes);
  if (code === 'EntityTooSmall') return EMPTY_FILE_MESSAGE;
  if (code === 'AccessDenied' && /expired/i.test(body)) return UPLOAD_EXPIRED_MESSAGE;
  return `Caricamento non riuscito (errore ${status}${code ? ` ${code}` : ''}). Riprova.`;
}

/**
 * Why the file's first bytes are not what `declared` (default: the file's own type) claims,
 * as an Italian message naming the file, or undefined when they are. Pickers call it as soon
 * as a file is chosen; uploadFile calls it again before sending.
 */
export async function fileBytesRefusal(file: Blob, declared: string = file.type, name?: string): Promise<string | undefined> {
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  return fileTypeRefusal({ name: name ?? (file instanceof File ? file.name : 'scelto'), declared, head });
}

/** Throws the UploadError of fileBytesRefusal: a picker calls it before asking for a presigned POST. */
export async function requireFileBytes(file: Blob, declared: string = file.type, name?: string): Promise<void> {
  const refusal = await fileBytesRefusal(file, declared, name);
  if (refusal) throw new UploadError(400, refusal, FILE_TYPE_ERROR_CODE);
}

export interface UploadOptions {
  /** bytes of the file sent so far, and the file's size */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
  /** the type the file must be (default: the signed Content-Type field, else the file's own type; OMI: 'text/csv') */
  declaredType?: string;
}

/** A file whose bytes are not what its type claims: refused before anything is sent. */
export const FILE_TYPE_ERROR_CODE = 'FILE_TYPE';

export async function uploadFile(
  target: Pick<PresignedUpload, 'url' | 'fields'> & Partial<Pick<PresignedUpload, 'maxBytes'>>,
  file: Blob,
  { onProgress, signal, declaredType }: UploadOptions = {},
): Promise<void> {
  await requireFileBytes(file, declaredType ?? target.fields['Content-Type'] ?? file.type);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('Caricamento annullato', 'AbortError'));
      return;
    }
    const body = new FormData();
    for (const [name, value] of Object.entries(target.fields)) body.append(name, value);
    body.append('file', file);
    const size = file.size;
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    // the request is the file plus the form fields: report the file's share of it
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable || e.total <= 0) return;
      onProgress?.(Math.min(size, Math.round((e.loaded / e.total) * size)), size);
    };
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(size, size);
        resolve();
      } else {
        reject(new UploadError(xhr.status, uploadErrorMessage(xhr.status, xhr.responseText ?? '', target.maxBytes)));
      }
    };
    xhr.onerror = () => {
      done();
      reject(new UploadError(0, NETWORK_ERROR_MESSAGE, 'NETWORK'));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('Caricamento annullato', 'AbortError'));
    };
    xhr.open('POST', target.url);
    xhr.send(body);
  });
}
