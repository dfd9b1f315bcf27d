/**
 * What an admin account needs beyond a seller's or an agent's (docs/architecture.md, section 4).
 * Cognito has one password policy per pool (the specification's minimum 6 for everybody):
 * the stronger admin rule is checked where a password is known (npm run create-admin, the
 * admin's sign-in in the SPA, which then asks for a new one).
 */
export const ADMIN_MIN_PASSWORD_LENGTH = 12;

export const ADMIN_PASSWORD_RULE =
  `Almeno ${ADMIN_MIN_PASSWORD_LENGTH} caratteri, con una lettera maiuscola, una minuscola, un numero e un simbolo`;

/** The first unmet requirement of the admin password rule, in Italian, or null when it is met. */
export function adminPasswordProblem(password: string): string | null {
  if (password.length < ADMIN_MIN_PASSWORD_LENGTH) return `La password deve avere almeno ${ADMIN_MIN_PASSWORD_LENGTH} caratteri`;
  if (!/[A-Z]/.test(password)) return 'La password deve contenere una lettera maiuscola';
  if (!/[a-z]/.test(password)) return 'La password deve contenere una lettera minuscola';
  if (!/[0-9]/.test(password)) return 'La password deve contenere un numero';
  if (!/[^A-Za-z0-9]/.test(password)) return 'La password deve contenere un simbolo (es. ! ? - _)';
  return null;
}

/**
 * The ID token claim the pre token generation trigger adds: 'totp' when the account has an
 * authenticator app (Cognito then asks for its code at every sign-in), 'exempt' for the local
 * demo accounts (MFA_EXEMPT_EMAILS, never set on AWS). Admin routes need one of them.
 */
export const MFA_CLAIM = 'mfa';
export type MfaClaim = 'totp' | 'exempt';

export const ADMIN_MFA_MESSAGE =
  "Per usare l'area amministratore attiva la verifica in due passaggi con un'app di autenticazione";
