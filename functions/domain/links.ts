/**
 * GET /links/{token} (public): which kind of e-mailed link a token is, so /seller-register
 * knows where to send the seller after sign-in. Tokens are unguessable (144 random bits), so
 * the kind says nothing useful to a stranger; nothing else is answered. An unknown or
 * expired token is 'unknown'.
 */
export const LINK_KINDS = ['invitation', 'coOwner', 'availability', 'unknown'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

export interface LinkKindAnswer {
  kind: LinkKind;
}
