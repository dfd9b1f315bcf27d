/**
 * The seller's identity check (spec 000, onboarding step 1): a face photo and the identity
 * document's front (and back), compared by a face matcher. Shared by the server
 * (functions/identity/) and, later, the SPA's identity dialog.
 */
import * as z from 'zod';
import { MEGABYTE, tooLargeMessage } from './uploads';

export const DOCUMENT_TYPES = ['carta_identita', 'passaporto', 'patente'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  carta_identita: "Carta d'identità",
  passaporto: 'Passaporto',
  patente: 'Patente',
};

/** The three images of a check: the face photo, the document's front and back. */
export const IDENTITY_FILE_KINDS = ['face', 'documentFront', 'documentBack'] as const;
export type IdentityFileKind = (typeof IDENTITY_FILE_KINDS)[number];

export const IDENTITY_CONTENT_TYPES = ['image/jpeg', 'image/png'] as const;
export type IdentityContentType = (typeof IDENTITY_CONTENT_TYPES)[number];

/** An identity image: at most 10 MB. */
export const IDENTITY_MAX_BYTES = 10 * MEGABYTE;

/**
 * Similarity (0-100) of the face photo and the document's face, on Rekognition's scale (the
 * local engine maps its descriptor distance onto it, functions/lib/faces/local-face-matcher.ts):
 * - from LOW_CONFIDENCE (70): verified;
 * - from MATCH_MIN_SIMILARITY (60) to below 70: the review queue ('review'): an admin
 *   compares the two images and approves or rejects with a reason;
 * - below 60: rejected ('Il volto non corrisponde alla foto del documento').
 */
export const MATCH_MIN_SIMILARITY = 60;
export const LOW_CONFIDENCE = 70;

/**
 * A face on the document smaller than this fraction of its largest face's area is not a
 * second person: the small "ghost" portrait of a carta d'identità elettronica (about 1/9 of
 * the main portrait's area) or a hologram. Two faces of comparable size still refuse.
 */
export const GHOST_FACE_MAX_RATIO = 0.25;

/**
 * The document's (largest) face covers at most this fraction of the document image. The face
 * box of a portrait on a whole card is 5.5-8.3 % of the image on the test cards of
 * test/support/faces.ts (on a real CIE held to fill the frame about 10-12 %: the portrait is
 * ~28 % of the card, the face ~40 % of the portrait); a selfie or a portrait crop is 25-42 %
 * (the sample face photos): a selfie sent as the document is refused with its own reason.
 */
export const DOCUMENT_FACE_MAX_AREA = 0.2;

/**
 * The same photograph sent twice (resized, recompressed) puts the face at the same place of
 * the frame: each side of the two face boxes within this fraction of the image, with a
 * similarity of at least SAME_FRAME_MIN_SIMILARITY. Two shots never frame a face that
 * exactly; the document's face is anyway at most DOCUMENT_FACE_MAX_AREA of its image.
 */
export const SAME_FRAME_TOLERANCE = 0.02;
export const SAME_FRAME_MIN_SIMILARITY = 80;

/** The longest reason an admin writes when deciding a review. */
export const REVIEW_REASON_MAX = 500;

export const IDENTITY_MESSAGES = {
  propertyNotFound: 'Immobile non trovato',
  missingData: 'Dati mancanti',
  missingDataHint: 'Completa tutti i passaggi prima di procedere',
  documentNumberRequired: 'Il numero del documento è obbligatorio',
  documentNumberTooLong: 'Il numero del documento può avere al massimo 30 caratteri',
  documentNumberFormat: 'Il numero del documento può contenere solo lettere, cifre e trattini',
  documentType: 'Tipo di documento non valido',
  fullNameTooLong: 'Il nome può avere al massimo 200 caratteri',
  fileKind: 'Tipo di foto non valido',
  fileName: 'Nome del file non valido',
  contentType: 'Sono ammesse solo immagini JPEG o PNG',
  size: 'Dimensione del file non valida',
  tooLarge: tooLargeMessage(IDENTITY_MAX_BYTES),
  key: 'Il file non appartiene a questa verifica: caricalo di nuovo',
  verificationFailed: 'Verifica non riuscita',
  samePhoto: 'La foto del volto e la foto del documento sono la stessa immagine: scatta un selfie e fotografa il documento',
  documentFaceTooLarge: 'La foto del documento deve mostrare tutto il documento, non solo un volto: fotografa il fronte intero',
  inReview: 'Verifica in corso: un operatore confronterà le foto entro un giorno lavorativo',
  engineUnavailable: 'Verifica automatica non completata: un operatore confronterà le foto entro un giorno lavorativo',
  // the admin's review (review routes)
  reviewDecision: 'Decisione non valida: approva o rifiuta',
  reviewReason: 'Indica il motivo della decisione',
  reviewReasonTooLong: `Il motivo può avere al massimo ${REVIEW_REASON_MAX} caratteri`,
  reviewNotPending: 'La verifica non è più in attesa di revisione',
  reviewCheckInvalid: 'Verifica da decidere non valida: ricarica la pagina',
  reviewNotFound: 'Verifica non trovata',
  reviewApproved: "Identità verificata da un operatore",
  reviewRejected: 'Identità rifiutata da un operatore',
  lowConfidence: 'Attenzione',
  // reasons of a check that did not pass (answered with valid: false)
  noFaceInPhoto: 'Nessun volto riconosciuto nella foto del volto',
  manyFacesInPhoto: 'Più di un volto nella foto del volto',
  noFaceInDocument: 'Nessun volto riconosciuto nella foto del documento',
  manyFacesInDocument: 'Più di un volto nella foto del documento',
  noMatch: 'Il volto non corrisponde alla foto del documento',
  unreadableImage: 'Immagine non leggibile: carica una foto JPEG o PNG',
  imageTooLargeForCheck: 'Immagine troppo grande per la verifica: carica una foto più leggera',
  // reasons of a check that passed
  verified: 'Identità verificata',
} as const;

