/** Cognito groups. The spec's `user_roles` admin row is the `admin` group. */
export const GROUPS = ['admin', 'agent', 'seller'] as const;
export type Group = (typeof GROUPS)[number];

/** The spec's profile user types. */
export const USER_TYPES = ['venditore', 'agenzia', 'agente_immobiliare', 'agente'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** User types a person may choose when signing up; anything else is refused. */
export const SELF_SIGNUP_USER_TYPES = ['venditore', 'agente_immobiliare'] as const;
export type SelfSignupUserType = (typeof SELF_SIGNUP_USER_TYPES)[number];

/** Group a user type belongs to. */
export function groupForUserType(userType: UserType): Group {
  return userType === 'venditore' ? 'seller' : 'agent';
}

export const MIN_PASSWORD_LENGTH = 6;

/**
 * Post-sign-in destination (spec 000 section 4): admin -> /admin, agent profile ->
 * /agent-area/profile, anyone else -> /.
 */
export function homeFor(opts: { groups: readonly Group[]; userType?: UserType | null }): string {
  if (opts.groups.includes('admin')) return '/admin';
  if (opts.userType === 'agente_immobiliare' || opts.groups.includes('agent')) return '/agent-area/profile';
  return '/';
}

/**
 * A token the server no longer accepts (issued before the user's role changed or the user
 * was deleted or approved, or an admin token older than ADMIN_TOKEN_MAX_AGE_SECONDS): 401
 * with this code. The SPA refreshes its tokens once on it, and signs out if that fails.
 */
export const SESSION_EXPIRED_CODE = 'SESSION_EXPIRED';
export const SESSION_EXPIRED_MESSAGE = 'La sessione non è più valida: accedi di nuovo.';

/** An admin's ID token is accepted for 15 minutes from its issue (the SPA refreshes it silently). */
export const ADMIN_TOKEN_MAX_AGE_SECONDS = 15 * 60;
