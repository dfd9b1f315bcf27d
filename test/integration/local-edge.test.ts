/**
 * The local stand-in of CloudFront (infra/local/web-server.ts, used by the browser tests)
 * behaves as the distribution: the security headers the web stack puts in its response
 * headers policy, built by the same function, on every response; /api/* forwarded with the
 * origin secret and the viewer's address, whatever the client sent under those names; the
 * build's text files compressed (Brotli, else gzip) as the distribution's `compress: true`.
 */
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../functions/domain/property/limits';
import { DEMO_COMPANY, type RuntimeConfig } from '../../functions/domain/runtime-config';
import { ORIGIN_HEADER, VIEWER_IP_HEADER } from '../../functions/lib/origin';
import { freePort } from '../../infra/local/emulators';
import { startStaticWeb } from '../../infra/local/web-server';
import { edgeOriginsOf, headerValues, securityHeaders } from '../../infra/stacks/security-headers';
import { api, stack } from '../support/helpers';
import { awayFromWindowEdge, fullBody, newClientIp, newId } from '../support/submission';

const APP_JS = `export const righe = [${Array.from({ length: 400 }, (_, i) => `'riga ${i}'`).join(',')}];\n`;
let web: { url: string; stop: () => Promise<void> };
let dist: string;
let config: RuntimeConfig;

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'local-edge-'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>x</title><div id="root"></div>');
  await writeFile(path.join(dist, 'app.js'), APP_JS);
  config = {
    apiUrl: '/api',
    region: 'eu-south-1',
    userPoolId: stack().pool.userPoolId,
    userPoolClientId: stack().pool.userPoolClientId,
    cognitoEndpoint: stack().urls.cognito,
    company: DEMO_COMPANY,
    privacyUrl: '/privacy',
    voiceWidget: null,
  } as RuntimeConfig;
  web = await startStaticWeb({
    port: await freePort(),
    distDir: dist,
    apiUrl: stack().urls.api,
    config,
    originSecret: stack().env.ORIGIN_SECRET,
    storageUrl: stack().urls.s3,
  });
});
afterAll(async () => {
  await web?.stop();
  await rm(dist, { recursive: true, force: true });
});

/** A request to the local edge from the loopback address `ip`. */
function viaEdge(ip: string, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  const url = new URL(route, web.url.replace('localhost', '127.0.0.1'));
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        localAddress: ip,
        headers: { ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

describe('security headers of the local edge', () => {
  const expected = () => headerValues(securityHeaders(edgeOriginsOf(config, [new URL(stack().urls.s3).origin])));

  it('are, on the SPA, config.json and the API, exactly those the web stack builds for these origins', async () => {
    expect(expected()['content-security-policy']).toContain(`connect-src 'self' ${stack().urls.cognito} ${new URL(stack().urls.s3).origin}`);
    for (const route of ['/', '/admin/requests', '/config.json', '/api/health', '/api/non-esiste']) {
      const res = await viaEdge('127.0.0.1', 'GET', route);
      const sent = Object.fromEntries(Object.keys(expected()).map((name) => [name, res.headers[name]]));
      expect(sent, route).toEqual(expected());
    }
  });
});

describe('the API through the local edge', () => {
  it('is reached with the origin secret, which a direct call lacks', async () => {
    expect((await viaEdge('127.0.0.1', 'GET', '/api/health')).status).toBe(200);
    expect((await api('GET', '/health', { direct: true })).status).toBe(403);
  });

  it('replaces an origin header the client sends', async () => {
    const res = await viaEdge('127.0.0.1', 'GET', '/api/health', undefined, { [ORIGIN_HEADER]: 'inventato' });
    expect(res.status).toBe(200);
  });

  it('tells the API the address the request came from, not the one the client claims', async () => {
    const { limit, windowSeconds } = RATE_LIMITS.submission;
    await awayFromWindowEdge(windowSeconds);
    const ip = newClientIp();
    for (let i = 0; i < limit; i++) {
      // a fresh claimed address each time: were it believed, no limit would ever be reached
      const res = await viaEdge(ip, 'POST', '/api/properties', { ...fullBody(newId()), website: 'bot' }, { [VIEWER_IP_HEADER]: `203.0.113.${i + 1}` });
      expect(res.status, res.body).toBe(201);
    }
    const limited = await viaEdge(ip, 'POST', '/api/properties', { ...fullBody(newId()), website: 'bot' }, { [VIEWER_IP_HEADER]: '203.0.113.200' });
    expect(limited.status).toBe(429);
  });
});

describe('compression of the local edge (CloudFront compress: true)', () => {
  /** the raw bytes and headers of GET `route` with this Accept-Encoding */
  const raw = (route: string, acceptEncoding?: string) =>
    new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const url = new URL(route, web.url.replace('localhost', '127.0.0.1'));
      http
        .get({ host: url.hostname, port: url.port, path: url.pathname, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });

  it('sends Brotli when accepted, else gzip, else the file as it is; small files never compressed', async () => {
    const br = await raw('/app.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.body.length).toBeLessThan(APP_JS.length / 3);
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(APP_JS);
    const gz = await raw('/app.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(APP_JS);
    const plain = await raw('/app.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toBe(APP_JS);
    // index.html here is under 1,000 bytes: CloudFront leaves it as it is
    expect((await raw('/', 'br')).headers['content-encoding']).toBeUndefined();
  });
});
