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
 * Signs in with e-mail and password (USER_PASSWORD_AUTH: the local Cognito emulator has
 * no SRP). A leftover session of another user is closed first.
 */
export async function signInWithEmail(email: string, password: string): Promise<void> {
  const { signIn: amplifySignIn, signOut: amplifySignOut } = await auth();
  const attempt = () =>
    amplifySignIn({ username: email.trim(), password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
  let result;
  try {
    result = await attempt();
  } catch (err) {
    if ((err as Error).name !== 'UserAlreadyAuthenticatedException') throw err;
    await amplifySignOut();
    result = await attempt();
  }
  if (!result.isSignedIn) {
    throw new AuthFlowError(
      result.nextStep.signInStep === 'CONFIRM_SIGN_UP'
        ? 'Account non ancora confermato'
        : 'Accesso non completato. Contatta l\'assistenza.',
    );
  }
}

export interface SignUpInput {
  email: string;
  password: string;
  fullName?: string;
  /** already normalized to E.164 */
  phone?: string | null;
  userType: SelfSignupUserType;
}

/** Self sign-up; the server confirms the account and creates the profile and the group. */
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
