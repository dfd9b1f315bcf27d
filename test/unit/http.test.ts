import { beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import * as z from 'zod';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Caller } from '../../functions/lib/auth';
import { clientIp, route, type CallerOf } from '../../functions/lib/http';
import { NotFoundError } from '../../functions/lib/errors';
import { resetConfig } from '../../functions/lib/config';
import { ORIGIN_HEADER, VIEWER_IP_HEADER } from '../../functions/lib/origin';
import { ADMIN_TOKEN_MAX_AGE_SECONDS, SESSION_EXPIRED_CODE } from '../../functions/domain/roles';

// the users' records as model/session.ts would read them (no table in unit tests): by default
// every user exists with no valid-after instant
const sessions = vi.hoisted(() => new Map<string, { exists: boolean; validAfter: number }>());
vi.mock('../../functions/model/session', () => ({
  sessionStateOf: async (userId: string) => sessions.get(userId) ?? { exists: true, validAfter: 0 },
}));
beforeEach(() => sessions.clear());

const NOW = () => Math.floor(Date.now() / 1000);

// the value the edge (CloudFront, or the local web server) adds to every API request
const SECRET = 'unit-test-origin-secret-0123456789abcdef';
process.env.ORIGIN_SECRET = SECRET;
process.env.TABLE_NAME ??= 'unit-tests';
delete process.env.ORIGIN_SECRET_ARN;
resetConfig();

/** An API Gateway event as it arrives through the edge (with the origin header), unless `headers` says otherwise. */
const event = (over: Partial<APIGatewayProxyEventV2> = {}) =>
  ({ requestContext: { http: { sourceIp: '1.2.3.4' } }, ...over, headers: over.headers ?? { [ORIGIN_HEADER]: SECRET } }) as unknown as APIGatewayProxyEventV2;

describe('route wrapper', () => {
  it('maps a typed error to its status and Italian message', async () => {
    const h = route('health', {}, async () => {
      throw new NotFoundError('Immobile non trovato');
    });
    const res = await h(event());
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body!)).toEqual({ error: 'NOT_FOUND', message: 'Immobile non trovato' });
  });

  it('never leaks an internal error message or stack', async () => {
    const h = route('health', {}, async () => {
      throw new Error('ECONNREFUSED 10.0.0.1:8000 at Socket.connect');
    });
    const res = await h(event());
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/ECONNREFUSED|Socket|at /);
    expect(JSON.parse(res.body!).message).toBe('Si è verificato un errore. Riprova più tardi.');
  });

  it('validates the body with zod and answers 400 with the field messages', async () => {
    const body = z.object({ name: z.string().min(1, 'Inserisci un nome per la fonte') });
    const h = route('health', { body }, async ({ body }) => ({ ok: body.name }));
    const bad = await h(event({ body: JSON.stringify({ name: '' }) }));
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body!)).toMatchObject({ message: 'Inserisci un nome per la fonte', fields: { name: 'Inserisci un nome per la fonte' } });
    const notJson = await h(event({ body: '{oops' }));
    expect(notJson.statusCode).toBe(400);
    const good = await h(event({ body: JSON.stringify({ name: 'Portale' }) }));
    expect(JSON.parse(good.body!)).toEqual({ ok: 'Portale' });
  });

  it('refuses a caller without a token on a non-public route, and a caller in the wrong group', async () => {
    const h = route('claimInvitation', {}, async () => ({}));
    expect((await h(event())).statusCode).toBe(401);
    const agent = event({
      requestContext: { authorizer: { jwt: { claims: { sub: 'u', 'cognito:groups': '[agent]', iat: String(NOW()) } } } },
    } as unknown as Partial<APIGatewayProxyEventV2>);
    expect((await h(agent)).statusCode).toBe(403);
  });
});

