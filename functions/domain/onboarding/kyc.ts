/**
 * THE contract of /seller-kyc?token={token} (spec 000 sections 2 and 4) between the handlers
 * in functions/kyc/ and the SPA page: the state the page renders (GET /seller/kyc?token=...)
 * and the option-signing requests (download the option PDF, upload the signed copy,
 * confirm it). Types and zod schemas only, with Italian messages; the step logic is
 * `onboardingState` (./rules).
 *
 * Routes (all access ['seller']; a property that is not the caller's is 404):
 * - GET  /seller/kyc?token={token}   the e-mail's link, first arrival -> KycState (the owner's
 *   page then goes on by property id, so a link replaced or expired later never locks them out)
 * - GET  /seller/properties/{propertyId}/onboarding                -> SellerKycState
 * - GET  /seller/properties/{propertyId}/option/document          -> OptionDocumentLink
 * - POST /seller/properties/{propertyId}/option/uploads  OptionUploadBody  -> PresignedUpload (../uploads)
 * - POST /seller/properties/{propertyId}/option/signed   OptionSignedBody  -> OptionSignedResult
 */
import type { OptionDuration } from '../fees';
import * as z from 'zod';
import type { DocumentType } from '../identity';
import { MEGABYTE, tooLargeMessage } from '../uploads';
import { extensionOf, type DelegationType, type OnboardingStepId } from './rules';
import { coOwnerFiscalCodeSchema, signatureChoiceSchema, type DigitalSigner, type SignatureType } from './digital-signature';

export const KYC_MESSAGES = {
  /** 400: no token or a malformed one (spec: 'Link non valido') */
  linkInvalid: 'Link non valido',
  /** 404: unknown, expired or another seller's token (the page redirects to / with this toast) */
  tokenNotFound: 'Proprietà non trovata o link scaduto',
  /** 404 on the option routes when the property has no option yet */
  optionNotFound: 'Opzione di acquisto non trovata',
  /** the option exists but its PDF is not ready: the page shows this and a 'Ricarica' button */
  documentPending: 'Documento in preparazione',
  documentPendingHint: 'Il documento può richiedere alcuni minuti: ricarica la pagina tra poco',
  /** 409: a second confirmation */
  optionAlreadySigned: 'Opzione già firmata',
  uploadFileName: 'Nome del file non valido',
  uploadType: 'Formato non ammesso: carica un file pdf, jpg, jpeg o png',
  uploadTooLarge: tooLargeMessage(20 * MEGABYTE),
  uploadKey: 'Documento non valido',
  /** spec 000 section 9: the signed option upload failed */
  uploadFailed: 'Errore nel caricamento del documento',
  signedOk: 'Documento firmato caricato',
} as const;

// ---- GET /seller/kyc?token= ---------------------------------------------------------------

/** The invitation token of /seller-kyc?token=...: the property's (INVITE#) or a co-owner's (COINVITE#). */
export const KYC_TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,64}$/;

export const kycQuerySchema = z.object(
  { token: z.string({ error: KYC_MESSAGES.linkInvalid }).trim().regex(KYC_TOKEN_PATTERN, KYC_MESSAGES.linkInvalid) },
  { error: KYC_MESSAGES.linkInvalid },
);
export type KycQuery = z.infer<typeof kycQuerySchema>;

/** 'locked': an earlier step is not done; 'todo': available, not done; 'done'. */
export type KycStepStatus = 'locked' | 'todo' | 'done';

export interface KycStep {
  id: OnboardingStepId;
  /** 1..4 */
  number: number;
  title: string;
  status: KycStepStatus;
  /** false once the option is written from the step (created or signed, not reopened): the server refuses a change */
  editable: boolean;
}

/** What the seller reads under a step the option closed. */
export const STEP_CLOSED_NOTE = "L'opzione di acquisto è stata preparata con questi dati: per una correzione contatta l'assistenza.";

export interface KycProperty {
  id: string;
  address: string;
  city: string | null;
  province: string | null;
  /** the seller's first name, for the welcome */
  firstName: string;
}

