/**
 * A build kept between runs, in a folder named by its key: the build writes into a fresh folder
 * and says which files it read; their SHA-256 are stored beside its output. A later call with
 * the same key reuses the folder only if every one of those files still hashes the same, so an
 * edited source (or a reinstalled package) always builds again. The newest few folders are kept.
 *
 * The Lambda bundles use it (infra/local/bundles.ts): one `npm test` builds them once, in the
 * infra stage, and the e2e stack reuses them; `npm start -- --bundles` builds only after a change.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const INPUTS = '.inputs.json';
/** folders kept: a few keys (branches, edits undone), the newest used first */
const KEEP = 3;

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

export function hashKey(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

/** Every input as it was hashed, unchanged (a file gone or different: no). */
function unchanged(inputs: Record<string, string>): boolean {
  return Object.entries(inputs).every(([file, hash]) => existsSync(file) && sha256(file) === hash);
}

export interface CachedBuild {
  dir: string;
  reused: boolean;
}

/**
 * The folder of `key` under `parent`: reused when its inputs are unchanged, else made by
 * `build(dir)`, which returns the absolute paths of the files it read.
 */
export async function cachedBuild(parent: string, key: string, build: (dir: string) => Promise<string[]>): Promise<CachedBuild> {
  mkdirSync(parent, { recursive: true });
  const dir = path.join(parent, key);
  try {
    const inputs = JSON.parse(readFileSync(path.join(dir, INPUTS), 'utf8')) as Record<string, string>;
    if (unchanged(inputs)) {
      const now = new Date();
      utimesSync(dir, now, now);
      return { dir, reused: true };
    }
  } catch {
    // not built yet, or written by an older layout: build
  }
  const fresh = mkdtempSync(path.join(parent, 'tmp-'));
  try {
    const read = await build(fresh);
    writeFileSync(path.join(fresh, INPUTS), JSON.stringify(Object.fromEntries(read.map((f) => [f, sha256(f)]))));
    // the folder appears whole or not at all; one left stale by changed inputs is replaced
    rmSync(dir, { recursive: true, force: true });
    renameSync(fresh, dir);
  } catch (err) {
    rmSync(fresh, { recursive: true, force: true });
    throw err;
  }
  prune(parent);
  return { dir, reused: false };
}

/** Keeps the KEEP folders used last (and anything a build is writing now, tmp-*). */
function prune(parent: string): void {
  const folders = readdirSync(parent, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('tmp-'))
    .map((e) => ({ dir: path.join(parent, e.name), at: statSync(path.join(parent, e.name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { dir } of folders.slice(KEEP)) rmSync(dir, { recursive: true, force: true });
}
