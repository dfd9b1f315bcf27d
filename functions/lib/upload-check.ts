import { DeleteObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from './aws/s3';
import { requireConfig } from './config';
import { ValidationError } from './errors';
import { logger } from './logger';
import { mapLimit } from './media-storage';
import { fileTypeRefusal, SNIFF_BYTES } from '../domain/file-type';

/**
 * THE server check of an upload's bytes (the browser made the same check before sending it,
 * web/src/lib/upload.ts, but a client can lie): before an object of the media bucket is linked
 * to anything (submission, admin room media, identity check, signed delegation or option), its
 * first SNIFF_BYTES are read (GetObject with a Range) and their real type must match the
 * Content-Type it was uploaded with (domain/file-type.ts: the `file-type` package and the
 * product's rules). A mismatch is deleted from the bucket (DeleteObject) and the request
 * refused with a 400 naming the file: nothing is linked.
 * IAM: GetObject and DeleteObject on the media bucket.
 */

export interface UploadToCheck {
  key: string;
  /** the Content-Type S3 stored (the one the presigned POST was signed for) */
  contentType: string;
  /** the name shown in the message */
  name: string;
  /** the body field that named the key (the 400's `fields`) */
  field: string;
  /** only these real types (e.g. JPEG and PNG for the identity check), with their label */
  allowed?: readonly string[];
  allowedLabel?: string;
}

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/** The first SNIFF_BYTES of an object of the media bucket (fewer when it is shorter), or undefined when missing. */
export async function readHead(key: string): Promise<Uint8Array | undefined> {
  try {
    const res = await s3().send(new GetObjectCommand({ Bucket: requireConfig('MEDIA_BUCKET'), Key: key, Range: `bytes=0-${SNIFF_BYTES - 1}` }));
    const bytes = await res.Body!.transformToByteArray();
    return bytes.subarray(0, SNIFF_BYTES);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

/** The refusal for one upload, deleting it when refused; undefined when its bytes match (or it is missing: the callers' own check). */
async function checkOne(u: UploadToCheck): Promise<string | undefined> {
  const head = await readHead(u.key);
  if (!head) return undefined;
  const refusal = await fileTypeRefusal({ name: u.name, declared: u.contentType, head, allowed: u.allowed, allowedLabel: u.allowedLabel });
  if (!refusal) return undefined;
  logger.warn('Upload refused: its bytes are not what its type claims', { key: u.key, contentType: u.contentType });
  await s3().send(new DeleteObjectCommand({ Bucket: requireConfig('MEDIA_BUCKET'), Key: u.key }));
  return refusal;
}

/**
 * Checks every upload's bytes (8 at a time); the mismatched ones are deleted, then one 400
 * (ValidationError: the first message, and one per field) refuses the request.
 */
export async function requireUploadBytes(uploads: readonly UploadToCheck[]): Promise<void> {
  const refusals = await mapLimit(uploads, 8, checkOne);
  const fields: Record<string, string> = {};
  uploads.forEach((u, i) => {
    if (refusals[i]) fields[u.field] = refusals[i]!;
  });
  const first = Object.values(fields)[0];
  if (first) throw new ValidationError(first, fields);
}
