import { describe, expect, it } from 'vitest';
import { VersionedCache } from '../../functions/lib/versioned-cache';

describe('VersionedCache', () => {
  it('answers a value read at the current version, reads again at another, and shares one read between calls at once', async () => {
    const cache = new VersionedCache<number>(10, 60_000);
    let reads = 0;
    const load = () => Promise.resolve(++reads);
    const [a, b] = await Promise.all([cache.get('k', 'v1', load, true, 0), cache.get('k', 'v1', load, true, 1)]);
    expect([a, b, reads]).toEqual([1, 1, 1]);
    expect(await cache.get('k', 'v2', load, true, 2)).toBe(2);
    expect(await cache.get('k', 'v2', load, true, 3)).toBe(2);
  });

  it('reads again once an entry is older than the time limit, whatever its version', async () => {
    const cache = new VersionedCache<string>(10, 1_000);
    expect(await cache.get('k', 'v', () => Promise.resolve('prima'), true, 0)).toBe('prima');
    expect(await cache.get('k', 'v', () => Promise.resolve('dopo'), true, 999)).toBe('prima');
    expect(await cache.get('k', 'v', () => Promise.resolve('dopo'), true, 1_000)).toBe('dopo');
  });

  it('keeps nothing when told not to (data being imported), drops a failed read, and keeps at most `max` entries', async () => {
    const cache = new VersionedCache<number>(2, 60_000);
    await cache.get('k', 'v', () => Promise.resolve(1), false);
    expect(cache.size).toBe(0);
    await expect(cache.get('k', 'v', () => Promise.reject(new Error('letto male')))).rejects.toThrow('letto male');
    expect(cache.size).toBe(0);
    for (const k of ['a', 'b', 'c']) await cache.get(k, 'v', () => Promise.resolve(1));
    expect(cache.size).toBe(2);
    let read = false;
    await cache.get('a', 'v', () => ((read = true), Promise.resolve(2)));
    expect(read).toBe(true);
  });
});
