import { useCallback } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { Me } from '@domain/profile';
import { GROUPS, type Group, type SelfSignupUserType } from '@domain/roles';
import { auth } from './amplify';
import { api, NETWORK_ERROR_MESSAGE } from './api';

export type { Me };

/** Who is signed in, read from the Cognito ID token (no network call). */
export interface Session {
  userId: string;
  email: string;
  groups: Group[];
}

export const sessionKey = ['session'] as const;
export const meKey = ['me'] as const;

async function readSession(): Promise<Session | null> {
  try {
    const { tokens } = await (await auth()).fetchAuthSession();
    const payload = tokens?.idToken?.payload;
    if (!payload?.sub) return null;
    const rawGroups = payload['cognito:groups'];
    const groups = (Array.isArray(rawGroups) ? rawGroups : []).filter((g): g is Group =>
      (GROUPS as readonly unknown[]).includes(g),
    );
    return { userId: String(payload.sub), email: typeof payload.email === 'string' ? payload.email : '', groups };
  } catch {
    return null;
  }
}

/** The current session: `undefined` while it is being read, `null` when signed out. */
export function useSession(): { session: Session | null | undefined; isLoading: boolean } {
  const query = useQuery({ queryKey: sessionKey, queryFn: readSession, staleTime: Infinity, retry: false });
  return { session: query.data, isLoading: query.isPending };
}

export function fetchMe(): Promise<Me> {
  return api.get<Me>('/me');
}

/** The caller's profile and groups (404 when there is no profile). Enabled only when signed in. */
export function useMe(enabled = true) {
  const { session } = useSession();
  return useQuery({ queryKey: meKey, queryFn: fetchMe, enabled: enabled && !!session, staleTime: 60_000 });
}

/** Re-reads the session after sign-in or sign-out and drops every cached per-user answer. */
export async function resetSessionState(queryClient: QueryClient): Promise<Session | null> {
  const session = await readSession();
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKey[0] });
  queryClient.setQueryData(sessionKey, session);
  return session;
}

/** Cognito / Amplify errors in Italian; the server's own message otherwise. */
export function authErrorMessage(err: unknown, during: 'signIn' | 'signUp' = 'signIn'): string {
  const e = err as { name?: string; message?: string } | undefined;
  const name = e?.name ?? '';
  const message = e?.message ?? '';
  switch (name) {
    case 'NotAuthorizedException':
    case 'UserNotFoundException':
      return /disabled/i.test(message) ? 'Questo account è stato disabilitato' : 'Email o password non corretti';
    case 'UsernameExistsException':
    case 'AliasExistsException':
      return 'Esiste già un account con questa email';
    case 'InvalidPasswordException':
      // the local emulator answers a wrong password with this error at sign-in
      return during === 'signIn' ? 'Email o password non corretti' : 'La password non rispetta i requisiti di sicurezza';
    case 'UserNotConfirmedException':
      return 'Account non ancora confermato';
    case 'CodeMismatchException':
    case 'EnableSoftwareTokenMFAException':
      return 'Codice non corretto: controlla l\'e-mail e riprova.';
    case 'ExpiredCodeException':
      return 'Il codice è scaduto: richiedine uno nuovo.';
    case 'EmptyConfirmSignUpCode':
      return 'Inserisci il codice di conferma';
    case 'LimitExceededException':
    case 'TooManyRequestsException':
    case 'TooManyFailedAttemptsException':
      return 'Troppi tentativi. Riprova tra qualche minuto.';
    case 'EmptySignInUsername':
    case 'EmptySignInPassword':
    case 'EmptySignUpUsername':
    case 'EmptySignUpPassword':
      return 'Inserisci email e password';
    case 'NetworkError':
      return NETWORK_ERROR_MESSAGE;
    case 'UserLambdaValidationException': {
      // "PreSignUp failed with error Tipo di utente non valido."
      const match = /failed with error (.+?)\.?$/i.exec(message);
      return match?.[1] ?? message;
    }
    case 'InvalidParameterException':
      if (/phone/i.test(message)) return 'Numero di telefono non valido';
      if (/email/i.test(message)) return 'Email non valida';
      return message || 'Dati non validi';
    default:
      return message || 'Si è verificato un errore. Riprova più tardi.';
  }
}

export class AuthFlowError extends Error {}

/**
 * How a sign-in step ended: signed in; the account's e-mail must be confirmed first; or the
 * account has an authenticator app and Cognito asks for its code (confirmTotpCode).
 */
export type SignInOutcome = 'signedIn' | 'confirmSignUp' | 'totpCode';

/**
 * Signs in with e-mail and password (USER_PASSWORD_AUTH: the local Cognito emulator has
 * no SRP). A leftover session of another user is closed first. An account whose e-mail
 * was never confirmed answers 'confirmSignUp' (the form then asks for the code).
 */
