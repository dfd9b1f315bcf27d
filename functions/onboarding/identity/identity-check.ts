/**
 * The seller's identity check (spec 000, onboarding step 1, the verify-identity function):
 * the seller uploads a face photo and the document's front (and back) under the property's
 * `identity/` prefix, then asks for the check; the face matcher compares the face photo with
 * the document's front, and the outcome is stored on the dossier (IDENTITY item) whatever it
 * is: 'verified', 'review' (60-70 % or not completed by the engine: an admin decides, see
 * functions/review/decide-identity-review.ts) or 'rejected' with the reason.
 */
import * as z from 'zod';
import { requireConfig } from '../../lib/config';
import { ValidationError } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { randomUUID } from 'node:crypto';
import { deleteMediaObjects, evidenceKeyOf, sealEvidence, type Evidence } from '../../lib/media-storage';
import { EVIDENCE_FORM_TTL_SECONDS, presignUpload, uploadNonce } from '../../lib/presigned-upload';
import { requireUploadBytes } from '../../lib/upload-check';
import type { PresignedUpload } from '../../domain/uploads';
import {
  decideIdentity,
  engineIncomplete,
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
import { DocumentImageError, documentTextReader } from '../../lib/document-text/document-text';
import { documentTextRefusal, withDocumentText } from '../../domain/identity-document';
import { todayInRome } from '../../domain/availability';
import { getIdentityItem, requireOwnedProperty, saveIdentity, toIdentityRecord } from '../../model/identity';

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
  /** the surname the document must carry: the owner's (the request's last name), the words of a co-owner's name */
  surnames: readonly string[];
  save(outcome: IdentityOutcome): Promise<void>;
}

export interface IdentityOutcome {
  result: IdentityCheckResult;
  /** the input with every image key replaced by its evidence key (what the record links) */
  input: VerifyIdentityInput;
  /** SHA-256 of each evidence object */
  sha256: { facePhoto: string; documentFront: string; documentBack: string | null };
  engine: string;
  now: string;
}

/** `{propertyId}/identity/{namePrefix}{kind}-{timestamp}-{nonce}.{ext}`: a fresh key per form */
export function identityObjectKey(propertyId: string, kind: IdentityFileKind, ext: string, now = Date.now(), namePrefix = ''): string {
  return `${identityKeyPrefix(propertyId)}${namePrefix}${kind}-${now}-${uploadNonce()}.${ext}`;
}

