/**
 * Delegations of the seller's property (spec 000 sections 4, 5 and 7): 'Genera Deleghe'
 * upserts one DELEGATION item per selected type and deletes the unselected ones (ONE
 * transaction with the property guard, the caller as owner: model/delegation.ts), each with
 * its filled PDF under `{propertyId}/delegations/{type}-{ts}.pdf` (attribute `generatedKey`);
 * the seller downloads it, uploads the signed copy (presigned POST) and confirms it
 * (HeadObject, its first bytes: lib/upload-check.ts, then documentKey and signedAt). A
 * delegation whose place and delegator did not change keeps its PDF and signature; a
 * regenerated one starts unsigned.
 */
import { DeleteObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../lib/aws/s3';
import { requireConfig } from '../../lib/config';
import { NotFoundError, ValidationError } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { presignDownload } from '../../lib/presigned-download';
import { presignUpload } from '../../lib/presigned-upload';
import { requireUploadBytes } from '../../lib/upload-check';
import {
  ONBOARDING_MESSAGES as M,
  SIGNED_DELEGATION_MAX_BYTES,
  SIGNED_DELEGATION_TYPES,
  signedUploadExtension,
  type DelegationType,
} from '../../domain/onboarding/rules';
import type { SellerDelegation } from '../../domain/onboarding/schemas';
import { MEDIA_UPLOAD_TTL_SECONDS, type PresignedUpload } from '../../domain/uploads';
import { requireOwnedDossier } from '../../model/owned-property';
import { delegationTypeOf, recordSignedDelegation, sellerDelegationOf, toDelegationRecord, type DelegationRecord } from '../../model/delegation';

export const generatedKeyOf = (propertyId: string, type: DelegationType, ts: number) => `${propertyId}/delegations/${type}-${ts}.pdf`;
export const signedKeyOf = (propertyId: string, type: DelegationType, ts: number, ext: string) => `${propertyId}/delegations/signed-${type}-${ts}.${ext}`;
const signedKeyPattern = (propertyId: string, type: DelegationType) =>
  new RegExp(`^${propertyId}/delegations/signed-${type}-\\d{13}\\.(${Object.keys(SIGNED_DELEGATION_TYPES).join('|')})$`);

/** Field by field: a stored map's key order is not the one written. */
export function sameDelegator(stored: unknown, wanted: Record<string, string>): boolean {
  const s = (stored ?? {}) as Record<string, unknown>;
  const names = new Set([...Object.keys(s), ...Object.keys(wanted)]);
  return [...names].every((k) => (s[k] ?? null) === (wanted[k] ?? null));
}

export function deleteObjects(keysToDelete: string[], why: string) {
  const bucket = requireConfig('MEDIA_BUCKET');
  return Promise.all(
    keysToDelete.map((Key) =>
      s3()
        .send(new DeleteObjectCommand({ Bucket: bucket, Key }))
        .catch((e: unknown) => logger.error('Delegation file left behind', { key: Key, why, error: e as Error })),
    ),
  );
}

async function requireDelegation(propertyId: string, userId: string, type: DelegationType): Promise<DelegationRecord> {
  const raw = await requireOwnedDossier(propertyId, userId);
  const d = raw.delegations.find((x) => delegationTypeOf(x) === type);
  if (!d) throw new NotFoundError(M.delegationNotFound);
  return toDelegationRecord(d);
}

/** GET .../delegations/{type}/document: a presigned GET of the generated PDF. */
export async function delegationDocumentUrl(propertyId: string, userId: string, type: DelegationType): Promise<{ url: string; expiresAt: string; fileName: string }> {
  const d = await requireDelegation(propertyId, userId, type);
  const key = d.generatedKey;
  if (!key) throw new NotFoundError(M.delegationNotGenerated);
  const fileName = `delega-${type}.pdf`;
  return { ...(await presignDownload(key, { fileName })), fileName };
}

/** POST .../delegations/{type}/uploads: the presigned POST of the signed copy. */
export async function createSignedUpload(
  propertyId: string,
  userId: string,
  type: DelegationType,
  body: { fileName: string; contentType: string; size: number },
  now = Date.now(),
): Promise<PresignedUpload> {
  const ext = signedUploadExtension(body.fileName, body.contentType);
  if (!ext) throw new ValidationError(M.uploadType, { fileName: M.uploadType });
  await requireDelegation(propertyId, userId, type);
  const contentType = body.contentType.trim().toLowerCase();
  return presignUpload({
    bucket: requireConfig('MEDIA_BUCKET'),
    key: signedKeyOf(propertyId, type, now, ext),
    maxBytes: SIGNED_DELEGATION_MAX_BYTES,
    expiresSeconds: MEDIA_UPLOAD_TTL_SECONDS,
    contentType: { value: contentType, family: contentType.split('/')[0]! },
    now,
  });
}

/** POST .../delegations/{type}/signed: the uploaded signed copy becomes the delegation's document. */
export async function confirmSigned(propertyId: string, userId: string, type: DelegationType, key: string, now = new Date()): Promise<SellerDelegation> {
  const d = await requireDelegation(propertyId, userId, type);
  // propertyId is a checked id ([A-Za-z0-9-]) from here on
  if (!signedKeyPattern(propertyId, type).test(key)) throw new ValidationError(M.uploadKey, { key: M.uploadKey });
  let head;
  try {
    head = await s3().send(new HeadObjectCommand({ Bucket: requireConfig('MEDIA_BUCKET'), Key: key }));
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (err as { name?: string }).name === 'NotFound') throw new ValidationError(M.uploadMissing, { key: M.uploadMissing });
    throw err;
  }
  const size = head.ContentLength ?? 0;
  if (size < 1 || size > SIGNED_DELEGATION_MAX_BYTES) throw new ValidationError(M.uploadMissing, { key: M.uploadMissing });
  // its bytes are what its type claims (a PDF is a PDF...): a mismatch is deleted, nothing is linked
  await requireUploadBytes([{ key, contentType: head.ContentType ?? '', name: 'copia firmata', field: 'key' }]);
  const at = now.toISOString();
  await recordSignedDelegation(
    { propertyId, owner: userId },
    { type, key, fileName: key.split('/').pop()!, contentType: head.ContentType ?? 'application/octet-stream', size, generatedKey: d.generatedKey, at },
  );
  const previous = d.documentKey;
  if (previous && previous !== key) await deleteObjects([previous], 'signed copy replaced');
  return sellerDelegationOf({ ...d, documentKey: key, signedAt: at });
}
