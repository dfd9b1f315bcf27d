import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isAllowed, routes, triggers, type RouteDef } from '../../functions/routes';

describe('route manifest', () => {
  const all = routes as readonly RouteDef[];

  it('has unique ids and unique method + path pairs', () => {
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    expect(new Set(all.map((r) => `${r.method} ${r.path}`)).size).toBe(all.length);
    expect(new Set([...all.map((r) => r.id), ...triggers.map((t) => t.id)]).size).toBe(all.length + triggers.length);
  });

  it('points every entry at an existing handler file', () => {
    for (const r of [...all, ...triggers]) {
      expect(existsSync(path.join('functions', `${r.handler}.ts`)), r.handler).toBe(true);
    }
  });

  it('declares who may call every route', () => {
    for (const r of all) {
      expect(r.access === 'public' || r.access === 'authenticated' || (Array.isArray(r.access) && r.access.length > 0), r.id).toBe(true);
    }
  });

  it('evaluates access rules', () => {
    expect(isAllowed('public', undefined)).toBe(true);
    expect(isAllowed('authenticated', undefined)).toBe(false);
    expect(isAllowed('authenticated', [])).toBe(true);
    expect(isAllowed(['admin'], ['seller'])).toBe(false);
    expect(isAllowed(['admin', 'agent'], ['agent'])).toBe(true);
  });
});
