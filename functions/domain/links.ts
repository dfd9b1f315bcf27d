/**
 * GET /links/{token} (public): which kind of e-mailed link a token is, so /seller-register
 * knows where to send the seller after sign-in. Tokens are unguessable (144 random bits), so
 * the kind says nothing useful to a stranger. A co-owner's link also carries the invited
 * address, which only that co-owner can use to accept it: the page fills it in and says so
 * (whoever holds the link got it at that address). Nothing else is answered. An unknown or
 * expired token is 'unknown'.
 */
export const LINK_KINDS = ['invitation', 'coOwner', 'availability', 'unknown'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

export interface LinkKindAnswer {
  kind: LinkKind;
  /** only for kind 'coOwner': the address the invitation was sent to */
  invitedEmail?: string;
}