/** The identity check of the step (no image keys). */
export interface KycIdentity {
  status: 'verified' | 'rejected' | 'review';
  documentType: DocumentType;
  /** 0-100; below 70 the page shows 'Attenzione' */
  confidence: number;
  reason: string | null;
  verifiedAt: string | null;
}

export interface KycCoOwner {
  id: string;
  email: string;
  fullName: string;
  share: number;
  invitedAt: string | null;
  verifiedAt: string | null;
  /** coOwnerBadge: 'Verificato' | 'Invito inviato' | null */
  badge: 'Verificato' | 'Invito inviato' | null;
}

export interface KycDelegation {
  /** on paper or a verified firma digitale (null: not signed) */
  signatureType: SignatureType | null;
  /** the digital signature's signers (empty on paper) */
  signers: DigitalSigner[];
  type: DelegationType;
  label: string;
  province: string;
  municipality: string;
  /** the filled PDF exists (GET .../delegations/{type}/document) */
  generated: boolean;
  /** its number of pages (the signed copy photographed page by page must have as many); null: not counted */
  pages: number | null;
  /** a signed copy was confirmed */
  signed: boolean;
  signedAt: string | null;
}

/** The purchase option as the seller sees it (present only when the admin created one). */
export interface KycOption {
  id: string;
  propertyValue: number;
  optionAmount: number;
  /** 6, 8 or 12 months; null: an option stored before the duration was recorded (1% of the value) */
  optionDuration: OptionDuration | null;
  /** yyyy-MM-dd, set at the signature */
  expiresAt: string | null;
  paymentType: 'anticipato' | 'rateale';
  installments: number | null;
  hasKeys: boolean;
  /** false: show 'Documento in preparazione' and 'Ricarica' */
  documentReady: boolean;
  /** pages of the document (as for a delegation); null: not counted */
  pages: number | null;
  signedAt: string | null;
  signatureType: SignatureType | null;
  /** the verified firma digitale's signers (empty on paper) */
  signers: DigitalSigner[];
}

/** The state of the property's owner (the seller who opened the property's invitation link). */
export interface SellerKycState {
  role: 'owner';
  /** the link it was opened with; null when opened by property id */
  token: string | null;
  property: KycProperty;
  /** identity, coOwners, delegations, plus option only when an option exists */
  steps: KycStep[];
  /** the first step not done; null when complete */
  current: OnboardingStepId | null;
  identity: KycIdentity | null;
  /** the seller's own share saved with the co-owners (null: not asked yet) */
  sellerShare: number | null;
  coOwners: KycCoOwner[];
  /** 'La somma delle quote è X% (dovrebbe essere 100%)' or null (also null with no co-owners) */
  shareWarning: string | null;
  /** 'Salta (Proprietà Singola)' was chosen */
  singleOwner: boolean;
  delegations: KycDelegation[];
  /** 'Completa Fase' enabled (every delegation signed) */
  canCompleteDelegations: boolean;
  /** null when there is no option (then there is no 4th step) */
  option: KycOption | null;
  complete: boolean;
  /** the text of the final card when complete, else null */
  completionMessage: string | null;
}

/**
 * A co-owner who opened their own invitation link (COINVITE#{token}) while signed in with
 * the invited e-mail: only their identity step, read-only for now (the co-owner's identity
 * check is not built yet).
 */
export interface CoOwnerKycState {
  role: 'coOwner';
  token: string;
  property: Omit<KycProperty, 'firstName'>;
  coOwner: { id: string; fullName: string; share: number; verifiedAt: string | null; badge: 'Verificato' | 'Invito inviato' | null };
  /** the co-owner's own last identity check (POST /seller/kyc/identity), or null */
  identity: KycIdentity | null;
  /** one step: identity */
  steps: KycStep[];
  complete: boolean;
}

export type KycState = SellerKycState | CoOwnerKycState;

// ---- option signing -----------------------------------------------------------------------

