/**
 * Step 4 of /seller-kyc (spec 000 sections 3, 4 and 7): the seller downloads the purchase
 * option's PDF (option.documentKey, written by the admin's createOption), signs it on paper,
 * uploads the signed copy (pdf, jpg, jpeg, png up to 20 MB: presigned POST under
 * `{propertyId}/option/signed-{ts}.{ext}`) and confirms it: HeadObject (type and size), its
 * first bytes (lib/upload-check.ts: a PDF must be a PDF...; a mismatch is deleted), then
 * ONE transaction (model/option.ts signOption) writes the OPTION's signatureType 'fisica',
 * signedAt and signatureData {signedDocumentKey, uploadedAt} (only once: 409 'Opzione già
 * firmata'), the property's optionSignedAt (the property guard, the caller as owner) and a
 * DOCUMENT item (kind 'signed-option') for the admin dossier. The admin page's poll
 * (GET /admin/properties/{id}/option) then sees signedAt. Only the property's owner: anyone else 404 'Immobile non trovato'.
 */
import { randomUUID } from 'node:crypto';
import { config, requireConfig } from '../../lib/config';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { deleteMediaObjects, evidenceKeyOf, sealEvidence } from '../../lib/media-storage';
import { presignDownload } from '../../lib/presigned-download';
import { EVIDENCE_FORM_TTL_SECONDS, presignUpload, uploadNonce, UPLOAD_NONCE_PATTERN } from '../../lib/presigned-upload';
import { requireUploadBytes } from '../../lib/upload-check';
import { requireOwnedDossier, requireOwnedProperty, str, type Item } from '../../model/owned-property';
import type { RawDossier } from '../../model/dossier';
import { delegatorSigner, toDelegationRecord } from '../../model/delegation';
import { coOwnerIdOf } from '../../model/co-owner';
import { readOption, signOption } from '../../model/option';
import { deliverOutbox } from '../../model/outbox';
import { deliverNow } from '../../model/review';
import { newToken } from '../../model/tokens';
import { renderAvailabilityEmail } from '../../domain/review/option-emails';
import { optionExpiryDate, toOptionDuration } from '../../domain/fees';
import {
  KYC_MESSAGES as M,
  SIGNED_OPTION_MAX_BYTES,
  SIGNED_OPTION_TYPES,
  signedOptionExtension,
  type OptionDocumentLink,
  type OptionSignedBody,
  type OptionSignedResult,
  type OptionUploadBody,
} from '../../domain/onboarding/kyc';
import type { PresignedUpload } from '../../domain/uploads';
import { fiscalCodeFitsName } from '../../domain/onboarding/rules';
import {
  DIGITAL_SIGNATURE_MESSAGES as DS,
  signatureModeOf,
  type CoOwnerFiscalCode,
  type DigitalSignature,
  type RequiredSigner,
} from '../../domain/onboarding/digital-signature';
import { requireDigitalSignature } from '../digital-signature';
import { toKycOption } from '../state';

/** The upload form's key: a fresh one per form (`{ts}-{nonce}`). */
export const signedOptionKeyOf = (propertyId: string, ts: number, ext: string) => `${propertyId}/option/signed-${ts}-${uploadNonce()}.${ext}`;
const signedOptionKeyPattern = (propertyId: string) =>
  new RegExp(`^${propertyId}/option/signed-(\\d{13})-${UPLOAD_NONCE_PATTERN}\\.(${Object.keys(SIGNED_OPTION_TYPES).join('|')})$`);

const isSigned = (o: Item) => str(o.signedAt) !== null;

/** The caller's property (404 'Immobile non trovato') and its OPTION item (404 'Opzione di acquisto non trovata'). */
async function requireOwnedOption(propertyId: string, userId: string): Promise<Item> {
  await requireOwnedProperty(propertyId, userId);
  const option = await readOption(propertyId);
  if (!option) throw new NotFoundError(M.optionNotFound);
  return option;
}

/** GET .../option/document: a presigned GET of the option PDF. */
export async function optionDocumentUrl(propertyId: string, userId: string): Promise<OptionDocumentLink> {
  const option = await requireOwnedOption(propertyId, userId);
  const key = str(option.documentKey);
  if (!key) throw new NotFoundError(M.documentPending);
  const fileName = `opzione-${String(option.id ?? propertyId)}.pdf`;
  return { ...(await presignDownload(key, { fileName })), fileName };
}

