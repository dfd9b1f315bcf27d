/**
 * The local API Gateway + Lambda: serves every route of functions/routes.ts under /api,
 * verifies bearer tokens exactly as the HTTP API JWT authorizer does (signature, issuer,
 * audience = app client id, expiry), builds API Gateway HTTP API v2 events with the
 * claims as the authorizer passes them, and calls the same handlers the Lambdas run.
 * It also answers the Lambda Invoke API for the Cognito emulator's triggers and
 * dispatches S3 events and schedules to the manifest's triggers.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { routes, triggers, type RouteDef, type TriggerDef } from '../../functions/routes';

const FUNCTIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../functions');

type AnyHandler = (event: unknown, context?: unknown) => Promise<unknown>;
const modules = new Map<string, Promise<AnyHandler>>();
let bundleFileOf: ((handler: string) => string) | undefined;

/**
 * Where handlers come from: the TypeScript sources (default), or the Lambda bundles built
 * by infra/local/bundles.ts (`npm start -- --bundles`, the e2e suite). Set before the first call.
 */
export function useHandlerBundles(fileOf: ((handler: string) => string) | undefined): void {
  bundleFileOf = fileOf;
  modules.clear();
}

/**
 * Node's own import(), for the bundles. Where this module runs under vitest (the e2e suite's
 * stack), a plain import() goes through Vite's module runner, which would parse and rewrite
 * each multi-megabyte bundle (about 15 s of CPU per e2e run); the bundles are plain ES modules,
 * loaded as Lambda's Node loads them. A script compiled here is not rewritten, and its
 * import() uses Node's default loader.
 */
const nativeImport = new vm.Script('(specifier) => import(specifier)', { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }).runInThisContext() as (
  specifier: string,
) => Promise<unknown>;

/** Loads `functions/<handler>.ts` (or its bundle) once and returns its exported `handler`. */
export function loadHandler(handler: string): Promise<AnyHandler> {
  let p = modules.get(handler);
  if (!p) {
    const file = pathToFileURL(bundleFileOf ? bundleFileOf(handler) : path.join(FUNCTIONS_DIR, `${handler}.ts`)).href;
    const loaded = (bundleFileOf ? nativeImport(file) : import(file)) as Promise<{ handler?: AnyHandler }>;
    p = loaded.then((m) => {
      if (typeof m.handler !== 'function') throw new Error(`${handler} non esporta handler`);
      return m.handler;
    });
    modules.set(handler, p);
  }
  return p;
}

const lambdaContext = (name: string) => ({
  functionName: name,
  awsRequestId: randomUUID(),
  getRemainingTimeInMillis: () => 30_000,
  callbackWaitsForEmptyEventLoop: false,
});

/** Invokes a trigger by manifest id, as Lambda would. */
export async function invokeTrigger(id: string, event: unknown): Promise<unknown> {
  const def = (triggers as readonly TriggerDef[]).find((t) => t.id === id);
  if (!def) throw new Error(`Funzione sconosciuta: ${id}`);
  const fn = await loadHandler(def.handler);
  return fn(event, lambdaContext(id));
}

interface CompiledRoute {
  def: RouteDef;
  regex: RegExp;
  names: string[];
}

function compile(def: RouteDef): CompiledRoute {
  const names: string[] = [];
  const pattern = def.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}|\{(\w+)\}/g, (_m, a: string, b: string) => {
    names.push(a ?? b);
    return '([^/]+)';
  });
  return { def, regex: new RegExp(`^/api${pattern}$`), names };
}

/** How API Gateway's JWT authorizer hands claims to the integration: every value a string, arrays as "[a b]". */
function flattenClaims(payload: JWTPayload): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(payload)) {
    if (Array.isArray(v)) out[k] = `[${v.join(' ')}]`;
    else if (v !== null && typeof v === 'object') out[k] = JSON.stringify(v);
    else out[k] = String(v);
  }
  return out;
}

