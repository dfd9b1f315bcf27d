/** Request bodies of the seller onboarding (co-owners, delegations), with Italian messages. */
import * as z from 'zod';
import { signatureChoiceSchema, type DigitalSigner, type SignatureType } from './digital-signature';
import { isProvinceCode } from '../places';
import { DELEGATION_TYPES, FISCAL_CODE_LENGTH, isValidFiscalCode, MAX_CO_OWNERS, ONBOARDING_MESSAGES as M, SIGNED_DELEGATION_MAX_BYTES } from './rules';
import { tooLargeMessage } from '../uploads';
import { DOCUMENT_TYPES, IDENTITY_MESSAGES, verifyIdentitySchema } from '../identity';

const text = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max, message);

export const coOwnerInputSchema = z.object(
  {
    email: z.string({ error: M.coOwnerEmail }).trim().toLowerCase().max(254, M.coOwnerEmail).pipe(z.email({ error: M.coOwnerEmail })),
    fullName: text(M.coOwnerFullName, 120),
    share: z.number({ error: M.coOwnerShare }).gt(0, M.coOwnerShare).max(100, M.coOwnerShare),
  },
  { error: M.coOwnerMissingData },
);

export const replaceCoOwnersSchema = z.object(
  {
    /** the seller's own share: with the co-owners' it totals 100 (a 50/50 couple: 50 and 50) */
    sellerShare: z.number({ error: M.sellerShare }).gt(0, M.sellerShare).lt(100, M.sellerShare),
    coOwners: z
      .array(coOwnerInputSchema, { error: M.coOwnerMissingData })
      .min(1, M.coOwnerMissingData)
      .max(MAX_CO_OWNERS, M.tooManyCoOwners(MAX_CO_OWNERS))
      .refine((list) => new Set(list.map((c) => c.email)).size === list.length, M.coOwnerDuplicate),
  },
  { error: M.coOwnerMissingData },
);
export type ReplaceCoOwnersBody = z.infer<typeof replaceCoOwnersSchema>;

export const delegationTypeSchema = z.enum(DELEGATION_TYPES, { error: M.delegationType });

export const delegatorSchema = z.object(
  {
    fullName: text(M.delegatorName, 120),
    fiscalCode: z
      .string({ error: M.fiscalCode })
      .trim()
      .toUpperCase()
      .length(FISCAL_CODE_LENGTH, M.fiscalCode)
      .refine(isValidFiscalCode, M.fiscalCode),
    /** the delegator's identity document (spec 000: delegator_id_type, delegator_id_number), printed on the delegation */
    documentType: z.enum(DOCUMENT_TYPES, { error: IDENTITY_MESSAGES.documentType }),
    documentNumber: verifyIdentitySchema.shape.documentNumber,
    birthDate: z.iso.date({ error: 'Data di nascita non valida' }).optional(),
    birthPlace: z.string({ error: 'Luogo di nascita non valido' }).trim().max(120, 'Luogo di nascita non valido').optional(),
    address: z.string({ error: 'Indirizzo non valido' }).trim().max(200, 'Indirizzo non valido').optional(),
  },
  { error: 'Inserisci i dati del delegante' },
);
export type Delegator = z.infer<typeof delegatorSchema>;

export const generateDelegationsSchema = z.object(
  {
    province: z.string({ error: M.delegationsRequired }).trim().toUpperCase().refine(isProvinceCode, M.delegationsRequired),
    municipality: text(M.delegationsRequired, 120),
    types: z
      .array(delegationTypeSchema, { error: M.delegationsRequired })
      .min(1, M.delegationsRequired)
      .refine((t) => new Set(t).size === t.length, M.delegationType),
    delegator: delegatorSchema,
  },
  { error: M.delegationsRequired },
);
export type GenerateDelegationsBody = z.infer<typeof generateDelegationsSchema>;

export const signedUploadSchema = z.object(
  {
    fileName: text(M.uploadFileName, 200),
    contentType: text(M.uploadType, 200),
    size: z.number({ error: M.uploadMissing }).int(M.uploadMissing).min(1, M.uploadMissing).max(SIGNED_DELEGATION_MAX_BYTES, tooLargeMessage(SIGNED_DELEGATION_MAX_BYTES)),
  },
  { error: M.uploadMissing },
);

export const confirmSignedSchema = z.object({ key: text(M.uploadKey, 400), signature: signatureChoiceSchema }, { error: M.uploadKey });

/** What the seller sees of a delegation. */
export interface SellerDelegation {
  type: (typeof DELEGATION_TYPES)[number];
  label: string;
  province: string;
  municipality: string;
  generatedKey: string | null;
  documentKey: string | null;
  signedAt: string | null;
  generatedAt: string | null;
  /** on paper ('fisica') or a verified firma digitale ('digitale'); null: not signed */
  signatureType: SignatureType | null;
  /** the digital signature's signers (empty on paper) */
  signers: DigitalSigner[];
}

/** PUT .../co-owners answers the saved list and the seller's own share. */
export interface SavedCoOwners {
  sellerShare: number;
  coOwners: SellerCoOwner[];
}

export interface SellerCoOwner {
  id: string;
  email: string;
  fullName: string;
  share: number;
  invitedAt: string | null;
  verifiedAt: string | null;
}
