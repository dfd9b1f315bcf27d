/**
 * `npm run bench:bundle`: what each page of the SPA costs to download. Builds the SPA as
 * `npm run deploy` does (vite build, plus the manifest), then, from the manifest's import
 * graph, sums gzip sizes (level 9, as CloudFront compresses) of:
 * - the shell: the entry chunk and what it imports statically (every first visit pays it);
 * - each lazily loaded page: its chunk and the chunks it imports statically that the shell
 *   does not already hold (what opening that page adds).
 * Not a test: it prints the figures and writes bench/results/bundle.json.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'web', 'dist');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts', '--manifest', '--logLevel', 'warn'], {
  cwd: ROOT,
  stdio: 'inherit',
});
const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite', 'manifest.json'), 'utf8')) as Manifest;

const gz = new Map<string, number>();
function gzipBytes(file: string): number {
  let size = gz.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length;
    gz.set(file, size);
  }
  return size;
}

/** Every file (js and css) a chunk needs before it runs: itself and its static imports, transitively. */
function closure(key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) return seen;
  if (!seen.has(chunk.file)) {
    seen.add(chunk.file);
    for (const css of chunk.css ?? []) seen.add(css);
    for (const imp of chunk.imports ?? []) closure(imp, seen);
  }
  return seen;
}

const sum = (files: Iterable<string>, ext: string) => [...files].filter((f) => f.endsWith(ext)).reduce((n, f) => n + gzipBytes(f), 0);
const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
const shell = closure(entryKey);
const pages = Object.entries(manifest)
  .filter(([, c]) => c.isDynamicEntry && /^src\/(features|components)\//.test(c.src ?? ''))
  .map(([key, c]) => {
    const own = [...closure(key)].filter((f) => !shell.has(f));
    // a page by its feature path; a lazily loaded shared part (the property wizard) by its components/ path
    return { page: c.src!.replace(/^src\/(features\/)?/, ''), jsGzipKb: kb(sum(own, '.js')), cssGzipKb: kb(sum(own, '.css')) };
  })
  .sort((a, b) => a.page.localeCompare(b.page));

const result = {
  measuredAt: new Date().toISOString(),
  shell: { jsGzipKb: kb(sum(shell, '.js')), cssGzipKb: kb(sum(shell, '.css')) },
  pages,
};
console.log(`shell (every first visit): JS ${result.shell.jsGzipKb} KB gzip, CSS ${result.shell.cssGzipKb} KB gzip`);
console.log('page (added when opened)'.padEnd(52), 'JS KB gz'.padStart(9), 'CSS KB gz'.padStart(10));
for (const p of pages) console.log(p.page.padEnd(52), String(p.jsGzipKb).padStart(9), String(p.cssGzipKb).padStart(10));
writeFileSync(path.join(ROOT, 'bench', 'results', 'bundle.json'), `${JSON.stringify(result, null, 2)}\n`);
