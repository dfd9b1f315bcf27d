import { HeadObjectCommand, ListObjectsV2Command, PutObjectTaggingCommand } from '@aws-sdk/client-s3';
import { s3 } from './aws/s3';
import { requireConfig } from './config';

/**
 * The private media bucket: HeadObject to check what the browser uploaded, PutObjectTagging
 * to make a draft permanent. The upload itself is a presigned POST made by ./presigned-upload.ts.
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
 * Makes an upload permanent: removes its tags, the draft tag among them (./draft-uploads.ts),
 * so the bucket's lifecycle rule no longer expires it. An empty tag set rather than
 * DeleteObjectTagging: same result, and the local S3 implements only this one. False when
 * there is no such object.
 */
export async function keepUpload(key: string): Promise<boolean> {
  try {
    await s3().send(new PutObjectTaggingCommand({ Bucket: requireConfig('MEDIA_BUCKET'), Key: key, Tagging: { TagSet: [] } }));
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
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