describe('the caller a handler gets, typed by the route\'s access', () => {
  it('is a Caller behind any access but public, and may be missing on a public route (checked by tsc)', () => {
    expectTypeOf<CallerOf<'getMe'>>().toEqualTypeOf<Caller>(); // 'authenticated'
    expectTypeOf<CallerOf<'listUsers'>>().toEqualTypeOf<Caller>(); // ['admin']
    expectTypeOf<CallerOf<'claimInvitation'>>().toEqualTypeOf<Caller>(); // ['seller']
    expectTypeOf<CallerOf<'createUpload'>>().toEqualTypeOf<Caller | undefined>(); // 'public'
    route('getMe', {}, async ({ caller }) => {
      expectTypeOf(caller).toEqualTypeOf<Caller>();
      return caller.userId;
    });
    route('health', {}, async ({ caller }) => {
      expectTypeOf(caller).toEqualTypeOf<Caller | undefined>();
      return {};
    });
    // @ts-expect-error a public route's caller may be undefined: no userId without a check
    route('createUpload', {}, async ({ caller }) => caller.userId);
    // @ts-expect-error an id that is not in the manifest
    expect(() => route('noSuchRoute', {}, async () => ({}))).toThrow('Route noSuchRoute is not in the manifest');
  });

  it("hands a non-public route's handler the caller of the token", async () => {
    const h = route('claimInvitation', {}, async ({ caller }) => ({ userId: caller.userId }));
    const seller = event({ requestContext: { http: { sourceIp: '1.2.3.4' }, authorizer: { jwt: { claims: { sub: 'u-7', 'cognito:groups': '[seller]', iat: String(NOW()) } } } } } as unknown as Partial<APIGatewayProxyEventV2>);
    expect(JSON.parse((await h(seller)).body!)).toEqual({ userId: 'u-7' });
  });
});

describe('requests that did not come through the edge', () => {
  it('are refused with 403 before anything else: no validation, no handler', async () => {
    let ran = false;
    const h = route('health', { body: z.object({ name: z.string() }) }, async () => {
      ran = true;
      return {};
    });
    for (const headers of [{}, { [ORIGIN_HEADER]: 'wrong' }, { [ORIGIN_HEADER]: `${SECRET}x` }, { [ORIGIN_HEADER]: '' }]) {
      const res = await h(event({ headers, body: '{oops' }));
      expect(res.statusCode).toBe(403);
      expect(JSON.parse(res.body!)).toMatchObject({ error: 'FORBIDDEN' });
    }
    expect(ran).toBe(false);
    // the same request through the edge reaches validation
    expect((await h(event({ body: '{oops' }))).statusCode).toBe(400);
  });

  it('are refused even with a valid token: the check comes before the access rule', async () => {
    const h = route('claimInvitation', {}, async () => ({}));
    const seller = { requestContext: { http: { sourceIp: '1.2.3.4' }, authorizer: { jwt: { claims: { sub: 'u', 'cognito:groups': '[seller]', iat: String(NOW()) } } } } };
    expect((await h(event({ ...seller, headers: {} } as unknown as Partial<APIGatewayProxyEventV2>))).statusCode).toBe(403);
    expect((await h(event(seller as unknown as Partial<APIGatewayProxyEventV2>))).statusCode).toBe(200);
  });

  it('are all refused when no origin secret is configured (fail closed)', async () => {
    delete process.env.ORIGIN_SECRET;
    resetConfig();
    try {
      const h = route('health', {}, async () => ({ ok: true }));
      expect((await h(event())).statusCode).toBe(403);
    } finally {
      process.env.ORIGIN_SECRET = SECRET;
      resetConfig();
    }
  });
});

describe('client IP', () => {
  it('uses the viewer IP only from the edge, else the source IP', () => {
    expect(clientIp(event({ headers: { [VIEWER_IP_HEADER]: '93.41.2.7' } }), true)).toBe('93.41.2.7');
    expect(clientIp(event({ headers: { [VIEWER_IP_HEADER]: '2001:db8::7' } }), true)).toBe('2001:db8::7');
    expect(clientIp(event({ headers: { [VIEWER_IP_HEADER]: 'not an ip; drop table' } }), true)).toBe('1.2.3.4');
    expect(clientIp(event(), true)).toBe('1.2.3.4');
    // a caller that did not come through the edge cannot choose its address
    expect(clientIp(event({ headers: { [VIEWER_IP_HEADER]: '93.41.2.7' } }), false)).toBe('1.2.3.4');
  });

  it('hands the handler the viewer IP the edge passed', async () => {
    const h = route('health', {}, async ({ sourceIp }) => ({ sourceIp }));
    const through = await h(event({ headers: { [ORIGIN_HEADER]: SECRET, [VIEWER_IP_HEADER]: '93.41.2.7' } }));
    expect(JSON.parse(through.body!)).toEqual({ sourceIp: '93.41.2.7' });
  });
});

