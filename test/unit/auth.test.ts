import { describe, expect, it } from 'vitest';
import { parseGroupsClaim, callerFrom } from '../../functions/lib/auth';
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
      requestContext: { authorizer: { jwt: { claims: { sub: 'u1', email: 'a@b.it', 'cognito:groups': '[seller]' } } } },
    } as unknown as APIGatewayProxyEventV2;
    expect(callerFrom(event)).toEqual({ userId: 'u1', email: 'a@b.it', groups: ['seller'], mfa: false });
    const withMfa = {
      requestContext: { authorizer: { jwt: { claims: { sub: 'u2', email: 'c@d.it', 'cognito:groups': '[admin]', mfa: 'totp' } } } },
    } as unknown as APIGatewayProxyEventV2;
    expect(callerFrom(withMfa)).toMatchObject({ groups: ['admin'], mfa: true });
    expect(callerFrom({ requestContext: {} } as unknown as APIGatewayProxyEventV2)).toBeUndefined();
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