/** POST /seller/properties/{propertyId}/identity/uploads */
export const identityUploadSchema = z.object({
  kind: z.enum(IDENTITY_FILE_KINDS, { error: IDENTITY_MESSAGES.fileKind }),
  fileName: z.string({ error: IDENTITY_MESSAGES.fileName }).trim().min(1, IDENTITY_MESSAGES.fileName).max(200, IDENTITY_MESSAGES.fileName),
  contentType: z.enum(IDENTITY_CONTENT_TYPES, { error: IDENTITY_MESSAGES.contentType }),
  size: z
    .number({ error: IDENTITY_MESSAGES.size })
    .int(IDENTITY_MESSAGES.size)
    .min(1, IDENTITY_MESSAGES.size)
    .max(IDENTITY_MAX_BYTES, IDENTITY_MESSAGES.tooLarge),
});
export type IdentityUploadInput = z.output<typeof identityUploadSchema>;

const fileKey = z.string({ error: IDENTITY_MESSAGES.missingData }).trim().min(1, IDENTITY_MESSAGES.missingData).max(300, IDENTITY_MESSAGES.key);

/** POST /seller/properties/{propertyId}/identity */
export const verifyIdentitySchema = z.object({
  documentType: z.enum(DOCUMENT_TYPES, { error: IDENTITY_MESSAGES.documentType }).default('carta_identita'),
  documentNumber: z
    .string({ error: IDENTITY_MESSAGES.documentNumberRequired })
    .trim()
    .min(1, IDENTITY_MESSAGES.documentNumberRequired)
    .max(30, IDENTITY_MESSAGES.documentNumberTooLong)
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, IDENTITY_MESSAGES.documentNumberFormat)
    .transform((v) => v.toUpperCase().replace(/\s+/g, '')),
  fullName: z.string({ error: IDENTITY_MESSAGES.fullNameTooLong }).trim().max(200, IDENTITY_MESSAGES.fullNameTooLong).optional(),
  faceKey: fileKey,
  documentFrontKey: fileKey,
  documentBackKey: fileKey.optional(),
});
export type VerifyIdentityInput = z.output<typeof verifyIdentitySchema>;

/** 'review': between MATCH_MIN_SIMILARITY and LOW_CONFIDENCE, or not completed by the engine; an admin decides. */
export type IdentityStatus = 'verified' | 'rejected' | 'review';
export const IDENTITY_STATUSES = ['verified', 'rejected', 'review'] as const;

/** The answer of a check (spec 000, verify-identity: valid, reason, confidence; status says which of the three). */
export interface IdentityCheckResult {
  /** true only when verified */
  valid: boolean;
  status: IdentityStatus;
  reason: string;
  /** similarity 0-100 of the face photo and the document's face; 0 when no comparison was possible */
  confidence: number;
}

/** An admin's decision on a check in review, recorded with who and when. */
export interface IdentityReview {
  decision: 'approve' | 'reject';
  reason: string;
  by: string;
  at: string;
}

/** GET /seller/properties/{propertyId}/identity: the stored check, keys only (no URLs). */
export interface IdentityRecord {
  status: IdentityStatus;
  documentType: DocumentType;
  documentNumber: string;
  fullName: string | null;
  confidence: number;
  reason: string;
  verifiedAt: string | null;
  checkedAt: string;
  facePhotoKey: string;
  documentFrontKey: string;
  documentBackKey: string | null;
  review: IdentityReview | null;
}

/** A face box as fractions (0-1) of its image (the FaceMatcher port's FaceBox). */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** What the face matcher saw, plus whether the two files are byte for byte the same. */
export interface FaceObservation {
  /** faces of the face photo, largest first */
  source: Box[];
  /** faces of the document, largest first, with their similarity to the face photo's face */
  target: { box: Box; similarity: number | null }[];
  /** the engine says it is the same photograph (local engine: descriptor distance) */
  samePhoto: boolean;
  /** the two files have the same SHA-256 */
  sameBytes: boolean;
}

