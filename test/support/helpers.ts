/**
 * Helpers for tests that talk to the local stack: sign in through the Cognito emulator,
 * call the API through the local gateway, read sent mail.
 */
import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { inject } from 'vitest';
import { resetAws } from '../../functions/lib/aws';
import { resetConfig } from '../../functions/lib/config';
import { edgeHeaders } from '../../infra/local/edge';
import './context';

export function stack() {
  return inject('stack');
}

/** Points this test process's AWS clients at the emulators (for direct checks on data). */
export function useStackEnv(): void {
  Object.assign(process.env, stack().env);
  resetConfig();
  resetAws();
}

function cognito() {
  return new CognitoIdentityProviderClient({
    endpoint: stack().urls.cognito,
    region: 'eu-south-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

const tokenCache = new Map<string, string>();

export async function idTokenFor(email: string, password: string, clientId = stack().pool.userPoolClientId): Promise<string> {
  const key = `${clientId}:${email}`;
  const cached = tokenCache.get(key);
  if (cached) return cached;
  const res = await cognito().send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  const token = res.AuthenticationResult!.IdToken!;
  tokenCache.set(key, token);
  return token;
}

export type Role = 'admin' | 'agent' | 'seller';

export async function tokenForRole(role: Role): Promise<string> {
  const account = stack().accounts.find((a) => a.role === role)!;
  return idTokenFor(account.email, account.password);
}

export async function signUp(input: { email: string; password: string; name?: string; userType: string; phone?: string }) {
  const attrs = [
    { Name: 'email', Value: input.email },
    { Name: 'custom:user_type', Value: input.userType },
    ...(input.name ? [{ Name: 'name', Value: input.name }] : []),
    ...(input.phone ? [{ Name: 'phone_number', Value: input.phone }] : []),
  ];
  return cognito().send(
    new SignUpCommand({ ClientId: stack().pool.userPoolClientId, Username: input.email, Password: input.password, UserAttributes: attrs }),
  );
}

export interface ApiResult<T = unknown> {
  status: number;
  body: T;
}

/** What CloudFront adds to every API request (infra/local/edge.ts): the tests call the API in its place. */
export function edge(viewerIp?: string): Record<string, string> {
  return edgeHeaders(stack().env.ORIGIN_SECRET!, viewerIp);
}

/**
 * Calls the local API as the SPA does through CloudFront (with the origin secret);
 * `direct: true` calls it as anyone reaching the API endpoint directly would.
 */
export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string>; direct?: boolean } = {},
): Promise<ApiResult<T>> {
  const res = await fetch(`${stack().urls.api}/api${path}`, {
    method,
    headers: {
      ...(opts.direct ? {} : edge()),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...opts.headers,
    },
    body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, body: body as T };
}

export function uniqueEmail(prefix = 'utente'): string {
  return `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.it`;
}

/** Mail the SES emulator received. */
export async function sentMail(): Promise<{ destination: { to: string[] }; subject: string; body: { html?: string; text?: string }; at: number }[]> {
  const res = await fetch(`${stack().urls.ses}/store`);
  const json = (await res.json()) as { emails: never[] };
  return json.emails;
}
