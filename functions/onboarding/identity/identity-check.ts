/**
 * The seller's identity check (spec 000, onboarding step 1, the verify-identity function):
 * the seller uploads a face photo and the document's front (and back) under the property's
 * `identity/` prefix, then asks for the check; the face matcher compares the face photo with
 * the document's front, and the outcome is stored on the dossier (IDENTITY item) whatever it
 * is: 'verified' (also below LOW_CONFIDENCE: the client warns 'Attenzione') or 'rejected'
 * with the reason.
 */
import * as z from 'zod';
import { requireConfig } from '../../lib/config';
import { ValidationError } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { presignUpload } from '../../lib/presigned-upload';
import { requireUploadBytes } from '../../lib/upload-check';
import { MEDIA_UPLOAD_TTL_SECONDS, type PresignedUpload } from '../../domain/uploads';
import {
  decideIdentity,
  identityExtension,
  identityKeyPrefix,
  IDENTITY_CONTENT_TYPES,
  IDENTITY_MAX_BYTES,
  IDENTITY_MESSAGES,
  type IdentityCheckResult,
  type IdentityFileKind,
  type IdentityRecord,
  type IdentityUploadInput,
  type VerifyIdentityInput,
} from '../../domain/identity';
import { faceMatcher, FaceImageError } from '../../lib/faces/face-matcher';
import { getIdentityItem, headMedia, readMedia, requireOwnedProperty, saveIdentity, toIdentityRecord } from '../../model/identity';

export const identityParams = z.object({
  propertyId: z.string({ error: IDENTITY_MESSAGES.propertyNotFound }).min(1, IDENTITY_MESSAGES.propertyNotFound).max(100, IDENTITY_MESSAGES.propertyNotFound),
});

/**
 * Whose identity is checked: the owner of the property, or one of its invited co-owners
 * (functions/kyc/co-owner-identity.ts). The use case is the same; the subject says where the
 * images go (`namePrefix` before `{kind}-` under the property's `identity/` prefix) and where
 * the outcome is stored. The caller's right to act for the subject is checked before.
 */
export interface IdentitySubject {
  propertyId: string;
  /** '' for the owner, 'coowner-{coOwnerId}-' for a co-owner */
  namePrefix: string;
  save(outcome: IdentityOutcome): Promise<void>;
}

export interface IdentityOutcome {
  result: IdentityCheckResult;
  input: VerifyIdentityInput;
  engine: string;
  now: string;
}

/** `{propertyId}/identity/{namePrefix}{kind}-{timestamp}.{ext}` */
export function identityObjectKey(propertyId: string, kind: IdentityFileKind, ext: string, now = Date.now(), namePrefix = ''): string {
  return `${identityKeyPrefix(propertyId)}${namePrefix}${kind}-${now}.${ext}`;
}

/** A presigned POST for one identity image of the subject. */
export function presignIdentityUpload(subject: Pick<IdentitySubject, 'propertyId' | 'namePrefix'>, input: IdentityUploadInput): Promise<PresignedUpload> {
  return presignUpload({
    bucket: requireConfig('MEDIA_BUCKET'),
    key: identityObjectKey(subject.propertyId, input.kind, identityExtension(input.contentType), Date.now(), subject.namePrefix),
    maxBytes: IDENTITY_MAX_BYTES,
    expiresSeconds: MEDIA_UPLOAD_TTL_SECONDS,
    contentType: { value: input.contentType, family: 'image' },
  });
}

/** POST .../identity/uploads: a presigned POST for one identity image of the caller's property. */
export async function createIdentityUpload(propertyId: string, userId: string, input: IdentityUploadInput): Promise<PresignedUpload> {
  await requireOwnedProperty(propertyId, userId);
  return presignIdentityUpload({ propertyId, namePrefix: '' }, input);
}

const KEY_FIELDS = [
  ['faceKey', 'face'],
  ['documentFrontKey', 'documentFront'],
  ['documentBackKey', 'documentBack'],
] as const;