/** POST .../option/uploads: the presigned POST of the signed copy. */
export async function createSignedOptionUpload(propertyId: string, userId: string, body: OptionUploadBody, now = Date.now()): Promise<PresignedUpload> {
  const ext = signedOptionExtension(body.fileName, body.contentType);
  if (!ext) throw new ValidationError(M.uploadType, { fileName: M.uploadType });
  const option = await requireOwnedOption(propertyId, userId);
  if (isSigned(option)) throw new ConflictError(M.optionAlreadySigned);
  const contentType = body.contentType.trim().toLowerCase();
  return presignUpload({
    bucket: requireConfig('MEDIA_BUCKET'),
    key: signedOptionKeyOf(propertyId, now, ext),
    maxBytes: SIGNED_OPTION_MAX_BYTES,
    expiresSeconds: EVIDENCE_FORM_TTL_SECONDS,
    contentType: { value: contentType, family: contentType.split('/')[0]! },
    now,
  });
}

/**
 * POST .../option/signed: the uploaded signed copy signs the option. It is sealed first (a
 * server-side copy under the property's `evidence/` prefix, lib/media-storage.ts): type, size
 * and bytes are checked on the copy, the OPTION and the DOCUMENT link the copy with its
 * SHA-256, then the upload is deleted: posting the form again changes nothing they link.
 */
export async function confirmSignedOption(
  propertyId: string,
  userId: string,
  input: Pick<OptionSignedBody, 'key'> & Partial<OptionSignedBody>,
  now = new Date(),
): Promise<OptionSignedResult> {
  const body = { coOwnerFiscalCodes: [], ...input };
  const raw = await requireOwnedDossier(propertyId, userId);
  const { property } = raw;
  const option = raw.option;
  if (!option) throw new NotFoundError(M.optionNotFound);
  // propertyId is a checked id ([A-Za-z0-9-]) from here on
  const match = signedOptionKeyPattern(propertyId).exec(body.key);
  if (!match) throw new ValidationError(M.uploadKey, { key: M.uploadKey });
  if (isSigned(option)) throw new ConflictError(M.optionAlreadySigned);
  const key = body.key;
  const ext = match[2]!;
  const mode = signatureModeOf(ext, body.signature);
  if ('refusal' in mode) throw new ValidationError(mode.refusal, { key: mode.refusal });
  // a firma digitale must carry the seller's and every co-owner's signature: known before anything is copied
  const required = mode.mode === 'digitale' ? requiredOptionSigners(raw, body.coOwnerFiscalCodes) : [];
  const sealed = await sealEvidence(key, evidenceKeyOf(propertyId, `option/signed-${randomUUID()}.${ext}`), Number.MAX_SAFE_INTEGER);
  if (!sealed) throw new ValidationError(M.uploadFailed, { key: M.uploadFailed });
  const refuse = async (message: string, why: string): Promise<never> => {
    await deleteMediaObjects([sealed.key, key], why);
    throw new ValidationError(message, { key: message === M.uploadTooLarge ? M.uploadFailed : message });
  };
  const contentType = sealed.contentType.split(';')[0]!.trim().toLowerCase();
  if (!SIGNED_OPTION_TYPES[ext]!.includes(contentType)) await refuse(M.uploadType, 'wrong type');
  if (sealed.size < 1 || sealed.size > SIGNED_OPTION_MAX_BYTES) await refuse(sealed.size > SIGNED_OPTION_MAX_BYTES ? M.uploadTooLarge : M.uploadFailed, 'wrong size');
  let digital: DigitalSignature | null = null;
  try {
    // its bytes are what its type claims (a PDF is a PDF...): a mismatch is deleted, nothing is signed
    await requireUploadBytes([{ key: sealed.key, contentType, name: 'copia firmata', field: 'key' }]);
    if (mode.mode === 'digitale') {
      digital = await requireDigitalSignature({
        bytes: sealed.bytes,
        generatedKey: str(option.documentKey) ?? '',
        generatedAt: str(option.createdAt),
        required,
        field: 'key',
        now,
      });
    }
  } catch (err) {
    await deleteMediaObjects([sealed.key, key], 'signed option refused');
    throw err;
  }
  const at = now.toISOString();
  const fileName = key.split('/').pop()!;
  const signatureData = { signedDocumentKey: sealed.key, uploadedAt: at, sha256: sealed.sha256, ...(digital ?? {}) };
  const documentId = `opzione-firmata-${String(option.id ?? propertyId)}`;
  const signedDocument = { id: documentId, kind: 'signed-option', key: sealed.key, fileName, contentType, size: sealed.size, uploadedAt: at, sha256: sealed.sha256 };
  const signatureType = digital ? 'digitale' : 'fisica';
  // the expiry: the signature's calendar day in Italy plus the option's duration (none on a legacy option)
  const optionDuration = toOptionDuration(option.optionDuration);
  const expiry = optionDuration ? { expiresAt: optionExpiryDate(now, optionDuration), optionDuration } : null;
  // without keys the seller gives visit slots: the availability link goes with the signature
  const availability = option.hasKeys === false ? availabilityMail(property, option, now) : null;
  try {
    await signOption({ guard: { propertyId, owner: userId }, option, signatureData, document: signedDocument, expiresAt: expiry?.expiresAt ?? null, availability });
  } catch (err) {
    await deleteMediaObjects([sealed.key], 'signed option not recorded');
    throw err;
  }
  await deleteMediaObjects([key], 'signed option sealed');
  logger.info('Purchase option signed', { propertyId, optionId: option.id, signatureType, availabilityLink: availability !== null });
  if (availability) await deliverNow(availability.outbox.id, deliverOutbox);
  return {
    option: toKycOption({
      ...option,
      status: 'signed',
      signatureType,
      signedAt: at,
      signatureData,
      ...(expiry ? { expiresAt: expiry.expiresAt } : {}),
      ...(availability ? { availabilityLinkSentAt: at } : {}),
    }),
  };
}

