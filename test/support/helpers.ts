/**
 * Helpers for tests that talk to the local stack: sign in through the Cognito emulator,
 * call the API through the local gateway, read sent mail.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  AdminAddUserToGroupCommand,
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { CONFIRMATION_MAIL_SUBJECT } from '../../functions/domain/auth-mail';
import { inject, type ProvidedContext } from 'vitest';
import { startLocalStack } from '../../infra/local/stack';
import { resetAws } from '../../functions/lib/aws';
import { resetConfig } from '../../functions/lib/config';
import { edgeHeaders } from '../../infra/local/edge';
import './context';

/** the stack of a file that started its own (useOwnStack), else the run's */
let ownStack: ProvidedContext['stack'] | undefined;

export function stack(): ProvidedContext['stack'] {
  return ownStack ?? inject('stack');
}

/**
 * For a file that needs the table to itself (the security suites count every item): its own
 * emulators and gateway, in memory on free ports, so it runs beside the other files instead
 * of alone after them. Points this process at them; the returned function stops them.
 */
export async function useOwnStack(): Promise<() => Promise<void>> {
  const own = await startLocalStack({ appOrigin: 'http://localhost:5173' });
  ownStack = { ports: own.ports, urls: own.urls, pool: own.pool, accounts: own.accounts, env: own.env };
  useStackEnv();
  return async () => {
    ownStack = undefined;
    await own.stop();
  };
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

// a token is reused for 10 minutes: the API refuses an admin's token after 15 (ADMIN_TOKEN_MAX_AGE_SECONDS)
const tokenCache = new Map<string, { token: string; at: number }>();
const TOKEN_REUSE_MS = 10 * 60_000;

export async function idTokenFor(email: string, password: string, clientId = stack().pool.userPoolClientId): Promise<string> {
  const key = `${clientId}:${email}`;
  const cached = tokenCache.get(key);
  if (cached && Date.now() - cached.at < TOKEN_REUSE_MS) return cached.token;
  const res = await cognito().send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  const token = res.AuthenticationResult!.IdToken!;
  tokenCache.set(key, { token, at: Date.now() });
  return token;
}

export type Role = 'admin' | 'agent' | 'seller';

export async function tokenForRole(role: Role): Promise<string> {
  const account = stack().accounts.find((a) => a.role === role)!;
  return idTokenFor(account.email, account.password);
}

/**
 * Self sign-up through Cognito, then (unless `confirm: false`) the confirmation with the code
 * e-mailed to the address, as a person does in the SPA: the post confirmation trigger makes
 * the profile. `UserConfirmed` tells whether the account ended confirmed.
 */
export async function signUp(
  input: { email: string; password: string; name?: string; userType: string; phone?: string },
  opts: { confirm?: boolean } = {},
) {
  const attrs = [
    { Name: 'email', Value: input.email },
    { Name: 'custom:user_type', Value: input.userType },
    ...(input.name ? [{ Name: 'name', Value: input.name }] : []),
    ...(input.phone ? [{ Name: 'phone_number', Value: input.phone }] : []),
  ];
  const res = await cognito().send(
    new SignUpCommand({ ClientId: stack().pool.userPoolClientId, Username: input.email, Password: input.password, UserAttributes: attrs }),
  );
  if (opts.confirm === false || res.UserConfirmed) return res;
  await confirmSignUp(input.email, await confirmationCode(input.email));
  return { ...res, UserConfirmed: true };
}

/** Adds a user (username = sub) to a Cognito group, as the admin's role change does. */
export async function addToGroup(username: string, group: 'admin' | 'agent' | 'seller'): Promise<void> {
  await cognito().send(new AdminAddUserToGroupCommand({ UserPoolId: stack().pool.userPoolId, Username: username, GroupName: group }));
}

/** The current TOTP code of a secret, as an authenticator app shows it (otplib, cognito-local's own library). */
export function totpCode(secret: string): string {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('cognito-local/package.json'));
  const otplib = require(require.resolve('otplib', { paths: [dir] })) as { generateSync: (o: { secret: string }) => string };
  return otplib.generateSync({ secret: secret.replace(/\s+/g, '') });
}

