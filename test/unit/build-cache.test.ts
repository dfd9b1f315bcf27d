/**
 * The kept builds of infra/local/build-cache.ts (the Lambda bundles of the e2e stack and of
 * `npm start -- --bundles`): reused only while every input hashes the same, rebuilt whole
 * otherwise, nothing half-written left by a failed build, the newest few folders kept.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedBuild, hashKey } from '../../infra/local/build-cache';

let root: string;
let parent: string;
let source: string;
let config: string;
let builds: number;

/** A build that copies the source, upper-cased, and says it read it and a config file (read only if present). */
const copyUpper = async (dir: string) => {
  builds += 1;
  writeFileSync(path.join(dir, 'out.txt'), readFileSync(source, 'utf8').toUpperCase());
  return existsSync(config) ? [source, config] : [source];
};

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'build-cache-'));
  parent = path.join(root, 'builds');
  source = path.join(root, 'source.txt');
  writeFileSync(source, 'prima');
  config = path.join(root, 'config.json');
  writeFileSync(config, '{}');
  builds = 0;
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('cachedBuild', () => {
  it('builds once, then reuses the folder while its inputs are unchanged', async () => {
    const first = await cachedBuild(parent, 'k1', copyUpper);
    expect(first.reused).toBe(false);
    expect(readFileSync(path.join(first.dir, 'out.txt'), 'utf8')).toBe('PRIMA');
    const second = await cachedBuild(parent, 'k1', copyUpper);
    expect(second).toEqual({ dir: first.dir, reused: true });
    expect(builds).toBe(1);
  });

  it('builds again when an input changed, also to the same size and time, or is gone', async () => {
    const first = await cachedBuild(parent, 'k1', copyUpper);
    const { mtime } = statSync(source);
    writeFileSync(source, 'dopo!');
    utimesSync(source, mtime, mtime);
    const second = await cachedBuild(parent, 'k1', copyUpper);
    expect(second).toEqual({ dir: first.dir, reused: false });
    expect(readFileSync(path.join(second.dir, 'out.txt'), 'utf8')).toBe('DOPO!');
    unlinkSync(config);
    expect((await cachedBuild(parent, 'k1', copyUpper)).reused).toBe(false);
    expect((await cachedBuild(parent, 'k1', copyUpper)).reused).toBe(true);
    expect(builds).toBe(3);
  });

  it('leaves nothing of a failed build, and the next call builds', async () => {
    await expect(
      cachedBuild(parent, 'k1', async (dir) => {
        writeFileSync(path.join(dir, 'half.txt'), 'x');
        throw new Error('esbuild failed');
      }),
    ).rejects.toThrow('esbuild failed');
    expect(readdirSync(parent)).toEqual([]);
    expect((await cachedBuild(parent, 'k1', copyUpper)).reused).toBe(false);
  });

  it('keeps the three folders used last', async () => {
    const build = async (key: string, minutesAgo: number) => {
      const { dir } = await cachedBuild(parent, key, copyUpper);
      const at = new Date(Date.now() - minutesAgo * 60_000);
      utimesSync(dir, at, at);
    };
    await build('k1', 10);
    await build('k2', 9);
    await build('k3', 8);
    await build('k4', 7);
    expect(readdirSync(parent).sort()).toEqual(['k2', 'k3', 'k4']);
    // k2 used again becomes the newest: k3 is the one the next build drops
    expect((await cachedBuild(parent, 'k2', copyUpper)).reused).toBe(true);
    await cachedBuild(parent, 'k5', copyUpper);
    expect(readdirSync(parent).sort()).toEqual(['k2', 'k4', 'k5']);
  });

  it('names a key by its parts', () => {
    expect(hashKey({ a: 1 })).toBe(hashKey({ a: 1 }));
    expect(hashKey({ a: 1 })).not.toBe(hashKey({ a: 2 }));
    expect(hashKey({ a: 1 })).toMatch(/^[0-9a-f]{16}$/);
  });
});
