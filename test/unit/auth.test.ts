import { describe, expect, it } from 'vitest';
import { parseGroupsClaim, callerFrom, sessionProblem, type Caller } from '../../functions/lib/auth';
import { homeFor, groupForUserType } from '../../functions/domain/roles';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

describe('cognito:groups claim as API Gateway passes it', () => {
  it('reads the flattened "[a b]" form, JSON arrays and real arrays', () => {
    expect(parseGroupsClaim('[admin agent]')).toEqual(['admin', 'agent']);
    expect(parseGroupsClaim('[seller]')).toEqual(['seller']);
    expect(parseGroupsClaim('["admin","seller"]')).toEqual(['admin', 'seller']);
    expect(parseGroupsClaim(['agent'])).toEqual(['agent']);
  });

  it('drops unknown groups and odd values', () => {
    expect(parseGroupsClaim('[root admin]')).toEqual(['admin']);
    expect(parseGroupsClaim(undefined)).toEqual([]);
    expect(parseGroupsClaim(42)).toEqual([]);
    expect(parseGroupsClaim('[]')).toEqual([]);
  });

  it('builds the caller from the authorizer claims', () => {
    const event = {
      requestContext: { authorizer: { jwt: { claims: { sub: 'u1', email: 'a@b.it', email_verified: 'true', 'cognito:groups': '[seller]', iat: '1700000000' } } } },
    } as unknown as APIGatewayProxyEventV2;
    expect(callerFrom(event)).toEqual({ userId: 'u1', email: 'a@b.it', groups: ['seller'], mfa: false, issuedAt: 1700000000 });
    const withMfa = {
      requestContext: { authorizer: { jwt: { claims: { sub: 'u2', email: 'c@d.it', 'cognito:groups': '[admin]', mfa: 'totp' } } } },
    } as unknown as APIGatewayProxyEventV2;
    expect(callerFrom(withMfa)).toMatchObject({ groups: ['admin'], mfa: true });
    expect(callerFrom({ requestContext: {} } as unknown as APIGatewayProxyEventV2)).toBeUndefined();
  });

  it('trusts the e-mail only when the token says it is verified', () => {
    const caller = (claims: Record<string, unknown>) =>
      callerFrom({ requestContext: { authorizer: { jwt: { claims: { sub: 'u', email: 'invitato@example.it', ...claims } } } } } as unknown as APIGatewayProxyEventV2)!;
    expect(caller({ email_verified: 'true' }).email).toBe('invitato@example.it');
    expect(caller({ email_verified: true }).email).toBe('invitato@example.it');
    // an address typed into one's own account and never confirmed names nobody
    expect(caller({ email_verified: 'false' }).email).toBe('');
    expect(caller({ email_verified: false }).email).toBe('');
    expect(caller({}).email).toBe('');
    expect(caller({ email_verified: 'TRUE ' }).email).toBe('');
    expect(caller({ email_verified: 1 }).email).toBe('');
  });

  it('reads iat as epoch seconds, 0 when missing or odd', () => {
    const iat = (v: unknown) =>
      callerFrom({ requestContext: { authorizer: { jwt: { claims: { sub: 'u', ...(v === undefined ? {} : { iat: v }) } } } } } as unknown as APIGatewayProxyEventV2)!.issuedAt;
    expect(iat('1700000000')).toBe(1700000000);
    expect(iat(1700000000)).toBe(1700000000);
    for (const odd of [undefined, '', 'x', '-1', '1.5e9', null, {}]) expect(iat(odd)).toBe(0);
  });
});

describe('whether a token still counts (sessionProblem)', () => {
  const now = 1_700_000_000;
  const caller = (over: Partial<Caller> = {}): Caller => ({ userId: 'u', email: '', groups: ['seller'], issuedAt: now - 60, ...over });
  it('refuses a token issued before the valid-after instant, and any token of a user whose profile is gone', () => {
    expect(sessionProblem(caller(), { exists: true, validAfter: 0 }, now)).toBeUndefined();
    expect(sessionProblem(caller(), { exists: true, validAfter: now - 60 }, now)).toBeUndefined();
    expect(sessionProblem(caller(), { exists: true, validAfter: now - 59 }, now)).toBe('revoked');
    expect(sessionProblem(caller(), { exists: false, validAfter: 0 }, now)).toBe('gone');
    expect(sessionProblem(caller({ issuedAt: 0 }), { exists: true, validAfter: 0 }, now)).toBe('revoked');
    expect(sessionProblem(caller({ issuedAt: undefined }), { exists: true, validAfter: 0 }, now)).toBe('revoked');
  });
  it('refuses an admin token older than 15 minutes, not a seller\'s', () => {
    const admin = (age: number) => caller({ groups: ['admin'], issuedAt: now - age });
    expect(sessionProblem(admin(15 * 60), { exists: true, validAfter: 0 }, now)).toBeUndefined();
    expect(sessionProblem(admin(15 * 60 + 1), { exists: true, validAfter: 0 }, now)).toBe('admin-too-old');
    expect(sessionProblem(caller({ issuedAt: now - 3000 }), { exists: true, validAfter: 0 }, now)).toBeUndefined();
  });
});

describe('post-sign-in destination (spec 000 section 4)', () => {
  it('sends admins to /admin first, agents to their profile, others home', () => {
    expect(homeFor({ groups: ['admin', 'agent'], userType: 'agente_immobiliare' })).toBe('/admin');
    expect(homeFor({ groups: ['agent'], userType: 'agente_immobiliare' })).toBe('/agent-area/profile');
    expect(homeFor({ groups: ['seller'], userType: 'venditore' })).toBe('/');
    expect(homeFor({ groups: [] })).toBe('/');
  });

  it('maps user types to groups', () => {
    expect(groupForUserType('venditore')).toBe('seller');
    expect(groupForUserType('agente_immobiliare')).toBe('agent');
  });
});
