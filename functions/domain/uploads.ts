/**
 * Browser uploads straight to S3 with a presigned POST, shared by the server (which signs
 * them: functions/lib/presigned-upload.ts) and the SPA (which sends them: web/src/lib/upload.ts).
 * Both upload routes answer the same shape: POST /uploads (a wizard photo or video) answers
 * a `PresignedUpload`; POST /omi/uploads (an OMI CSV) answers an `OmiUploadTicket`, whose
 * `upload` is one.
 */
import { formatDecimal } from './format';

export const MEGABYTE = 1024 * 1024;

/** A photo or video of the wizard: at most 20 MB (spec 000). */
export const MEDIA_MAX_BYTES = 20 * MEGABYTE;
/** An OMI CSV file: at most 50 MB (a national semester is about 19 MB). */
export const OMI_MAX_BYTES = 50 * MEGABYTE;

/** How long a presigned form can be used. */
export const MEDIA_UPLOAD_TTL_SECONDS = 600;
export const OMI_UPLOAD_TTL_SECONDS = 900;

/** 20_971_520 -> 20 */
export function megabytes(bytes: number): number {
  return bytes / MEGABYTE;
}

/** "Il file supera la dimensione massima di 50 MB" */
export function tooLargeMessage(maxBytes: number): string {
  return `Il file supera la dimensione massima di ${formatDecimal(megabytes(maxBytes))} MB`;
}

/**
 * A presigned POST: send every one of `fields` then the file (last) as multipart/form-data
 * to `url`. The policy binds the key, the size (1 byte to `maxBytes`) and, for media, the
 * content type; it expires at `expiresAt`.
 */
export interface PresignedUpload {
  method: 'POST';
  /** the object key the file will have */
  key: string;
  url: string;
  fields: Record<string, string>;
  /** ISO date-time */
  expiresAt: string;
  maxBytes: number;
}

/** POST /omi/uploads: the import job created for the file, and where to send it. */
export interface OmiUploadTicket {
  jobId: string;
  key: string;
  semester: string;
  fileName: string;
  upload: PresignedUpload;
}
