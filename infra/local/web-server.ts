/**
 * Stand-ins for CloudFront in front of the SPA: a Vite plugin that serves the runtime
 * /config.json (the web stack writes it at deploy on AWS), and a small static server for
 * the production build with the same behaviours as the distribution, used by the e2e tests:
 * SPA fallback for paths without a file extension; /api/* forwarded to the API with the
 * origin secret and the viewer's address (infra/local/edge.ts), overwriting what the client
 * sent; and on every response the security headers of the distribution, built by the same
 * function from this stack's origins (infra/stacks/security-headers.ts); and, as the
 * distribution's `compress: true`, the build's text files compressed with Brotli or gzip
 * when the browser accepts them.
 */
import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import type { RuntimeConfig } from '../../functions/domain/runtime-config';
import { edgeOriginsOf, headerValues, securityHeaders } from '../stacks/security-headers';
import { edgeHeaders, socketIp } from './edge';

export function runtimeConfigPlugin(config: RuntimeConfig): Plugin {
  return {
    name: 'runtime-config',
    configureServer(server) {
      server.middlewares.use('/config.json', (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('cache-control', 'no-cache');
        res.end(JSON.stringify(config));
      });
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.webp': 'image/webp',
};

/** What CloudFront compresses: text types from 1,000 bytes up (it never compresses smaller objects). */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.ico']);
const MIN_COMPRESS_BYTES = 1000;
/**
 * CloudFront does not document its Brotli level; compressing on the fly, a CDN uses a fast
 * one. Quality 5 makes the whole build (2.3 MB of JavaScript and CSS) 730 KB in 60 ms; quality
 * 11 makes it 674 KB in 3.6 s of CPU, which the first page loads of a test run waited for.
 */
const BROTLI_QUALITY = 5;

interface Served {
  body: Buffer;
  type: string;
  /** the body compressed, made on the first request that accepts the encoding */
  br?: Buffer;
  gzip?: Buffer;
}

/** The body in the encoding CloudFront would pick for this Accept-Encoding (Brotli first). */
function encode(file: string, served: Served, acceptEncoding: string | undefined): { body: Buffer; encoding?: 'br' | 'gzip' } {
  if (!COMPRESSIBLE.has(path.extname(file)) || served.body.length < MIN_COMPRESS_BYTES) return { body: served.body };
  const accepted = (acceptEncoding ?? '').split(',').map((e) => e.trim().split(';')[0]);
  if (accepted.includes('br')) {
    served.br ??= brotliCompressSync(served.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });
    return { body: served.br, encoding: 'br' };
  }
  if (accepted.includes('gzip')) {
    served.gzip ??= gzipSync(served.body, { level: 9 });
    return { body: served.gzip, encoding: 'gzip' };
  }
  return { body: served.body };
}

export interface StaticWebOptions {
  port: number;
  distDir: string;
  apiUrl: string;
  config: RuntimeConfig;
  /** what the API requires from the edge; defaults to the local stack's (ORIGIN_SECRET, set by startLocalStack) */
  originSecret?: string;
  /** the S3 emulator, origin of the presigned URLs; defaults to the local stack's (S3_ENDPOINT) */
  storageUrl?: string;
}

/** The headers the distribution adds to every response, for this local stack's origins. */
export function localSecurityHeaders(config: RuntimeConfig, storageUrl: string): Record<string, string> {
  return headerValues(securityHeaders(edgeOriginsOf(config, [new URL(storageUrl).origin])));
}

export async function startStaticWeb(opts: StaticWebOptions) {
  const api = new URL(opts.apiUrl);
  const originSecret = opts.originSecret ?? process.env.ORIGIN_SECRET;
  const storageUrl = opts.storageUrl ?? process.env.S3_ENDPOINT;
  if (!originSecret || !storageUrl) throw new Error('startStaticWeb: start the local stack first (ORIGIN_SECRET, S3_ENDPOINT) or pass originSecret and storageUrl');
  const security = localSecurityHeaders(opts.config, storageUrl);
  // the folder is a finished build: each file is read once, on its first request, and kept
  // (a page load asks for 20-40 files, and the browser tests load pages about a thousand times);
  // a path with no file is looked up again each time, and never kept
  const files = new Map<string, Promise<Served | undefined>>();
  const read = (file: string) => {
    let served = files.get(file);
    if (!served) {
      served = stat(file)
        .then(async (info) => (info.isFile() ? { body: await readFile(file), type: TYPES[path.extname(file)] ?? 'application/octet-stream' } : undefined))
        .catch(() => undefined);
      files.set(file, served);
      void served.then((found) => found ?? files.delete(file));
    }
    return served;
  };
  const server = http.createServer(async (req, res) => {
    for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/api/')) {
      const headers = { ...req.headers, host: api.host, ...edgeHeaders(originSecret, socketIp(req.socket.remoteAddress)) };
      const upstream = http.request({ host: api.hostname, port: api.port, method: req.method, path: req.url, headers }, (up) => {
        // as CloudFront's response headers policy, ours override the origin's
        res.writeHead(up.statusCode ?? 502, { ...up.headers, ...security });
        up.pipe(res);
      });
      upstream.on('error', () => {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'API non raggiungibile' }));
      });
      req.pipe(upstream);
      return;
    }
    if (url.pathname === '/config.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
      res.end(JSON.stringify(opts.config));
      return;
    }
    const hasExt = path.extname(url.pathname) !== '';
    const file = path.join(opts.distDir, hasExt ? path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, '') : 'index.html');
    const served = file.startsWith(opts.distDir) ? await read(file) : undefined;
    if (!served) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
      return;
    }
    const { body, encoding } = encode(file, served, req.headers['accept-encoding']);
    res.writeHead(200, {
      'content-type': served.type,
      'cache-control': file.endsWith('index.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
      vary: 'accept-encoding',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    res.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://localhost:${opts.port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
