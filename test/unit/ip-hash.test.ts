import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../functions/lib/config';
import { clientKey } from '../../functions/model/rate-limit';

/**
 * The per-IP rate limit stores a hash of the caller's address, never the address. The hash is
 * keyed with a salt made for each deployment (a Secrets Manager value generated at deploy,
 * a file per data folder locally): the same address gives another key in another deployment,
 * and a table of the 2^32 IPv4 hashes made without the salt matches nothing.
 */
const saved = { TABLE_NAME: process.env.TABLE_NAME, IP_HASH_SALT: process.env.IP_HASH_SALT };

function withSalt(salt: string | undefined) {
  process.env.TABLE_NAME = 'opzione-casa';
  if (salt === undefined) delete process.env.IP_HASH_SALT;
  else process.env.IP_HASH_SALT = salt;
  resetConfig();
}

afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
});

const unsalted = (ip: string) => createHash('sha256').update(ip).digest('base64url').slice(0, 22);

describe('clientKey', () => {
  it('gives the same address the same key within a deployment', () => {
    withSalt('sale-di-questo-deploy-0123456789abcdef');
    expect(clientKey('203.0.113.7')).toBe(clientKey('203.0.113.7'));
    expect(clientKey('203.0.113.7')).not.toBe(clientKey('203.0.113.8'));
    expect(clientKey('203.0.113.7')).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('gives the same address another key in another deployment', () => {
    withSalt('primo-deploy-aaaaaaaaaaaaaaaaaaaaaaaa');
    const first = clientKey('203.0.113.7');
    withSalt('secondo-deploy-bbbbbbbbbbbbbbbbbbbbbbb');
    const second = clientKey('203.0.113.7');
    expect(first).not.toBe(second);
  });

  it('is not the plain SHA-256 of the address', () => {
    withSalt('sale-di-questo-deploy-0123456789abcdef');
    for (const ip of ['203.0.113.7', '127.0.0.1', '2001:db8::1']) expect(clientKey(ip)).not.toBe(unsalted(ip));
  });

  it('refuses to hash without a salt rather than fall back to an unsalted hash', () => {
    withSalt(undefined);
    expect(() => clientKey('203.0.113.7')).toThrow(/IP_HASH_SALT/);
  });
});
