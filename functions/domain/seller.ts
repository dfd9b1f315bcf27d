/**
 * Seller area (/seller-dashboard, /seller-profile): the contract of GET /seller/properties,
 * the profile and account-deletion inputs, the identity badge. Shared by the server
 * (functions/seller) and the SPA (web/src/features/seller).
 */
import * as z from 'zod';

export const SELLER_MESSAGES = {
  fullNameRequired: 'Il nome è obbligatorio',
  fullNameTooLong: 'Il nome può avere al massimo 120 caratteri',
  confirmDelete: "Conferma l'eliminazione dell'account",
  profileNotFound: 'Profilo non trovato',
  sellersOnly: 'Questa funzione è riservata ai venditori',
} as const;

export const FULL_NAME_MAX = 120;

/** PATCH /me/profile */
export const updateOwnProfileInput = z.object({
  fullName: z
    .string({ error: SELLER_MESSAGES.fullNameRequired })
    .trim()
    .min(1, SELLER_MESSAGES.fullNameRequired)
    .max(FULL_NAME_MAX, SELLER_MESSAGES.fullNameTooLong),
});
export type UpdateOwnProfileInput = z.infer<typeof updateOwnProfileInput>;

/** DELETE /me: the body must say {confirm: true} (the dialog's explicit confirmation). */
export const deleteAccountInput = z.object({
  confirm: z.literal(true, { error: SELLER_MESSAGES.confirmDelete }),
});

/** Identity state of a property (spec: no record = not started, verified, anything else = pending). */
export type IdentityState = 'verified' | 'pending' | 'not_started';

export const IDENTITY_BADGES: Record<IdentityState, { label: string; variant: 'success' | 'warning' | 'secondary' }> = {
  verified: { label: 'Verificata', variant: 'success' },
  pending: { label: 'In corso', variant: 'warning' },
  not_started: { label: 'Da completare', variant: 'secondary' },
};

/** The identity state from a stored status (the PROPERTY's identityStatus or the IDENTITY item's). */
export function identityStateOf(status: unknown, exists: boolean): IdentityState {
  if (status === 'verified') return 'verified';
  if (status === 'not_started') return 'not_started';
  return exists || (typeof status === 'string' && status !== '') ? 'pending' : 'not_started';
}

export interface SellerOptionSummary {
  status: string;
  propertyValue: number | null;
  optionAmount: number | null;
  signedAt: string | null;
  createdAt: string | null;
}

/** One card of the seller dashboard. */
export interface SellerProperty {
  id: string;
  address: string;
  city: string;
  province: string;
  propertyType: string | null;
  surfaceArea: number | null;
  desiredAmount: number | null;
  createdAt: string;
  /** for /seller-kyc?token=...; null when the property has none */
  invitationToken: string | null;
  identityStatus: IdentityState;
  option: SellerOptionSummary | null;
}

export interface SellerPropertyList {
  items: SellerProperty[];
}