export async function signInWithEmail(email: string, password: string): Promise<SignInOutcome> {
  const { signIn: amplifySignIn, signOut: amplifySignOut } = await auth();
  const attempt = () =>
    amplifySignIn({ username: email.trim(), password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
  let result;
  try {
    try {
      result = await attempt();
    } catch (err) {
      if ((err as Error).name !== 'UserAlreadyAuthenticatedException') throw err;
      await amplifySignOut();
      result = await attempt();
    }
  } catch (err) {
    if ((err as Error).name === 'UserNotConfirmedException') return 'confirmSignUp';
    throw err;
  }
  return outcomeOf(result);
}

function outcomeOf(result: { isSignedIn: boolean; nextStep: { signInStep: string } }): SignInOutcome {
  if (result.isSignedIn) return 'signedIn';
  if (result.nextStep.signInStep === 'CONFIRM_SIGN_UP') return 'confirmSignUp';
  if (result.nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') return 'totpCode';
  throw new AuthFlowError('Accesso non completato. Contatta l\'assistenza.');
}

/** The second step of a sign-in with TOTP MFA: the 6-digit code of the authenticator app. */
export async function confirmTotpCode(code: string): Promise<SignInOutcome> {
  return outcomeOf(await (await auth()).confirmSignIn({ challengeResponse: code.trim() }));
}

/** The signed-in user's groups, read from the ID token (no network call). */
export async function currentGroups(): Promise<Group[]> {
  return (await readSession())?.groups ?? [];
}

/** Changes the signed-in user's password (Cognito ChangePassword). */
export async function changePassword(oldPassword: string, newPassword: string): Promise<void> {
  await (await auth()).updatePassword({ oldPassword, newPassword });
}

/**
 * TOTP set-up of the signed-in user, step 1: the secret for the authenticator app and its
 * otpauth:// URI (label "Opzione Casa:<email>").
 */
export async function startTotpSetup(email: string): Promise<{ secret: string; uri: string }> {
  const output = await (await auth()).setUpTOTP();
  return { secret: output.sharedSecret, uri: output.getSetupUri('Opzione Casa', email).toString() };
}

/**
 * Step 2: checks the app's first code, makes TOTP the account's MFA (Cognito asks for a code
 * at every sign-in from now on), and renews the tokens so the ID token carries the `mfa` claim.
 */
export async function finishTotpSetup(code: string): Promise<void> {
  const a = await auth();
  await a.verifyTOTPSetup({ code: code.trim() });
  await a.updateMFAPreference({ totp: 'PREFERRED' });
  await a.fetchAuthSession({ forceRefresh: true });
}

/** Confirms a sign-up with the code Cognito e-mailed (the profile is made by the server then). */
export async function confirmSignUpCode(email: string, code: string): Promise<void> {
  await (await auth()).confirmSignUp({ username: email.trim(), confirmationCode: code.trim() });
}

/** Sends a new confirmation code to the address of an unconfirmed account. */
export async function resendSignUpCode(email: string): Promise<void> {
  await (await auth()).resendSignUpCode({ username: email.trim() });
}

export interface SignUpInput {
  email: string;
  password: string;
  fullName?: string;
  /** already normalized to E.164 */
  phone?: string | null;
  userType: SelfSignupUserType;
}

/**
 * Self sign-up. The account stays unconfirmed until the code e-mailed by Cognito is given
 * (confirmSignUpCode); the server then creates the profile and the group.
 */
export async function signUpWithEmail(input: SignUpInput): Promise<void> {
  const email = input.email.trim();
  const fullName = input.fullName?.trim();
  await (await auth()).signUp({
    username: email,
    password: input.password,
    options: {
      userAttributes: {
        email,
        ...(fullName ? { name: fullName } : {}),
        'custom:user_type': input.userType,
        ...(input.phone ? { phone_number: input.phone } : {}),
      },
    },
  });
}

let signingOut = false;

/**
 * True while a deliberate sign-out is moving the person away from the page: guards must
 * not send them to /auth meanwhile (the sign-out decides where they go).
 */
export function isSigningOut(): boolean {
  return signingOut;
}

/**
 * Sign-out for components: ends the local session, goes to `to` (a full page load when
 * `fullReload`), then clears per-user caches.
 */
export function useSignOut(): (opts?: { to?: string; fullReload?: boolean }) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async ({ to = '/', fullReload = false } = {}) => {
      signingOut = true;
      try {
        await (await auth()).signOut();
      } finally {
        if (fullReload) {
          window.location.assign(to);
        } else {
          await navigate(to);
          await resetSessionState(queryClient);
          setTimeout(() => {
            signingOut = false;
          }, 250);
        }
      }
    },
    [queryClient, navigate],
  );
}