export const SIGNED_OPTION_MAX_BYTES = 20 * MEGABYTE;
/** Extension -> accepted Content-Types (spec 000: pdf, jpg, jpeg, png). */
export const SIGNED_OPTION_TYPES: Record<string, readonly string[]> = {
  pdf: ['application/pdf'],
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  png: ['image/png'],
  // a CAdES firma digitale (./digital-signature.ts)
  p7m: ['application/pkcs7-mime'],
};
/** For <input accept>. */
export const SIGNED_OPTION_ACCEPT = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';

/** The extension when the file name and type are an accepted pair, else null. */
export function signedOptionExtension(fileName: string, contentType: string): string | null {
  const ext = extensionOf(fileName);
  const types = SIGNED_OPTION_TYPES[ext];
  if (!types) return null;
  return types.includes(contentType.trim().toLowerCase()) ? ext : null;
}

/** POST /seller/properties/{propertyId}/option/uploads */
export const optionUploadSchema = z
  .object(
    {
      fileName: z.string({ error: KYC_MESSAGES.uploadFileName }).trim().min(1, KYC_MESSAGES.uploadFileName).max(200, KYC_MESSAGES.uploadFileName),
      contentType: z.string({ error: KYC_MESSAGES.uploadType }).trim().toLowerCase().min(1, KYC_MESSAGES.uploadType).max(200, KYC_MESSAGES.uploadType),
      size: z
        .number({ error: KYC_MESSAGES.uploadFailed })
        .int(KYC_MESSAGES.uploadFailed)
        .min(1, KYC_MESSAGES.uploadFailed)
        .max(SIGNED_OPTION_MAX_BYTES, KYC_MESSAGES.uploadTooLarge),
    },
    { error: KYC_MESSAGES.uploadFailed },
  )
  .refine((b) => signedOptionExtension(b.fileName, b.contentType) !== null, { message: KYC_MESSAGES.uploadType, path: ['fileName'] });
export type OptionUploadBody = z.infer<typeof optionUploadSchema>;

/**
 * POST /seller/properties/{propertyId}/option/signed: the `key` of the PresignedUpload; with a
 * firma digitale (`signature` 'digitale', always for a .p7m) the co-owners' codici fiscali, whose
 * signatures the file must carry beside the seller's.
 */
export const optionSignedSchema = z.object(
  {
    key: z.string({ error: KYC_MESSAGES.uploadKey }).trim().min(1, KYC_MESSAGES.uploadKey).max(400, KYC_MESSAGES.uploadKey),
    signature: signatureChoiceSchema,
    coOwnerFiscalCodes: z.array(coOwnerFiscalCodeSchema, { error: 'Codici fiscali non validi' }).max(50, 'Codici fiscali non validi').default([]),
  },
  { error: KYC_MESSAGES.uploadKey },
);
export type OptionSignedBody = z.infer<typeof optionSignedSchema>;

/** GET /seller/properties/{propertyId}/option/document: presigned GET (a few minutes). */
export interface OptionDocumentLink {
  url: string;
  expiresAt: string;
  fileName: string;
}

/** POST .../option/signed answers the signed option; the page then reloads the state. */
export interface OptionSignedResult {
  option: KycOption;
}

// ---- the signed copy photographed page by page (web/src/features/onboarding/signed-pages) ----

export const PHOTO_PAGES_MESSAGES = {
  open: 'Fotografa le pagine firmate',
  hint: "Fotografa ogni pagina firmata, nell'ordine del documento: le foto diventano un unico PDF, caricato come copia firmata.",
  none: 'Aggiungi almeno una pagina',
  failed: 'Impossibile creare il PDF dalle foto',
  notImage: 'Scegli foto in formato jpg o png',
} as const;

/** The page count refused: the document has `expected` pages, the seller added `got`. */
export function pagesCountMessage(expected: number, got: number): string {
  const pages = (n: number) => (n === 1 ? '1 pagina' : `${n} pagine`);
  return `Il documento ha ${pages(expected)}: ne hai aggiunte ${got}. Fotografa tutte le pagine, una per foto.`;
}
