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
 * Similarity (0-100) from which the face photo and the document are the same person. Below
 * LOW_CONFIDENCE the check is still valid but the client shows 'Attenzione' (spec 000).
 * The local matcher maps its calibrated distance threshold onto MATCH_MIN_SIMILARITY
 * (functions/identity/local-face-matcher.ts); Rekognition answers a similarity directly.
 */
export const MATCH_MIN_SIMILARITY = 60;
export const LOW_CONFIDENCE = 70;

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
  verifiedLowConfidence: 'Identità verificata con corrispondenza bassa: controlla la qualità delle foto',
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

export type IdentityStatus = 'verified' | 'rejected';

/** The answer of a check (spec 000, verify-identity: valid, reason, confidence). */
export interface IdentityCheckResult {
  valid: boolean;
  reason: string;
  /** similarity 0-100 of the face photo and the document's face; 0 when no comparison was possible */
  confidence: number;
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
}

/** Decides a check from what the face matcher saw (both images must show exactly one face). */
export function decideIdentity(faces: { source: number; target: number }, similarity: number | null): IdentityCheckResult {
  const fail = (reason: string): IdentityCheckResult => ({ valid: false, reason, confidence: 0 });
  if (faces.source === 0) return fail(IDENTITY_MESSAGES.noFaceInPhoto);
  if (faces.source > 1) return fail(IDENTITY_MESSAGES.manyFacesInPhoto);
  if (faces.target === 0) return fail(IDENTITY_MESSAGES.noFaceInDocument);
  if (faces.target > 1) return fail(IDENTITY_MESSAGES.manyFacesInDocument);
  const confidence = Math.round(Math.max(0, Math.min(100, similarity ?? 0)) * 10) / 10;
  if (confidence < MATCH_MIN_SIMILARITY) return { valid: false, reason: IDENTITY_MESSAGES.noMatch, confidence };
  return { valid: true, reason: confidence < LOW_CONFIDENCE ? IDENTITY_MESSAGES.verifiedLowConfidence : IDENTITY_MESSAGES.verified, confidence };
}

/** Where a property's identity images live in the media bucket. */
export const identityKeyPrefix = (propertyId: string) => `${propertyId}/identity/`;

export function identityExtension(contentType: IdentityContentType): 'jpg' | 'png' {
  return contentType === 'image/png' ? 'png' : 'jpg';
}
