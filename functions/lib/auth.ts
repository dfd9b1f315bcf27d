import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyEventV2 } from 'aws-lambda';
import { GROUPS, type Group } from '../domain/roles';
import { MFA_CLAIM } from '../domain/admin-security';

export interface Caller {
  userId: string;
  email: string;
  groups: Group[];
  /** the ID token's `mfa` claim is there (TOTP set up, or a local demo account): admin routes need it */
  mfa?: boolean;
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
    email: typeof claims.email === 'string' ? claims.email : '',
    groups: parseGroupsClaim(claims['cognito:groups']),
    mfa: claims[MFA_CLAIM] === 'totp' || claims[MFA_CLAIM] === 'exempt',
  };
}
