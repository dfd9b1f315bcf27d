import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3 } from './aws/s3';
import { requireConfig } from './config';

/**
 * THE presigned GET of the product: private media and documents are shown or downloaded
 * through short-lived URLs made here, never through public objects. Items keep S3 keys;
 * each read that shows a file asks for a fresh URL.
 */
export const DOWNLOAD_URL_SECONDS = 300;

export async function presignDownload(
  key: string,
  opts: { bucket?: string; expiresSeconds?: number; fileName?: string } = {},
): Promise<{ url: string; expiresAt: string }> {
  const expiresSeconds = opts.expiresSeconds ?? DOWNLOAD_URL_SECONDS;
  const url = await getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: opts.bucket ?? requireConfig('MEDIA_BUCKET'),
      Key: key,
      ...(opts.fileName ? { ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(opts.fileName)}` } : {}),
    }),
    { expiresIn: expiresSeconds },
  );
  return { url, expiresAt: new Date(Date.now() + expiresSeconds * 1000).toISOString() };
}
