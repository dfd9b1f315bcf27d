import { describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '../../functions/routes';
import { api, tokenForRole, type Role } from '../support/helpers';

type Caller = 'anonymous' | Role;
const CALLERS: Caller[] = ['anonymous', 'seller', 'agent', 'admin'];

/**
 * Who may call each route, written here on purpose independently of the manifest: a
 * route added to the manifest without a line here fails the first test, and a manifest
 * rule that drifts from this table fails the second.
 */
const EXPECTED: Record<string, Caller[]> = {
  health: ['anonymous', 'seller', 'agent', 'admin'],
  getMe: ['seller', 'agent', 'admin'],
  claimInvitation: ['seller'],
  createUpload: ['anonymous', 'seller', 'agent', 'admin'],
  submitProperty: ['anonymous', 'seller', 'agent', 'admin'],
  omiCreateUpload: ['admin'],
  omiGetImport: ['admin'],
  omiListJobs: ['admin'],
  omiStartClear: ['admin'],
  omiGetClear: ['admin'],
  omiListQuotations: ['admin'],
  evaluateProperty: ['admin'],
};

const samplePath = (r: RouteDef) => r.path.replace(/\{(\w+)\}/g, 'esempio-$1');

describe('authorization of every route in the manifest', () => {
  it('has a rule in this test for every route (a new route needs one)', () => {
    const missing = (routes as readonly RouteDef[]).filter((r) => !(r.id in EXPECTED)).map((r) => r.id);
    expect(missing).toEqual([]);
    const stale = Object.keys(EXPECTED).filter((id) => !(routes as readonly RouteDef[]).some((r) => r.id === id));
    expect(stale).toEqual([]);
  });

  for (const route of routes as readonly RouteDef[]) {
    for (const caller of CALLERS) {
      const allowed = (EXPECTED[route.id] ?? []).includes(caller);
      it(`${route.method} ${route.path}: ${caller} is ${allowed ? 'let through' : 'refused'}`, async () => {
        const token = caller === 'anonymous' ? undefined : await tokenForRole(caller);
        const res = await api(route.method, samplePath(route), { token, body: route.method === 'GET' ? undefined : {} });
        if (allowed) {
          expect([401, 403]).not.toContain(res.status);
        } else {
          expect(res.status).toBe(caller === 'anonymous' ? 401 : 403);
          expect(typeof (res.body as { message?: unknown }).message).toBe('string');
        }
      });
    }
  }
});