/** ConfirmSignUp with a code (Cognito's errors propagate: CodeMismatchException...). */
export async function confirmSignUp(email: string, code: string): Promise<void> {
  await cognito().send(new ConfirmSignUpCommand({ ClientId: stack().pool.userPoolClientId, Username: email, ConfirmationCode: code }));
}

/**
 * The latest sign-up confirmation code e-mailed to `email` (read from the local SES's store,
 * waiting up to `timeoutMs` for it). `after`: only mail received at or after that time (ms).
 */
export async function confirmationCode(email: string, opts: { timeoutMs?: number; after?: number } = {}): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  const to = email.trim().toLowerCase();
  for (;;) {
    const mail = (await sentMail({ confirmationCodes: true }))
      .filter((m) => m.subject === CONFIRMATION_MAIL_SUBJECT && m.destination.to.some((t) => t.toLowerCase() === to))
      .filter((m) => opts.after === undefined || m.at * (m.at < 1e12 ? 1000 : 1) >= opts.after - 1000)
      .at(-1);
    const code = mail ? /\b(\d{6})\b/.exec(mail.body.text ?? mail.body.html ?? '')?.[1] : undefined;
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`Nessun codice di conferma per ${email}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface ApiResult<T = unknown> {
  status: number;
  body: T;
}

/** What CloudFront adds to every API request (infra/local/edge.ts): the tests call the API in its place. */
export function edge(viewerIp?: string): Record<string, string> {
  return edgeHeaders(stack().env.ORIGIN_SECRET!, viewerIp);
}

/** Keep-alive connections to the local gateway, as many at a time as the security fuzz sends. */
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 32 });

/**
 * One HTTP request to the local stack with node:http: the fuzz's 25,500 requests and every
 * api() call. fetch (undici) costs about 0.2 ms more CPU per request (measured on a local
 * server, 6,000 requests 16 at a time: 1.46 s against 0.32 s), which the suite paid tens of
 * thousands of times. A string body is sent as UTF-8, a lone surrogate as U+FFFD (as fetch does).
 */
export function httpRequest(url: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; text: string }> {
  const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
  const once = (): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method: init.method, agent: keepAlive, headers: { ...init.headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', (err: NodeJS.ErrnoException) => reject(Object.assign(err, { reusedSocket: req.reusedSocket })));
      req.end(body);
    });
  // a kept connection the server closed as idle just as it was reused: the request never
  // reached the server, so it is sent again once on a new connection (as Node's docs advise)
  return once().catch((err: NodeJS.ErrnoException & { reusedSocket?: boolean }) => {
    if (err.reusedSocket && err.code === 'ECONNRESET') return once();
    throw err;
  });
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
  const { status, text } = await httpRequest(`${stack().urls.api}/api${path}`, {
    method,
    headers: {
      ...(opts.direct ? {} : edge()),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...opts.headers,
    },
    body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
  });
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status, body: body as T };
}

export function uniqueEmail(prefix = 'utente'): string {
  return `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.it`;
}

export interface SentMail {
  destination: { to: string[] };
  subject: string;
  body: { html?: string; text?: string };
  at: number;
  /** files sent with the mail (content base64) */
  attachments?: { filename?: string; contentType: string; content: string }[];
}

/**
 * Mail the SES emulator received: the product's mail. Cognito's sign-up confirmation codes
 * (every account made with `signUp` gets one) are left out unless `confirmationCodes: true`.
 */
export async function sentMail(opts: { confirmationCodes?: boolean } = {}): Promise<SentMail[]> {
  const res = await fetch(`${stack().urls.ses}/store`);
  const json = (await res.json()) as { emails: SentMail[] };
  return opts.confirmationCodes ? json.emails : json.emails.filter((m) => m.subject !== CONFIRMATION_MAIL_SUBJECT);
}

/** The admin an activity entry names when a test calls a use case directly. */
export const TEST_ADMIN = { id: 'test-admin', role: 'admin' as const, name: 'admin@test.local' };
