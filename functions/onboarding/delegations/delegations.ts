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
import { randomUUID } from 'node:crypto';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../lib/aws/s3';
import { requireConfig } from '../../lib/config';
import { NotFoundError, ValidationError } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { presignDownload } from '../../lib/presigned-download';
import { deleteMediaObjects, evidenceKeyOf, sealEvidence } from '../../lib/media-storage';
import { EVIDENCE_FORM_TTL_SECONDS, presignUpload, uploadNonce, UPLOAD_NONCE_PATTERN } from '../../lib/presigned-upload';
import { requireUploadBytes } from '../../lib/upload-check';
import {
  ONBOARDING_MESSAGES as M,
  SIGNED_DELEGATION_MAX_BYTES,
  SIGNED_DELEGATION_TYPES,
  signedUploadExtension,
  type DelegationType,
} from '../../domain/onboarding/rules';
import type { SellerDelegation } from '../../domain/onboarding/schemas';
import type { PresignedUpload } from '../../domain/uploads';
import { requireOwnedDossier } from '../../model/owned-property';
import { delegationTypeOf, delegatorSigner, recordSignedDelegation, sellerDelegationOf, toDelegationRecord, type DelegationRecord } from '../../model/delegation';
import { signatureModeOf, type DigitalSignature, type SignatureType } from '../../domain/onboarding/digital-signature';
import { requireDigitalSignature } from '../digital-signature';

export const generatedKeyOf = (propertyId: string, type: DelegationType, ts: number) => `${propertyId}/delegations/${type}-${ts}.pdf`;
/** The upload form's key: a fresh one per form (`{ts}-{nonce}`). */
export const signedKeyOf = (propertyId: string, type: DelegationType, ts: number, ext: string) => `${propertyId}/delegations/signed-${type}-${ts}-${uploadNonce()}.${ext}`;
const signedKeyPattern = (propertyId: string, type: DelegationType) =>
  new RegExp(`^${propertyId}/delegations/signed-${type}-\\d{13}-${UPLOAD_NONCE_PATTERN}\\.(${Object.keys(SIGNED_DELEGATION_TYPES).join('|')})$`);
/** Where an accepted signed copy is sealed: no upload form is ever signed for it. */
const signedEvidenceKeyOf = (propertyId: string, type: DelegationType, ext: string) => evidenceKeyOf(propertyId, `delegations/signed-${type}-${randomUUID()}.${ext}`);

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
    expiresSeconds: EVIDENCE_FORM_TTL_SECONDS,
    contentType: { value: contentType, family: contentType.split('/')[0]! },
    now,
  });
}

/**
 * POST .../delegations/{type}/signed: the uploaded signed copy becomes the delegation's
 * document. It is sealed first (copied server side under the property's `evidence/` prefix,
 * lib/media-storage.ts), the checks run on the copy, the record links the copy and its
 * SHA-256, then the upload is deleted: posting the form again changes nothing the record links.
 */
export async function confirmSigned(
  propertyId: string,
  userId: string,
  type: DelegationType,
  key: string,
  choice?: SignatureType,
  now = new Date(),
): Promise<SellerDelegation> {
  const raw = await requireOwnedDossier(propertyId, userId);
  const found = raw.delegations.find((x) => delegationTypeOf(x) === type);
  if (!found) throw new NotFoundError(M.delegationNotFound);
  const d = toDelegationRecord(found);
  // propertyId is a checked id ([A-Za-z0-9-]) from here on
  if (!signedKeyPattern(propertyId, type).test(key)) throw new ValidationError(M.uploadKey, { key: M.uploadKey });
  const ext = key.slice(key.lastIndexOf('.') + 1);
  const mode = signatureModeOf(ext, choice);
  if ('refusal' in mode) throw new ValidationError(mode.refusal, { key: mode.refusal });
  const sealed = await sealEvidence(key, signedEvidenceKeyOf(propertyId, type, ext), SIGNED_DELEGATION_MAX_BYTES);
  if (!sealed) throw new ValidationError(M.uploadMissing, { key: M.uploadMissing });
  let digitalSignature: DigitalSignature | null = null;
  try {
    // its bytes are what its type claims (a PDF is a PDF...): a mismatch is deleted, nothing is linked
    await requireUploadBytes([{ key: sealed.key, contentType: sealed.contentType, name: 'copia firmata', field: 'key' }]);
    // a firma digitale: the delegator signed exactly the generated PDF
    if (mode.mode === 'digitale') {
      const delegator = delegatorSigner(d);
      digitalSignature = await requireDigitalSignature({
        bytes: sealed.bytes,
        generatedKey: d.generatedKey ?? '',
        generatedAt: d.generatedAt,
        required: delegator ? [delegator] : [],
        field: 'key',
        now,
      });
    }
  } catch (err) {
    await deleteMediaObjects([sealed.key, key], 'signed copy refused');
    throw err;
  }
  const at = now.toISOString();
  // the last unsigned delegation signed: the step is complete (a reopening closes again)
  const completes = raw.delegations.map(toDelegationRecord).every((x) => x.type === type || (x.documentKey !== null && x.signedAt !== null));
  try {
    await recordSignedDelegation(
      { propertyId, owner: userId },
      {
        type,
        key: sealed.key,
        sha256: sealed.sha256,
        fileName: key.split('/').pop()!,
        contentType: sealed.contentType || 'application/octet-stream',
        size: sealed.size,
        generatedKey: d.generatedKey,
        completes,
        digitalSignature,
        at,
      },
    );
  } catch (err) {
    await deleteMediaObjects([sealed.key], 'signed copy not recorded');
    throw err;
  }
  const previous = d.documentKey;
  await deleteMediaObjects([key, previous && previous !== sealed.key ? previous : null], 'signed copy sealed or replaced');
  return sellerDelegationOf({ ...d, documentKey: sealed.key, signedAt: at, signatureType: mode.mode, signature: digitalSignature });
}