/** Each key is one signed for that image of this subject, S3 holds it, and it is really a JPEG or a PNG. */
async function checkKeys(subject: Pick<IdentitySubject, 'propertyId' | 'namePrefix'>, input: VerifyIdentityInput): Promise<void> {
  const prefix = identityKeyPrefix(subject.propertyId) + subject.namePrefix;
  const wrong: Record<string, string> = {};
  for (const [field, kind] of KEY_FIELDS) {
    const key = input[field];
    if (key !== undefined && !(key.startsWith(`${prefix}${kind}-`) && /^[\w./-]+$/.test(key) && !key.includes('..'))) wrong[field] = IDENTITY_MESSAGES.key;
  }
  if (Object.keys(wrong).length > 0) throw new ValidationError(IDENTITY_MESSAGES.key, wrong);
  const heads = await Promise.all(KEY_FIELDS.map(async ([field]) => [field, input[field] === undefined ? true : await headMedia(input[field]!)] as const));
  const missing = Object.fromEntries(heads.filter(([, h]) => h === undefined).map(([field]) => [field, IDENTITY_MESSAGES.missingDataHint]));
  if (Object.keys(missing).length > 0) throw new ValidationError(IDENTITY_MESSAGES.missingData, missing);
  // their bytes: a JPEG or a PNG really (a mismatch is deleted, nothing is checked or stored)
  await requireUploadBytes(
    heads.flatMap(([field, head]) =>
      head === true || head === undefined
        ? []
        : [{ key: input[field]!, contentType: head.contentType, name: IMAGE_NAMES[field], field, allowed: IDENTITY_CONTENT_TYPES, allowedLabel: 'JPG o PNG' }],
    ),
  );
}

/** How each image is named in a refusal */
const IMAGE_NAMES = { faceKey: 'foto del volto', documentFrontKey: 'fronte del documento', documentBackKey: 'retro del documento' } as const;

/** The check itself: keys, face comparison, decision; the subject stores the outcome whatever it is. */
export async function runIdentityCheck(subject: IdentitySubject, input: VerifyIdentityInput): Promise<IdentityCheckResult> {
  const { propertyId } = subject;
  await checkKeys(subject, input);
  const [face, front] = await Promise.all([readMedia(input.faceKey, IDENTITY_MAX_BYTES), readMedia(input.documentFrontKey, IDENTITY_MAX_BYTES)]);
  if (!face || !front) throw new ValidationError(IDENTITY_MESSAGES.missingData);

  const started = Date.now();
  let result: IdentityCheckResult;
  try {
    const comparison = await (await faceMatcher()).compareFaces(face, front);
    result = decideIdentity(comparison.faces, comparison.similarity);
    logger.info('identity check', { propertyId, coOwner: subject.namePrefix !== '', faces: comparison.faces, similarity: comparison.similarity, ms: Date.now() - started });
  } catch (err) {
    if (!(err instanceof FaceImageError)) throw err;
    result = {
      valid: false,
      reason: err.problem === 'tooLarge' ? IDENTITY_MESSAGES.imageTooLargeForCheck : IDENTITY_MESSAGES.unreadableImage,
      confidence: 0,
    };
  }
  await subject.save({ result, input, engine: requireConfig('FACE_MATCHER'), now: new Date().toISOString() });
  return result;
}

/** POST .../identity: compares the face photo with the document's front and stores the outcome on the dossier. */
export async function verifyIdentity(propertyId: string, userId: string, input: VerifyIdentityInput): Promise<IdentityCheckResult> {
  await requireOwnedProperty(propertyId, userId);
  return runIdentityCheck(
    {
      propertyId,
      namePrefix: '',
      save: ({ result, input: i, engine, now }) =>
        saveIdentity({
          propertyId,
          userId,
          status: result.valid ? 'verified' : 'rejected',
          documentType: i.documentType,
          documentNumber: i.documentNumber,
          fullName: i.fullName && i.fullName !== '' ? i.fullName : null,
          confidence: result.confidence,
          reason: result.reason,
          facePhotoKey: i.faceKey,
          documentFrontKey: i.documentFrontKey,
          documentBackKey: i.documentBackKey ?? null,
          engine,
          now,
        }),
    },
    input,
  );
}

/** GET .../identity: the caller's check of the property, or null when none was made. */
export async function getIdentity(propertyId: string, userId: string): Promise<{ identity: IdentityRecord | null }> {
  await requireOwnedProperty(propertyId, userId);
  const item = await getIdentityItem(propertyId);
  return { identity: item ? toIdentityRecord(item) : null };
}