/**
 * Who must have signed a digitally signed option: the seller (the delegator of the
 * delegations, step 3, with their codice fiscale) and every co-owner, with the codice fiscale
 * the seller gives for them. A missing one is a 400 naming what is missing; so is a code whose
 * letters are not the co-owner's name (someone else's), or already taken by the seller or
 * another co-owner (one certificate would count for two, and the seller alone could stand for
 * a co-owner who never signed).
 */
function requiredOptionSigners(raw: RawDossier, given: readonly CoOwnerFiscalCode[]): RequiredSigner[] {
  const seller = raw.delegations.map((d) => delegatorSigner(toDelegationRecord(d))).find((s) => s !== null);
  const refuse = (message: string): never => {
    throw new ValidationError(message, { key: message });
  };
  if (!seller) return refuse(DS.sellerFiscalCodeUnknown);
  const byId = new Map(given.map((g) => [g.coOwnerId, g.fiscalCode]));
  const taken = new Set([seller.fiscalCode.trim().toUpperCase()]);
  const coOwners = raw.coOwners.map((c) => {
    const name = str(c.fullName) ?? str(c.email) ?? 'un comproprietario';
    const fiscalCode = byId.get(coOwnerIdOf(c));
    if (!fiscalCode) return refuse(DS.coOwnerFiscalCode(name));
    // the code must be the co-owner's: its letters are those of their name and surname
    if (!fiscalCodeFitsName(fiscalCode, str(c.fullName) ?? '')) return refuse(DS.fiscalCodeNotOfName(name));
    const code = fiscalCode.trim().toUpperCase();
    if (taken.has(code)) return refuse(DS.fiscalCodeTwice(name));
    taken.add(code);
    return { name, fiscalCode };
  });
  return [seller, ...coOwners];
}

/** The availability link's token and mail for the seller (no e-mail on the request: none). */
function availabilityMail(property: Item, option: Item, now: Date) {
  const to = typeof property.email === 'string' ? property.email.trim() : '';
  if (!to) return null;
  const token = newToken();
  const mail = renderAvailabilityEmail({
    sellerName: `${str(property.firstName) ?? ''} ${str(property.lastName) ?? ''}`.trim(),
    propertyAddress: str(property.address) ?? '',
    propertyCity: str(property.city),
    minMonthlySlots: typeof option.minMonthlySlots === 'number' ? option.minMonthlySlots : 1,
    token,
    appUrl: config().APP_URL,
  });
  return { token, outbox: { id: `availability-signed-${String(option.propertyId)}-${now.getTime()}`, kind: 'availability-link', ref: String(option.propertyId), mail: { to: [to], ...mail } } };
}