/** A presigned POST for one identity image of the subject. */
export function presignIdentityUpload(subject: Pick<IdentitySubject, 'propertyId' | 'namePrefix'>, input: IdentityUploadInput): Promise<PresignedUpload> {
  return presignUpload({
    bucket: requireConfig('MEDIA_BUCKET'),
    key: identityObjectKey(subject.propertyId, input.kind, identityExtension(input.contentType), Date.now(), subject.namePrefix),
    maxBytes: IDENTITY_MAX_BYTES,
    expiresSeconds: EVIDENCE_FORM_TTL_SECONDS,
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

/** Each key is one signed for that image of this subject (under its `identity/` prefix, never an evidence key). */
function checkKeys(subject: Pick<IdentitySubject, 'propertyId' | 'namePrefix'>, input: VerifyIdentityInput): void {
  const prefix = identityKeyPrefix(subject.propertyId) + subject.namePrefix;
  const wrong: Record<string, string> = {};
  for (const [field, kind] of KEY_FIELDS) {
    const key = input[field];
    if (key !== undefined && !(key.startsWith(`${prefix}${kind}-`) && /^[\w./-]+$/.test(key) && !key.includes('..'))) wrong[field] = IDENTITY_MESSAGES.key;
  }
  if (Object.keys(wrong).length > 0) throw new ValidationError(IDENTITY_MESSAGES.key, wrong);
}

type KeyField = (typeof KEY_FIELDS)[number][0];
type Sealed = Partial<Record<KeyField, Evidence & { bytes: Buffer }>>;

/**
 * Seals the subject's images: each upload is copied server side under the property's
 * `evidence/identity/` prefix and the checks (JPEG or PNG really, the face comparison) run on
 * the copies, whose hashes the record keeps: posting a form again afterwards changes nothing
 * the record links. A missing upload is 400 'Dati mancanti'; a refused one deletes its upload
 * and every copy.
 */
async function sealImages(subject: Pick<IdentitySubject, 'propertyId' | 'namePrefix'>, input: VerifyIdentityInput): Promise<Sealed> {
  const sealed: Sealed = {};
  const fields = KEY_FIELDS.filter(([field]) => input[field] !== undefined);
  const results = await Promise.all(
    fields.map(async ([field, kind]) => {
      const key = input[field]!;
      const ext = key.slice(key.lastIndexOf('.') + 1);
      return [field, await sealEvidence(key, evidenceKeyOf(subject.propertyId, `identity/${subject.namePrefix}${kind}-${randomUUID()}.${ext}`), IDENTITY_MAX_BYTES)] as const;
    }),
  );
  for (const [field, e] of results) if (e) sealed[field] = e;
  const copies = () => Object.values(sealed).map((e) => e.key);
  const missing = Object.fromEntries(results.filter(([, e]) => e === undefined).map(([field]) => [field, IDENTITY_MESSAGES.missingDataHint]));
  if (Object.keys(missing).length > 0) {
    await deleteMediaObjects(copies(), 'identity check refused');
    throw new ValidationError(IDENTITY_MESSAGES.missingData, missing);
  }
  try {
    // their bytes: a JPEG or a PNG really (a mismatch is deleted, nothing is checked or stored)
    await requireUploadBytes(
      fields.map(([field]) => ({ key: sealed[field]!.key, contentType: sealed[field]!.contentType, name: IMAGE_NAMES[field], field, allowed: IDENTITY_CONTENT_TYPES, allowedLabel: 'JPG o PNG' })),
    );
  } catch (err) {
    const refused = err instanceof ValidationError ? Object.keys(err.fields ?? {}) : [];
    await deleteMediaObjects([...copies(), ...refused.map((f) => input[f as KeyField])], 'identity images refused');
    throw err;
  }
  return sealed;
}

/** How each image is named in a refusal */
const IMAGE_NAMES = { faceKey: 'foto del volto', documentFrontKey: 'fronte del documento', documentBackKey: 'retro del documento' } as const;

/** The check itself: keys, sealed copies, face comparison, decision; the subject stores the outcome whatever it is. */
export async function runIdentityCheck(subject: IdentitySubject, input: VerifyIdentityInput): Promise<IdentityCheckResult> {
  const { propertyId } = subject;
  checkKeys(subject, input);
  const sealed = await sealImages(subject, input);
  const face = sealed.faceKey!;
  const front = sealed.documentFrontKey!;
  const back = sealed.documentBackKey;
  const copies = [face.key, front.key, back?.key];
  const started = Date.now();
  let result: IdentityCheckResult;
  try {
    try {
      // the document's text is read while the faces are compared (front and back: the CIE's MRZ is on its back)
      const text = readLines([front.bytes, back?.bytes]);
      text.catch(() => undefined); // awaited below unless the faces already refused the check
      const comparison = await (await faceMatcher()).compareFaces(face.bytes, front.bytes);
      result = decideIdentity({ source: comparison.source, target: comparison.target, samePhoto: comparison.samePhoto, sameBytes: face.sha256 === front.sha256 });
      // the document must say what the user typed: its number and the holder's surname (and a valid, unexpired MRZ)
      if (result.status !== 'rejected') {
        result = withDocumentText(result, documentTextRefusal({ lines: await text, documentNumber: input.documentNumber, surnames: subject.surnames, today: todayInRome() }));
      }
      logger.info('identity check', {
        propertyId,
        coOwner: subject.namePrefix !== '',
        faces: { source: comparison.source.length, target: comparison.target.map((f) => +(f.box.width * f.box.height).toFixed(3)) },
        similarity: comparison.target[0]?.similarity ?? null,
        status: result.status,
        ms: Date.now() - started,
      });
    } catch (err) {
      if (err instanceof FaceImageError || err instanceof DocumentImageError) {
        result = {
          valid: false,
          status: 'rejected',
          reason: err.problem === 'tooLarge' ? IDENTITY_MESSAGES.imageTooLargeForCheck : IDENTITY_MESSAGES.unreadableImage,
          confidence: 0,
        };
      } else {
        // the engine could not complete the check (a service error, throttling): an admin decides
        logger.error('identity check not completed by the engine: to review', { propertyId, error: err as Error });
        result = engineIncomplete();
      }
    }
    await subject.save({
      result,
      input: { ...input, faceKey: face.key, documentFrontKey: front.key, ...(back ? { documentBackKey: back.key } : {}) },
      sha256: { facePhoto: face.sha256, documentFront: front.sha256, documentBack: back?.sha256 ?? null },
      engine: requireConfig('FACE_MATCHER'),
      now: new Date().toISOString(),
    });
  } catch (err) {
    // nothing links the copies: they go (the uploads stay, as before the check)
    await deleteMediaObjects(copies, 'identity check not stored');
    throw err;
  }
  // the record links the copies: the uploads go (a form posted again makes an object nothing links)
  await deleteMediaObjects([input.faceKey, input.documentFrontKey, input.documentBackKey], 'identity images sealed');
  return result;
}

/** Every line of text the reader finds on the document's images, in order. */
async function readLines(images: readonly (Buffer | undefined)[]): Promise<string[]> {
  const reader = await documentTextReader();
  const pages = await Promise.all(images.filter((i): i is Buffer => i !== undefined).map((i) => reader.readText(i)));
  return pages.flatMap((p) => p.lines);
}

/** POST .../identity: compares the face photo with the document's front and stores the outcome on the dossier. */
export async function verifyIdentity(propertyId: string, userId: string, input: VerifyIdentityInput): Promise<IdentityCheckResult> {
  const property = await requireOwnedProperty(propertyId, userId);
  return runIdentityCheck(
    {
      propertyId,
      namePrefix: '',
      // the request's last name, else the name typed with the check
      surnames: [typeof property.lastName === 'string' && property.lastName.trim() ? property.lastName : (input.fullName ?? '')],
      save: ({ result, input: i, sha256, engine, now }) =>
        saveIdentity({
          propertyId,
          userId,
          status: result.status,
          documentType: i.documentType,
          documentNumber: i.documentNumber,
          fullName: i.fullName && i.fullName !== '' ? i.fullName : null,
          confidence: result.confidence,
          reason: result.reason,
          facePhotoKey: i.faceKey,
          documentFrontKey: i.documentFrontKey,
          documentBackKey: i.documentBackKey ?? null,
          sha256,
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
