import { createPresignedPost, type PresignedPostOptions } from '@aws-sdk/s3-presigned-post';
import { s3 } from './aws/s3';
import type { PresignedUpload } from '../domain/uploads';

/**
 * THE presigned POST of the product (wizard media and OMI CSV files): the browser sends the
 * file straight to S3, and the policy S3 checks binds
 * - the key (exactly),
 * - the size: 1 byte to `maxBytes`,
 * - with `contentType`: the declared Content-Type exactly, within its family (`image/`, `video/`),
 * - with `tagging`: exactly that tag set on the object (S3's `tagging` form field; the wizard's
 *   drafts, ./draft-uploads.ts),
 * and expires after `expiresSeconds`. Every route answers the same `PresignedUpload`.
 */
export interface PresignInput {
  bucket: string;
  key: string;
  maxBytes: number;
  expiresSeconds: number;
  contentType?: { value: string; family: string };
  /** the object's tag set as S3's XML (a signed field: the browser cannot change or drop it) */
  tagging?: string;
  now?: number;
}

type Conditions = NonNullable<PresignedPostOptions['Conditions']>;

export function uploadConditions(input: Pick<PresignInput, 'key' | 'maxBytes' | 'contentType'>): Conditions {
  const conditions: Conditions = [
    ['content-length-range', 1, input.maxBytes],
    ['eq', '$key', input.key],
  ];
  if (input.contentType) conditions.push(['starts-with', '$Content-Type', `${input.contentType.family}/`]);
  return conditions;
}

function fieldsOf(input: PresignInput): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  if (input.contentType) fields['Content-Type'] = input.contentType.value;
  if (input.tagging) fields.tagging = input.tagging;
  return Object.keys(fields).length ? fields : undefined;
}

export async function presignUpload(input: PresignInput): Promise<PresignedUpload> {
  const now = input.now ?? Date.now();
  const { url, fields } = await createPresignedPost(s3(), {
    Bucket: input.bucket,
    Key: input.key,
    Conditions: uploadConditions(input),
    // every field here is also an exact-match condition of the policy
    Fields: fieldsOf(input),
    Expires: input.expiresSeconds,
  });
  return {
    method: 'POST',
    key: input.key,
    url,
    fields,
    expiresAt: new Date(now + input.expiresSeconds * 1000).toISOString(),
    maxBytes: input.maxBytes,
  };
}
