import { randomBytes } from 'node:crypto';
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
 *
 * Evidence (identity images, signed delegations, the signed option, admin room media) is
 * uploaded with an EVIDENCE form: a fresh random key per form (`uploadNonce`), valid
 * EVIDENCE_FORM_TTL_SECONDS at most. Once the server accepts the file it copies it to the
 * property's `evidence/` prefix (./media-storage.ts `sealEvidence`), which no form's key ever
 * names, and deletes the upload: posting the same form again only makes an object nothing links.
 */
/** An evidence form is valid this long at most (5 minutes). */
export const EVIDENCE_FORM_TTL_SECONDS = 300;

/** A fresh random part of an upload key (96 bits, hex): each form is for one object of its own. */
export function uploadNonce(): string {
  return randomBytes(12).toString('hex');
}

/** The pattern of uploadNonce() inside a key pattern. */
export const UPLOAD_NONCE_PATTERN = '[0-9a-f]{24}';

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
