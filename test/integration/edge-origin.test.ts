/**
 * The API answers only what came through the edge: CloudFront (locally its stand-ins) adds
 * the origin secret to every request; a direct call to the API endpoint gets 403 whatever
 * it carries, and only a request through the edge may name the viewer's address, which
 * keys the per-IP limits (an IPv6 viewer by its /64).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '../../functions/routes';
import { RATE_LIMITS } from '../../functions/domain/property/limits';
import { ORIGIN_HEADER, VIEWER_IP_HEADER } from '../../functions/lib/origin';
import { api, stack, tokenForRole, type Role } from '../support/helpers';
import { apiFrom, awayFromWindowEdge, fullBody, newClientIp, newId } from '../support/submission';

const samplePath = (r: RouteDef) => r.path.replace(/\{(\w+)\}/g, 'esempio-$1');

/** A caller the route lets through: the direct call must be refused for the origin alone. */
function allowedRole(r: RouteDef): Role | undefined {
  if (r.access === 'public') return undefined;
  if (r.access === 'authenticated') return 'seller';
  return r.access[0] as Role;
}

describe('direct calls to the API endpoint (not through the edge)', () => {
  it('the local stack has a fresh origin secret', () => {
    expect(stack().env.ORIGIN_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  for (const route of routes as readonly RouteDef[]) {
    it(`${route.method} ${route.path}: 403 even for a caller the route allows`, async () => {
      const role = allowedRole(route);
      const token = role ? await tokenForRole(role) : undefined;
      const body = route.method === 'GET' ? undefined : {};
      const res = await api(route.method, samplePath(route), { token, body, direct: true });
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body).toMatchObject({ error: 'FORBIDDEN', message: expect.any(String) });
    });
  }

  it('refuses a wrong or an empty secret, and one that only starts or ends like the right one', async () => {
    const secret = stack().env.ORIGIN_SECRET!;
    for (const value of ['sbagliato', '', secret.slice(0, -1), `${secret}x`, secret.toUpperCase()]) {
      const res = await api('GET', '/health', { direct: true, headers: { [ORIGIN_HEADER]: value } });
      expect(res.status, value).toBe(403);
    }
    expect((await api('GET', '/health')).status).toBe(200);
  });
});

describe('the viewer address, from the edge only', () => {
  const { limit, windowSeconds } = RATE_LIMITS.submission;
  const through = (viewerIp: string) =>
    // every call from another source address: only the viewer address can join them
    apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(newId()), website: 'bot' }, { [VIEWER_IP_HEADER]: viewerIp });

  it(`counts every address of an IPv6 /64 as one client (${limit} submissions an hour), another /64 apart`, async () => {
    await awayFromWindowEdge(windowSeconds);
    const net = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
    for (let i = 1; i <= limit; i++) {
      const res = await through(`${net}:${i.toString(16)}::${(i * 7).toString(16)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const limited = await through(`${net}:ffff:1:2:3`);
    expect(limited.status).toBe(429);
    expect((limited.body as { message: string }).message).toMatch(/^Hai fatto troppe richieste in poco tempo/);
    const nextNet = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;
    expect((await through(nextNet)).status).toBe(201);
  });

  it('counts an IPv4 viewer by its address, whatever address the request came from', async () => {
    await awayFromWindowEdge(windowSeconds);
    // TEST-NET-1, used by no other test (the fuzzing's viewers are in 198.51.0.0/16, local-edge's in 203.0.113.0/24)
    const viewer = `192.0.2.${1 + Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < limit; i++) expect((await through(viewer)).status).toBe(201);
    expect((await through(viewer)).status).toBe(429);
  });
});
