import { createHash } from 'node:crypto';
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { s3 } from './aws/s3';
import { requireConfig } from './config';
import { logger } from './logger';

/**
 * The private media bucket: HeadObject to check what the browser uploaded, CopyObject to keep
 * an upload under a key no upload form names. The upload itself is a presigned POST made by
 * ./presigned-upload.ts.
 */

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/** What S3 holds at that key, or undefined when there is no such object. */
export async function headMedia(key: string): Promise<{ contentType: string; size: number; lastModified?: Date } | undefined> {
  try {
    const res = await s3().send(new HeadObjectCommand({ Bucket: requireConfig('MEDIA_BUCKET'), Key: key }));
    return { contentType: res.ContentType ?? '', size: Number(res.ContentLength ?? 0), lastModified: res.LastModified };
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

/**
 * Copies an object of the media bucket to `to`, without its tags: the copy of a draft is no
 * draft (./draft-uploads.ts), so the bucket's lifecycle keeps it. False when `from` is missing.
 */
export async function copyWithoutTags(from: string, to: string): Promise<boolean> {
  const Bucket = requireConfig('MEDIA_BUCKET');
  try {
    await s3().send(
      new CopyObjectCommand({ Bucket, Key: to, CopySource: `${Bucket}/${from.split('/').map(encodeURIComponent).join('/')}`, MetadataDirective: 'COPY', TaggingDirective: 'REPLACE' }),
    );
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

/** The whole object at `key` (GetObject), or undefined when there is no such object. */
export async function readMediaBytes(key: string): Promise<Uint8Array | undefined> {
  try {
    const res = await s3().send(new GetObjectCommand({ Bucket: requireConfig('MEDIA_BUCKET'), Key: key }));
    return await res.Body!.transformToByteArray();
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

/** Every key of the media bucket under `prefix` (ListObjectsV2, all pages). */
export async function listMediaKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const res = await s3().send(
      new ListObjectsV2Command({ Bucket: requireConfig('MEDIA_BUCKET'), Prefix: prefix, ContinuationToken: token }),
    );
    for (const o of res.Contents ?? []) if (o.Key) keys.push(o.Key);
    token = res.IsTruncated ? res.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/**
 * Runs `fn` over `items` with at most `limit` in flight. On the first failure no item is
 * started any more; it rejects with that failure once the ones in flight have ended (none
 * keeps running behind the caller's back, e.g. into a retry in the same container).
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  });
  await Promise.all(workers);
  if (failure) throw failure.error;
  return out;
}

/** An upload the server accepted, sealed under a key no upload form can write. */
export interface Evidence {
  /** the evidence key (what the record links) */
  key: string;
  /** SHA-256 (hex) of the evidence object's bytes: the bytes the server checked */
  sha256: string;
  size: number;
  contentType: string;
}

/** `{propertyId}/evidence/{what}`: the property's prefix (the request deletion lists it), a part no form's key names. */
export const evidenceKeyOf = (propertyId: string, what: string) => `${propertyId}/evidence/${what}`;

/** True when `key` is an evidence key (upload forms are never signed for one). */
export const isEvidenceKey = (key: string) => /^[^/]+\/evidence\//.test(key);

/**
 * Seals an accepted upload: a server-side copy (CopyObject) of `uploadKey` to `evidenceKey`,
 * then the copy's own bytes are read and hashed, so what the record links is exactly what was
 * checked and hashed whatever happens to the upload afterwards. Undefined when the upload is
 * missing or larger than `maxBytes` (the copy is then deleted). The upload itself is left to
 * the caller (`deleteMediaObjects` once the record is written).
 * IAM: GetObject (source) and PutObject (target), GetObject on the copy, DeleteObject.
 */
export async function sealEvidence(uploadKey: string, evidenceKey: string, maxBytes: number): Promise<(Evidence & { bytes: Buffer }) | undefined> {
  const Bucket = requireConfig('MEDIA_BUCKET');
  if (!(await copyWithoutTags(uploadKey, evidenceKey))) return undefined;
  const res = await s3().send(new GetObjectCommand({ Bucket, Key: evidenceKey }));
  const size = Number(res.ContentLength ?? 0);
  if (size < 1 || size > maxBytes) {
    await res.Body?.transformToByteArray().catch(() => undefined);
    await deleteMediaObjects([evidenceKey], 'evidence out of size');
    return undefined;
  }
  const bytes = Buffer.from(await res.Body!.transformToByteArray());
  return { key: evidenceKey, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, contentType: res.ContentType ?? '', bytes };
}

/** Deletes objects of the media bucket (best effort: a failure is logged, never thrown). */
export async function deleteMediaObjects(keysToDelete: readonly (string | null | undefined)[], why: string): Promise<void> {
  const keys = keysToDelete.filter((k): k is string => typeof k === 'string' && k !== '');
  if (!keys.length) return;
  const Bucket = requireConfig('MEDIA_BUCKET');
  await Promise.all(
    keys
      .map((Key) => s3().send(new DeleteObjectCommand({ Bucket, Key })).catch((e: unknown) => logger.error('Media object left behind', { key: Key, why, error: e as Error }))),
  );
}