export interface GatewayOptions {
  port: number;
  /** Cognito issuer, e.g. http://127.0.0.1:9229/local_abc */
  issuer: string;
  /** the app client id (the authorizer's audience) */
  audience: string;
  /** origins allowed by CORS (the SPA) */
  corsOrigins: string[];
  log?: (line: string) => void;
  /** called before the PostConfirmation_ConfirmSignUp trigger runs (the stack marks the e-mail verified, as Cognito does) */
  onConfirmSignUp?: (userPoolId: string, username: string, email: string) => Promise<void>;
}

export interface Gateway {
  url: string;
  stop: () => Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer) {
  res.writeHead(status, headers);
  res.end(body);
}

const jsonHeaders = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export async function startGateway(opts: GatewayOptions): Promise<Gateway> {
  const compiled = (routes as readonly RouteDef[]).map(compile);
  const jwks = createRemoteJWKSet(new URL(`${opts.issuer}/.well-known/jwks.json`));
  const log = opts.log ?? (() => {});

  /**
   * Tokens whose signature and issuer were verified, by their text: the same bytes verify the
   * same way against the emulator's one key, so a token seen again is not checked with RSA again
   * (under the security fuzz, about 4 % of its process's CPU went to verifying the same few
   * tokens 25,500 times). Its times are checked on every request, as jwtVerify does: expired
   * (`exp` not after now) or not yet valid (`nbf` after now) is refused.
   */
  const verified = new Map<string, JWTPayload>();
  const VERIFIED_KEPT = 1000;

  async function verify(token: string): Promise<JWTPayload | undefined> {
    try {
      let payload = verified.get(token);
      if (payload) {
        const now = Math.floor(Date.now() / 1000);
        if ((typeof payload.exp === 'number' && payload.exp <= now) || (typeof payload.nbf === 'number' && payload.nbf > now)) return undefined;
      } else {
        ({ payload } = await jwtVerify(token, jwks, { issuer: opts.issuer, algorithms: ['RS256'] }));
        if (verified.size >= VERIFIED_KEPT) verified.clear();
        verified.set(token, payload);
      }
      // API Gateway accepts the token when `aud` (ID token) or `client_id` (access token) is the audience.
      const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      if (!aud.includes(opts.audience) && payload.client_id !== opts.audience) return undefined;
      return payload;
    } catch {
      return undefined;
    }
  }

  function cors(req: IncomingMessage): Record<string, string> {
    const origin = req.headers.origin;
    if (!origin || !opts.corsOrigins.includes(origin)) return {};
    return {
      'access-control-allow-origin': origin,
      'access-control-allow-headers': 'authorization,content-type',
      'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,OPTIONS',
      'access-control-max-age': '600',
      vary: 'origin',
    };
  }

  async function handleLambdaInvoke(req: IncomingMessage, res: ServerResponse, name: string) {
    const payload = JSON.parse((await readBody(req)).toString('utf8') || '{}');
    try {
      const email = payload?.request?.userAttributes?.email;
      if (payload?.triggerSource === 'PostConfirmation_ConfirmSignUp' && opts.onConfirmSignUp && typeof email === 'string') {
        await opts.onConfirmSignUp(String(payload.userPoolId), String(payload.userName), email).catch((err: unknown) => log(`e-mail not marked verified: ${(err as Error).message}`));
      }
      const result = await invokeTrigger(name, payload);
      send(res, 200, { 'content-type': 'application/json' }, JSON.stringify(result ?? null));
    } catch (err) {
      log(`trigger ${name} failed: ${(err as Error).message}`);
      send(
        res,
        200,
        { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' },
        JSON.stringify({ errorMessage: (err as Error).message, errorType: (err as Error).name }),
      );
    }
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL) {
    const method = (req.method ?? 'GET').toUpperCase();
    const corsHeaders = cors(req);
    if (method === 'OPTIONS') return send(res, 204, corsHeaders, '');
    let match: { route: CompiledRoute; params: Record<string, string> } | undefined;
    for (const route of compiled) {
      if (route.def.method !== method) continue;
      const m = route.regex.exec(url.pathname);
      if (m) {
        const params: Record<string, string> = {};
        route.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1]!)));
        match = { route, params };
        break;
      }
    }
    if (!match) {
      return send(res, 404, { ...jsonHeaders, ...corsHeaders }, JSON.stringify({ error: 'NOT_FOUND', message: 'Risorsa non trovata' }));
    }
    const { def } = match.route;
    let claims: Record<string, string> | undefined;
    if (def.access !== 'public') {
      const header = req.headers.authorization ?? '';
      const token = /^Bearer\s+(.+)$/i.exec(header)?.[1];
      const payload = token ? await verify(token) : undefined;
      if (!payload) {
        return send(res, 401, { ...jsonHeaders, ...corsHeaders }, JSON.stringify({ error: 'UNAUTHORIZED', message: 'Accesso richiesto' }));
      }
      claims = flattenClaims(payload);
    }
    const raw = await readBody(req);
    const contentType = String(req.headers['content-type'] ?? '');
    const isText = raw.length === 0 || /json|text|x-www-form-urlencoded/.test(contentType);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(',') : v;
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = query[k] !== undefined ? `${query[k]},${v}` : v;
    const now = new Date();
    const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
    const event: APIGatewayProxyEventV2 & { requestContext: { authorizer?: unknown } } = {
      version: '2.0',
      routeKey: `${def.method} /api${def.path}`,
      rawPath: url.pathname,
      rawQueryString: url.search.replace(/^\?/, ''),
      cookies: headers.cookie ? headers.cookie.split(/;\s*/) : undefined,
      headers,
      queryStringParameters: Object.keys(query).length ? query : undefined,
      pathParameters: Object.keys(match.params).length ? match.params : undefined,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        domainName: headers.host ?? 'localhost',
        domainPrefix: 'local',
        http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp, userAgent: headers['user-agent'] ?? '' },
        requestId: randomUUID(),
        routeKey: `${def.method} /api${def.path}`,
        stage: '$default',
        time: now.toISOString(),
        timeEpoch: now.getTime(),
        ...(claims ? { authorizer: { jwt: { claims, scopes: null } } } : {}),
      },
      body: raw.length ? (isText ? raw.toString('utf8') : raw.toString('base64')) : undefined,
      isBase64Encoded: raw.length > 0 && !isText,
    };
    let result: APIGatewayProxyStructuredResultV2;
    try {
      const fn = await loadHandler(def.handler);
      result = (await fn(event, lambdaContext(def.id))) as APIGatewayProxyStructuredResultV2;
    } catch (err) {
      // As on AWS, a crashed function is a bare 500 with no internals.
      log(`${def.id} crashed: ${(err as Error).stack ?? err}`);
      return send(res, 500, { ...jsonHeaders, ...corsHeaders }, JSON.stringify({ message: 'Internal Server Error' }));
    }
    const outHeaders: Record<string, string> = { ...corsHeaders };
    for (const [k, v] of Object.entries(result.headers ?? {})) outHeaders[k] = String(v);
    const body = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
    send(res, result.statusCode ?? 200, outHeaders, body);
    log(`${method} ${url.pathname} -> ${result.statusCode}`);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const invoke = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(url.pathname);
    const work = invoke
      ? handleLambdaInvoke(req, res, decodeURIComponent(invoke[1]!))
      : url.pathname.startsWith('/api/') || url.pathname === '/api'
        ? handleApi(req, res, url)
        : Promise.resolve(send(res, 404, jsonHeaders, JSON.stringify({ error: 'NOT_FOUND', message: 'Risorsa non trovata' })));
    work.catch((err) => {
      log(`gateway error: ${(err as Error).stack ?? err}`);
      if (!res.headersSent) send(res, 500, jsonHeaders, JSON.stringify({ message: 'Internal Server Error' }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${opts.port}`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
