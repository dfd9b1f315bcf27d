import type { LinkKind } from '@domain/links';
import { homeFor, type Group, type UserType } from '@domain/roles';

/** The page the person signed in from. */
export type SignInOrigin = 'home' | 'auth' | 'seller-register' | 'other';

export interface PostSignInInput {
  /** GET /api/me; null when the profile or role lookup failed */
  me: { groups: readonly Group[]; userType?: UserType | null } | null;
  origin: SignInOrigin;
  /** `token` query parameter of the seller sign-up page */
  token?: string | null;
  /** what the token is (GET /links/{token}); null or undefined when not known */
  linkKind?: LinkKind | null;
}

export type PostSignInStep =
  | { kind: 'navigate'; to: string }
  /** link the invited property to the seller, then go to `to`; on failure go to `onError` */
  | { kind: 'claim'; token: string; to: string; onError: string };

/**
 * Where to go once after a successful sign-in (spec 000 section 4), in this order:
 * lookup failure -> /; admin -> /admin; agent -> /agent-area/profile; on the seller
 * sign-up page with a token: an availability link -> /availability/{token}, a co-owner's
 * link -> /seller-kyc?token=... (neither is claimed), anything else -> claim the invitation,
 * then /seller-kyc?token=...; a seller from home, /auth or the seller sign-up page ->
 * /seller-dashboard; anyone else -> /.
 */
export function decidePostSignIn({ me, origin, token, linkKind }: PostSignInInput): PostSignInStep {
  if (!me) return { kind: 'navigate', to: '/' };
  const home = homeFor({ groups: me.groups, userType: me.userType ?? null });
  if (home !== '/') return { kind: 'navigate', to: home };
  const cleanToken = token?.trim();
  if (origin === 'seller-register' && cleanToken) {
    if (linkKind === 'availability') return { kind: 'navigate', to: `/availability/${encodeURIComponent(cleanToken)}` };
    if (linkKind === 'coOwner') return { kind: 'navigate', to: `/seller-kyc?token=${encodeURIComponent(cleanToken)}` };
    return {
      kind: 'claim',
      token: cleanToken,
      to: `/seller-kyc?token=${encodeURIComponent(cleanToken)}`,
      onError: '/seller-dashboard',
    };
  }
  if (me.userType === 'venditore' && origin !== 'other') return { kind: 'navigate', to: '/seller-dashboard' };
  return { kind: 'navigate', to: '/' };
}

/** The signed-in person's own area (header link), or null when they have none. */
export function areaFor(me: { groups: readonly Group[]; userType?: UserType | null }): string | null {
  const home = homeFor({ groups: me.groups, userType: me.userType ?? null });
  if (home !== '/') return home;
  if (me.userType === 'venditore' || me.groups.includes('seller')) return '/seller-dashboard';
  return null;
}
