import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { s3 } from './aws/s3';
import { requireConfig } from './config';
import { MAX_UPLOAD_BYTES, UPLOAD_URL_TTL_SECONDS } from '../domain/property/limits';
import type { MediaKind } from '../domain/property/media';

/**
 * The private media bucket: presigned POST uploads whose policy enforces the key, the
 * content type family (image/ or video/, and exactly the declared type) and a size of
 * 1 byte to 20 MB; HeadObject to check what was uploaded.
 */
export interface PresignedUpload {
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
}

export function uploadConditions(kind: MediaKind) {
  return [
    ['content-length-range', 1, MAX_UPLOAD_BYTES],
    ['starts-with', '$Content-Type', `${kind}/`],
  ] as [string, string | number, string | number][];
}

export async function presignMediaUpload(input: { key: string; contentType: string; kind: MediaKind; now?: number }): Promise<PresignedUpload> {
  const now = input.now ?? Date.now();
  const { url, fields } = await createPresignedPost(s3(), {
    Bucket: requireConfig('MEDIA_BUCKET'),
    Key: input.key,
    Conditions: uploadConditions(input.kind) as never,
    Fields: { 'Content-Type': input.contentType },
    Expires: UPLOAD_URL_TTL_SECONDS,
  });
  return { url, fields, expiresAt: new Date(now + UPLOAD_URL_TTL_SECONDS * 1000).toISOString() };
}

/** What S3 holds at that key, or undefined when there is no such object. */
export async function headMedia(key: string): Promise<{ contentType: string; size: number } | undefined> {
  try {
    const res = await s3().send(new HeadObjectCommand({ Bucket: requireConfig('MEDIA_BUCKET'), Key: key }));
    return { contentType: res.ContentType ?? '', size: Number(res.ContentLength ?? 0) };
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return undefined;
    throw err;
  }
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  });
  await Promise.all(workers);
  return out;
}