const area = (b: Box) => Math.max(0, b.width) * Math.max(0, b.height);

/** The document's faces that count: the largest and any other of comparable size (ghost portraits dropped). */
export function comparableFaces<T extends { box: Box }>(faces: readonly T[]): T[] {
  const sorted = [...faces].sort((x, y) => area(y.box) - area(x.box));
  const largest = sorted[0];
  if (!largest) return [];
  return sorted.filter((f) => area(f.box) >= area(largest.box) * GHOST_FACE_MAX_RATIO);
}

/** Same place and size in the frame: the same photograph resized or recompressed. */
export function sameFrame(a: Box, b: Box): boolean {
  return (['left', 'top', 'width', 'height'] as const).every((k) => Math.abs(a[k] - b[k]) <= SAME_FRAME_TOLERANCE);
}

const round1 = (n: number) => Math.round(Math.max(0, Math.min(100, n)) * 10) / 10;

/**
 * Decides a check from what the face matcher saw: the same file or photograph twice is
 * refused; the face photo shows exactly one face; on the document the largest face counts
 * (faces under GHOST_FACE_MAX_RATIO of it are ignored) and must be a small part of the image;
 * then the similarity decides: verified from 70, review from 60, rejected below.
 */
export function decideIdentity(seen: FaceObservation): IdentityCheckResult {
  const fail = (reason: string, confidence = 0): IdentityCheckResult => ({ valid: false, status: 'rejected', reason, confidence });
  if (seen.sameBytes) return fail(IDENTITY_MESSAGES.samePhoto);
  if (seen.source.length === 0) return fail(IDENTITY_MESSAGES.noFaceInPhoto);
  if (seen.source.length > 1) return fail(IDENTITY_MESSAGES.manyFacesInPhoto);
  const faces = comparableFaces(seen.target);
  const doc = faces[0];
  if (!doc) return fail(IDENTITY_MESSAGES.noFaceInDocument);
  if (faces.length > 1) return fail(IDENTITY_MESSAGES.manyFacesInDocument);
  const confidence = round1(doc.similarity ?? 0);
  if (seen.samePhoto || (sameFrame(seen.source[0]!, doc.box) && confidence >= SAME_FRAME_MIN_SIMILARITY)) return fail(IDENTITY_MESSAGES.samePhoto);
  if (area(doc.box) > DOCUMENT_FACE_MAX_AREA) return fail(IDENTITY_MESSAGES.documentFaceTooLarge);
  if (confidence < MATCH_MIN_SIMILARITY) return fail(IDENTITY_MESSAGES.noMatch, confidence);
  if (confidence < LOW_CONFIDENCE) return { valid: false, status: 'review', reason: IDENTITY_MESSAGES.inReview, confidence };
  return { valid: true, status: 'verified', reason: IDENTITY_MESSAGES.verified, confidence };
}

/** A check the engine could not complete (a service error, a timeout): an admin decides. */
export function engineIncomplete(): IdentityCheckResult {
  return { valid: false, status: 'review', reason: IDENTITY_MESSAGES.engineUnavailable, confidence: 0 };
}

/** POST /admin/identity-reviews/{propertyId} */
export const identityReviewDecisionSchema = z.object({
  decision: z.enum(['approve', 'reject'], { error: IDENTITY_MESSAGES.reviewDecision }),
  reason: z
    .string({ error: IDENTITY_MESSAGES.reviewReason })
    .trim()
    .min(1, IDENTITY_MESSAGES.reviewReason)
    .max(REVIEW_REASON_MAX, IDENTITY_MESSAGES.reviewReasonTooLong),
  /**
   * the check the admin looked at (IdentityReviewItem.checkedAt): the decision applies to that
   * check only; a newer one made meanwhile by the seller or co-owner answers 409. Required: a
   * decision that names no check could approve one nobody saw (a page opened before a new check)
   */
  checkedAt: z.iso.datetime({ error: IDENTITY_MESSAGES.reviewCheckInvalid }),
});
export type IdentityReviewDecisionInput = z.output<typeof identityReviewDecisionSchema>;

/** A check waiting for an admin (GET /admin/identity-reviews), images as presigned GETs. */
export interface IdentityReviewItem {
  propertyId: string;
  /** a co-owner's check (their COOWNER item); null: the owner's */
  coOwner: { id: string; fullName: string } | null;
  documentType: DocumentType;
  documentNumber: string;
  fullName: string | null;
  confidence: number;
  reason: string;
  checkedAt: string;
  images: { facePhoto: string | null; documentFront: string | null; documentBack: string | null };
}

/** Where a property's identity images live in the media bucket. */
export const identityKeyPrefix = (propertyId: string) => `${propertyId}/identity/`;

export function identityExtension(contentType: IdentityContentType): 'jpg' | 'png' {
  return contentType === 'image/png' ? 'png' : 'jpg';
}
