/**
 * The Vite dev server (`npm start`, infra/local/start.ts) must not serve the local runtime's
 * secrets through `/@fs/`: `.local/env.json` (origin secret, Stripe webhook secret, IP salt)
 * and cognito-local's store (`.local/data/cognito/db/*.json`: every local account's password
 * and TOTP secret), nor anything of the repository the SPA does not need (issue 18).
 * Starts the dev server with web/vite.config.ts on a free port, as start.ts does; no emulators.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViteDevServer } from 'vite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LOCAL = path.join(ROOT, '.local');
const SECRET = 'vite-fs-test-secret-value-0123456789';
const ENV_JSON = path.join(LOCAL, 'env.json');
const COGNITO_STORE = path.join(LOCAL, 'data', 'cognito', 'db', 'local_vitefstest.json');

/** Files this test made (and removes): a real env.json or store of a running `npm start` is left alone. */
const made: string[] = [];
let server: ViteDevServer;
let base: string;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Folders this test made, removed if still empty. */
const madeDirs: string[] = [];

async function fixture(file: string, content: string): Promise<void> {
  if (existsSync(file)) return;
  const first = await mkdir(path.dirname(file), { recursive: true });
  for (let dir = path.dirname(file); first && dir.startsWith(first); dir = path.dirname(dir)) madeDirs.push(dir);
  await writeFile(file, content);
  made.push(file);
}

const get = async (urlPath: string) => {
  const res = await fetch(`${base}${urlPath}`);
  return { status: res.status, body: await res.text() };
};
/** `/@fs/` + an absolute path, as Vite builds it (forward slashes). */
const fsUrl = (file: string) => `/@fs${file.split(path.sep).join('/').replace(/^([^/])/, '/$1')}`;

beforeAll(async () => {
  await fixture(ENV_JSON, JSON.stringify({ ORIGIN_SECRET: SECRET, STRIPE_WEBHOOK_SECRET: SECRET, IP_HASH_SALT: SECRET }));
  await fixture(COGNITO_STORE, JSON.stringify({ Users: { 'mario@example.it': { Password: SECRET, MFAOptions: [{ TOTPSecret: SECRET }] } } }));
  const { createServer } = await import('vite');
  const port = await freePort();
  server = await createServer({
    configFile: path.join(ROOT, 'web', 'vite.config.ts'),
    server: { port, strictPort: true, host: '127.0.0.1', hmr: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    logLevel: 'silent',
    clearScreen: false,
  });
  await server.listen();
  base = `http://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  await server?.close();
  for (const file of made) await rm(file, { force: true });
  for (const dir of madeDirs) await rmdir(dir).catch(() => undefined);
});

describe('the Vite dev server and the local secrets', () => {
  it('refuses .local/env.json and cognito-local\'s store through /@fs/', async () => {
    for (const file of [ENV_JSON, COGNITO_STORE]) {
      const res = await get(fsUrl(file));
      expect([403, 404], `${fsUrl(file)}: ${res.status}`).toContain(res.status);
      expect(res.body).not.toContain(SECRET);
    }
  });

  it('refuses what an attacker tries next: query suffixes, encoded paths, the folder itself', async () => {
    const env = fsUrl(ENV_JSON);
    const store = fsUrl(COGNITO_STORE);
    const attempts = [
      `${env}?raw`,
      `${env}?import`,
      `${env}?import&raw`,
      `${env}?raw??`,
      `${env}?import&raw??`,
      `${env}?url`,
      `${env}?inline`,
      `${store}?raw`,
      env.replace('/.local/', '/%2elocal/'),
      env.replace('/.local/', '/.local/./'),
      env.replace('/.local/', '/web/../.local/'),
      `/@fs/${ENV_JSON.split(path.sep).join('/').replace(/^\//, '')}`,
    ];
    for (const url of attempts) {
      const res = await get(url);
      expect(res.body, url).not.toContain(SECRET);
      expect(res.status, `${url}: ${res.status}`).not.toBe(200);
    }
    // the folders: no listing of what is inside (at most the SPA's fallback page)
    for (const url of [fsUrl(LOCAL), fsUrl(path.join(LOCAL, 'data', 'cognito', 'db'))]) {
      const res = await get(url);
      expect(res.body, url).not.toMatch(/env\.json|local_vitefstest/);
    }
  });

  it('serves nothing of the repository outside the SPA, the domain code and the dependencies', async () => {
    for (const file of ['package.json', 'infra/local/stack.ts', 'functions/lib/config.ts']) {
      const res = await get(fsUrl(path.join(ROOT, file)));
      expect([403, 404], `${file}: ${res.status}`).toContain(res.status);
    }
  });

  it('still serves the SPA and the shared domain code', async () => {
    expect((await get('/')).status).toBe(200);
    const domain = await get(fsUrl(path.join(ROOT, 'functions', 'domain', 'fees.ts')));
    expect(domain.status).toBe(200);
    expect((await get(fsUrl(path.join(ROOT, 'node_modules', 'vite', 'package.json')))).status).toBe(200);
  });
});