/** An event through the edge with the authorizer's claims (strings, as API Gateway passes them). */
const withClaims = (claims: Record<string, string>, over: Partial<APIGatewayProxyEventV2> = {}) =>
  event({ ...over, requestContext: { http: { sourceIp: '1.2.3.4' }, authorizer: { jwt: { claims } } } } as unknown as Partial<APIGatewayProxyEventV2>);

describe('a token the server no longer accepts (the user\'s valid-after instant)', () => {
  const expectSessionExpired = (res: { statusCode?: number; body?: string }) => {
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body!)).toEqual({ error: SESSION_EXPIRED_CODE, message: 'La sessione non è più valida: accedi di nuovo.' });
  };

  it('refuses a token issued before the valid-after instant, before the handler and before the access rule', async () => {
    let ran = false;
    const h = route('listUsers', {}, async () => {
      ran = true;
      return { items: [] };
    });
    const now = NOW();
    sessions.set('demoted', { exists: true, validAfter: now - 10 });
    // still says admin: the demoted admin's old token
    expectSessionExpired(await h(withClaims({ sub: 'demoted', 'cognito:groups': '[admin]', mfa: 'totp', iat: String(now - 60) })));
    expect(ran).toBe(false);
    // a token issued at or after the instant is accepted (JWT iat has a one-second grain)
    expect((await h(withClaims({ sub: 'demoted', 'cognito:groups': '[admin]', mfa: 'totp', iat: String(now - 10) }))).statusCode).toBe(200);
    expect(ran).toBe(true);
  });

  it('refuses the token of a user whose profile is gone (deleted), on any authenticated route', async () => {
    sessions.set('deleted', { exists: false, validAfter: 0 });
    const claims = { sub: 'deleted', 'cognito:groups': '[seller]', iat: String(NOW()) };
    expectSessionExpired(await route('getMe', {}, async () => ({}))(withClaims(claims)));
    expectSessionExpired(await route('submitOwnProperty', {}, async () => ({}))(withClaims(claims)));
    expectSessionExpired(await route('createSource', {}, async () => ({}))(withClaims({ ...claims, 'cognito:groups': '[admin]', mfa: 'totp' })));
  });

  it('refuses a token without iat or with an odd one', async () => {
    const h = route('getMe', {}, async () => ({}));
    expectSessionExpired(await h(withClaims({ sub: 'u', 'cognito:groups': '[seller]' })));
    for (const iat of ['', 'abc', '-5', '0', '1e9']) expectSessionExpired(await h(withClaims({ sub: 'u', 'cognito:groups': '[seller]', iat })));
  });

  it(`refuses an admin token older than ${ADMIN_TOKEN_MAX_AGE_SECONDS / 60} minutes, on admin routes and any other`, async () => {
    const old = String(NOW() - ADMIN_TOKEN_MAX_AGE_SECONDS - 5);
    const fresh = String(NOW() - ADMIN_TOKEN_MAX_AGE_SECONDS + 60);
    const admin = (iat: string) => withClaims({ sub: 'a', 'cognito:groups': '[admin]', mfa: 'totp', iat });
    expectSessionExpired(await route('listUsers', {}, async () => ({ items: [] }))(admin(old)));
    expectSessionExpired(await route('getMe', {}, async () => ({}))(admin(old)));
    expect((await route('listUsers', {}, async () => ({ items: [] }))(admin(fresh))).statusCode).toBe(200);
    // a seller's token of the same age is fine (1 hour, Cognito's own expiry)
    expect((await route('getMe', {}, async () => ({}))(withClaims({ sub: 's', 'cognito:groups': '[seller]', iat: old }))).statusCode).toBe(200);
  });

  it('serves a public route as anyone when the token no longer counts', async () => {
    sessions.set('gone', { exists: false, validAfter: 0 });
    const h = route('health', {}, async ({ caller }) => ({ caller: caller?.userId ?? null }));
    expect(JSON.parse((await h(withClaims({ sub: 'gone', 'cognito:groups': '[seller]', iat: String(NOW()) }))).body!)).toEqual({ caller: null });
    expect(JSON.parse((await h(withClaims({ sub: 'ok', 'cognito:groups': '[seller]', iat: String(NOW()) }))).body!)).toEqual({ caller: 'ok' });
  });
});
