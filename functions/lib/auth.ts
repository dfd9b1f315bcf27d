import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyEventV2 } from 'aws-lambda';
import { ADMIN_TOKEN_MAX_AGE_SECONDS, GROUPS, SESSION_EXPIRED_CODE, SESSION_EXPIRED_MESSAGE, type Group } from '../domain/roles';
import { MFA_CLAIM } from '../domain/admin-security';
import { AppError } from './errors';
import type { Actor, ActorRole } from '../domain/activity';

export interface Caller {
  userId: string;
  /** the token's e-mail, only when its `email_verified` claim is true; '' otherwise (never trust an unverified address) */
  email: string;
  groups: Group[];
  /** the ID token's `mfa` claim is there (TOTP set up, or a local demo account): admin routes need it */
  mfa?: boolean;
  /**
   * the token's `iat` (epoch seconds; 0 when missing): route() compares it with the user's
   * valid-after instant. Always set by callerFrom; optional only for callers built by hand
   * (use cases called directly in tests), which route() never sees.
   */
  issuedAt?: number;
}

/** 401 for a token the server no longer accepts (functions/lib/http.ts): the SPA refreshes once on its code. */
export class SessionExpiredError extends AppError {
  constructor() {
    super(401, SESSION_EXPIRED_CODE, SESSION_EXPIRED_MESSAGE);
  }
}

/** The claim as API Gateway passes it ("true") or as a JWT holds it (true). */
const isTrue = (v: unknown) => v === true || v === 'true';

/**
 * Why a caller's token is no longer accepted, or undefined when it is: issued before the
 * user's valid-after instant (epoch seconds: role change, deletion, agent approval), the
 * user's profile is gone, or an admin token older than ADMIN_TOKEN_MAX_AGE_SECONDS.
 * `session` is what model/session.ts read for the user.
 */
export function sessionProblem(
  caller: Caller,
  session: { exists: boolean; validAfter: number },
  nowSeconds = Math.floor(Date.now() / 1000),
): 'gone' | 'revoked' | 'admin-too-old' | undefined {
  if (!session.exists) return 'gone';
  // JWT iat has a one-second grain: a token issued in the second of the change is accepted
  const iat = caller.issuedAt ?? 0;
  if (!(iat > 0) || iat < session.validAfter) return 'revoked';
  if (caller.groups.includes('admin') && nowSeconds - iat > ADMIN_TOKEN_MAX_AGE_SECONDS) return 'admin-too-old';
  return undefined;
}

/**
 * API Gateway HTTP API flattens array claims: `cognito:groups` arrives as "[admin agent]".
 * Accept that form, a JSON array string and a real array.
 */
export function parseGroupsClaim(raw: unknown): Group[] {
  let items: unknown[] = [];
  if (Array.isArray(raw)) items = raw;
  else if (typeof raw === 'string') {
    const text = raw.trim();
    if (text.startsWith('[') && text.includes('"')) {
      try {
        const parsed: unknown = JSON.parse(text);
        items = Array.isArray(parsed) ? parsed : [];
      } catch {
        items = [];
      }
    } else {
      items = text.replace(/^\[|\]$/g, '').split(/[\s,]+/);
    }
  }
  return items.filter((g): g is Group => typeof g === 'string' && (GROUPS as readonly string[]).includes(g));
}

/** The caller as the JWT authorizer described it, or undefined on a public route. */
export function callerFrom(event: APIGatewayProxyEventV2 | APIGatewayProxyEventV2WithJWTAuthorizer): Caller | undefined {
  const claims = (event.requestContext as { authorizer?: { jwt?: { claims?: Record<string, unknown> } } }).authorizer
    ?.jwt?.claims;
  if (!claims || typeof claims.sub !== 'string') return undefined;
  return {
    userId: claims.sub,
    // an e-mail is the user's only once verified: the pool keeps the original until the new one is
    // (keepOriginal), and a token without email_verified true names no address to trust
    email: typeof claims.email === 'string' && isTrue(claims.email_verified) ? claims.email : '',
    groups: parseGroupsClaim(claims['cognito:groups']),
    mfa: claims[MFA_CLAIM] === 'totp' || claims[MFA_CLAIM] === 'exempt',
    issuedAt: issuedAtOf(claims.iat),
  };
}

/** `iat` as a number of seconds ("1700000000" from API Gateway, a number from a decoded JWT); 0 if absent or odd. */
function issuedAtOf(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,12}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** The caller as the activity history names them (domain/activity.ts): id, role, e-mail as name. */
export function actorOf(caller: Pick<Caller, 'userId' | 'email'>, role: ActorRole): Actor {
  return { id: caller.userId, role, name: caller.email || null };
}
