/**
 * Fuzzing every route of the manifest through the local gateway (fast-check, fixed seed):
 * 300 generated inputs per route across its body, query string and path parameters (whatever
 * the route reads), made from arbitrary JSON, wrong types, huge strings, unicode, lone
 * surrogates, prototype-pollution keys, numbers at the edges, deep nesting, invalid JSON,
 * and the route's own valid input with fields replaced, dropped or added. Each route is
 * called as the caller who gets furthest (an admin, or the owner for an ownership check, or
 * the approved agent), so what is tested is the validation and the use case behind it:
 *
 * - never a 5xx;
 * - every error answer is an Italian message without internals (no stack, no "Error:", no zod
 *   default in English, no AWS exception name);
 * - a rejected request writes nothing: the items the route may change, the table's item count
 *   and (routes that may write files) the files of the touched properties are the same after
 *   a batch of rejected requests (a batch with an accepted one is checked again request by
 *   request). Per-IP rate-limit counters count attempts on purpose: their windows exist
 *   before the route is fuzzed, so they never show as new items.
 *
 * Requests go 16 at a time. Per-route figures are printed, with a few accepted inputs.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../functions/lib/logger';
import { enforceRateLimit } from '../../functions/model/rate-limit';
import { RATE_LIMITS, type RateLimitScope } from '../../functions/domain/property/limits';
import { routes, type RouteDef } from '../../functions/routes';
import { edge, httpRequest, stack, useOwnStack } from '../support/helpers';
import {
  buildWorld,
  errorAnswerProblems,
  isObject,
  mediaObjectCount,
  pathOf,
  queryString,
  RULES,
  snapshot as takeSnapshot,
  writesMedia,
  type RouteRule,
  type Snapshot,
  type World,
} from '../support/security';

const FUZZ_SEED = 20_261_123;
const RUNS_PER_ROUTE = 300;
const CONCURRENCY = 16;
const manifest = routes as readonly RouteDef[];

// ---- generators ---------------------------------------------------------------------------

const EDGE_NUMBERS = [
  0, -0, 1, -1, 0.5, -0.5, 1.5, 99.999, 100, 100.000001, 101, 1e21, 1e308, -1e308, 5e-324, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2,
  -(2 ** 53) - 2, 2 ** 64, 20 * 1024 * 1024, 20 * 1024 * 1024 + 1, 50 * 1024 * 1024 + 1, 1900, 2200, -50, -50.0001,
];
const SPECIAL_STRINGS = [
  '', ' ', '   ', '\t\n', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', 'null', 'undefined', 'NaN', 'Infinity',
  '-1', '0', '1e309', '0x10', 'true', '[]', '{}', '../../etc/passwd', '..%2F..%2Fetc', '%00', '%', '%zz', '\u0000', 'a\u0000b', '<script>alert(1)</script>',
  '<svg onload=alert(1)>', "' OR '1'='1", '"; DROP TABLE x; --', '${7*7}', '{{7*7}}', '${jndi:ldap://x/a}', '\u202egnp.exe', 'ﷺ', '𝕏😀👩‍👩‍👧',
  'e\u0301', 'İ', 'ß', '\uFEFF', '\uD800', '\uDFFF', 'a\uD800b', 'PROPERTY#x', 'USER#x', 'OPTION', '#', '/', 'a/b', 'admin', 'elimina', 'ELIMINA',
  '2024-02-30', '9999-12-31', '0000-00-00', '1970-01-01', '24:00', '23:59', '09:00', '09:30', 'image/svg+xml', 'text/html', 'application/x-msdownload',
  'image/jpeg', 'x'.repeat(101), 'x'.repeat(256), 'x'.repeat(1025), 'RSSMRA85T10A562S', 'mi', 'MI', 'Milano', 'pending', 'approve', 'user',
  'carta_identita', 'face', 'catasto', 'a@b', 'a@b.it', ' A@B.IT ', '2024-S1', '2024-s3', 'OTTIMO', 'R', '1,5', '1.000.000', '320.000',
];
const PROTO_JSON = [
  '{"__proto__":{"isAdmin":true,"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":null}',
  '{"prototype":{"polluted":"yes"}}',
  '{"toString":"x","valueOf":1,"hasOwnProperty":false}',
];
const RAW_BODIES = [
  '',
  'null',
  'true',
  '0',
  '"testo"',
  '[]',
  '{',
  '{"a":',
  'non è json',
  '\uFEFF{}',
  '{"a":1,"a":2}',
  '1e999',
  '-1e999',
  '1'.padEnd(400, '0'),
  '{"__proto__":{"polluted":"yes"}}',
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
  '\u0000',
  '<xml/>',
  'a=1&b=2',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
];

/** A JS value nested `depth` levels (arrays and objects alternating). */
function nested(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** An object with an own `__proto__` / `constructor` key (as JSON.parse makes it), not a prototype change. */
function withOwnKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return target;
}

const hugeString = fc
  .tuple(fc.constantFrom(10_000, 70_000, 300_000, 1_500_000), fc.constantFrom('a', 'è', '😀', '<', ' '))
  .map(([n, c]) => c.repeat(Math.floor(n / c.length)));

/** A hostile value for a field: wrong types, edge numbers, odd strings, huge, nested, pollution. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...EDGE_NUMBERS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: fc.constantFrom(...PROTO_JSON).map((j) => JSON.parse(j) as unknown) },
  { weight: 2, arbitrary: fc.constantFrom(true, false, null, [], {}, [null], ['']) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...SPECIAL_STRINGS), { maxLength: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 400 }).map((d) => nested(d, 'x')) },
);

/**
 * A hostile string for a query value or a path parameter (URLs stay under API Gateway's size
 * limits). Only its first 2,001 characters are made well-formed: urlSized keeps at most 2,000,
 * and whether a character is a lone surrogate depends on its neighbours alone (the same text as
 * from the whole string, without scanning strings of up to 1.5 million characters).
 */
const hostileText: fc.Arbitrary<string> = hostile.map((v) => urlSized(wellFormed((typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v))).slice(0, 2001))));

/** At most 2,000 characters once URL-encoded: longer request lines are refused by the HTTP server itself (431), as API Gateway refuses them, before any handler. */
function urlSized(text: string): string {
  let out = text.slice(0, 2000);
  while (encodeURIComponent(out).length > 2000) out = wellFormed(out.slice(0, Math.floor(out.length / 2)));
  return out;
}

/** A URL carries UTF-8: a lone surrogate cannot be in one (encodeURIComponent throws), it becomes U+FFFD as a browser makes it. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

type Path = (string | number)[];

function leafPaths(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value) && value.length) return value.flatMap((v, i) => leafPaths(v, [...prefix, i]));
  if (isObject(value) && Object.keys(value).length) return Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
  return prefix.length ? [prefix] : [];
}

function objectPaths(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...prefix, i]));
  if (isObject(value)) return [prefix, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...prefix, k]))];
  return [];
}

function at(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], root);
}

/** The sample with one leaf replaced, dropped, or an extra own key (__proto__, constructor, ...) added somewhere. */
function mutateOne(sample: unknown): fc.Arbitrary<unknown> {
  const leaves = leafPaths(sample);
  const holders = objectPaths(sample);
  const replace = fc.tuple(fc.constantFrom(...leaves), hostile).map(([path, v]) => {
    const copy = structuredClone(sample);
    const parent = at(copy, path.slice(0, -1)) as Record<string | number, unknown>;
    parent[path[path.length - 1]!] = v;
    return copy;
  });
  const drop = fc.constantFrom(...leaves).map((path) => {
    const copy = structuredClone(sample);
    const parent = at(copy, path.slice(0, -1)) as Record<string | number, unknown>;
    if (Array.isArray(parent)) parent.splice(Number(path[path.length - 1]), 1);
    else delete parent[path[path.length - 1]!];
    return copy;
  });
  const extra = fc
    .tuple(fc.constantFrom(...holders), fc.constantFrom('__proto__', 'constructor', 'prototype', 'isAdmin', 'userId', 'groups', 'role', 'pk', 'status'), hostile)
    .map(([path, key, v]) => {
      const copy = structuredClone(sample);
      const target = at(copy, path);
      if (isObject(target)) withOwnKey(target, key, v);
      return copy;
    });
  if (!leaves.length) return extra;
  return fc.oneof({ weight: 6, arbitrary: replace }, { weight: 2, arbitrary: drop }, { weight: 2, arbitrary: extra });
}

/** Every top-level field of the sample kept, replaced or dropped, plus extra keys. */
function reshuffle(sample: Record<string, unknown>): fc.Arbitrary<unknown> {
  const fields = Object.entries(sample).map(([k, v]) => fc.oneof(fc.constant<[string, unknown]>([k, v]), hostile.map((h): [string, unknown] => [k, h]), fc.constant<[string, unknown]>([k, undefined])));
  const extras = fc.array(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'a', 'ü', '', ' '), hostile), { maxLength: 3 });
  return fc.tuple(fc.tuple(...fields), extras).map(([kept, more]) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of kept) if (v !== undefined) out[k] = v;
    for (const [k, v] of more) withOwnKey(out, k, v);
    return out;
  });
}

/** A request body as text (undefined: no body). */
function bodyArb(sample: unknown): fc.Arbitrary<string | undefined> {
  const asJson = (v: unknown) => JSON.stringify(v);
  const arms: fc.WeightedArbitrary<string | undefined>[] = [
    { weight: 2, arbitrary: fc.oneof(fc.constantFrom(...RAW_BODIES), fc.string({ unit: 'binary', maxLength: 80 })) },
    { weight: 2, arbitrary: fc.oneof(fc.jsonValue({ maxDepth: 4 }), hostile).map(asJson) },
  ];
  if (sample !== undefined) arms.push({ weight: 5, arbitrary: mutateOne(sample).map(asJson) });
  if (isObject(sample)) arms.push({ weight: 3, arbitrary: reshuffle(sample).map(asJson) });
  return fc.oneof(...arms);
}

const RAW_QUERIES = ['?', '?&&&', '?=', '?=&=', '?%', '?%zz=1', '?a=%E0%A4', '?a=%ED%A0%80', '?a=%00', '?__proto__[polluted]=1', '?constructor.prototype.polluted=1', '?a[]=1&a[]=2', `?q=${'%F0%9F%98%80'.repeat(150)}`, '?page=1e309&limit=-0'];

/** A query string: the sample's keys with hostile values, repeated or dropped, extra keys, or a raw one. */
function queryArb(sample: Record<string, string>): fc.Arbitrary<string> {
  const keysOf = Object.keys(sample);
  const pair = fc.tuple(fc.constantFrom(...keysOf, '__proto__', 'constructor', 'toString', 'x'), hostileText);
  const keyed = fc.tuple(fc.array(pair, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([pairs, keepRest]) => {
    const parts = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
    if (keepRest) for (const [k, v] of Object.entries(sample)) if (!pairs.some(([p]) => p === k)) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
    return `?${parts.join('&')}`;
  });
  return fc.oneof({ weight: 4, arbitrary: keyed }, { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) });
}

/** Path parameters: at least one replaced by a hostile text, the others kept valid. */
function paramsArb(sample: Record<string, string>): fc.Arbitrary<Record<string, string>> {
  const names = Object.keys(sample);
  return fc.tuple(fc.subarray(names, { minLength: 1 }), fc.array(hostileText, { minLength: names.length, maxLength: names.length })).map(([chosen, values]) =>
    Object.fromEntries(names.map((n, i) => [n, chosen.includes(n) ? values[i]! : sample[n]!])),
  );
}

// ---- the run ------------------------------------------------------------------------------

interface Case {
  input: 'body' | 'query' | 'params';
  path: string;
  body: string | undefined;
}

/** A stable number per route for its seed. */
function hash(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

function cases(route: RouteDef, rule: RouteRule, w: World): Case[] {
  const params = rule.params?.(w) ?? {};
  const query = rule.query?.(w);
  const valid = rule.body?.(w);
  // the other inputs stay valid (route() validates body, then query, then parameters)
  const safeBody = valid !== undefined && rule.unsafe?.(valid) ? rule.probe?.(w) : valid;
  const bodyText = route.method === 'GET' ? undefined : JSON.stringify(safeBody ?? {});
  const inputs: Case['input'][] = [];
  if (Object.keys(params).length) inputs.push('params');
  if (query) inputs.push('query');
  if (route.method !== 'GET' && (rule.body || rule.rawBody)) inputs.push('body');
  if (!inputs.length) inputs.push('query');
  const runs = Math.ceil(RUNS_PER_ROUTE / inputs.length);
  const seed = (FUZZ_SEED ^ hash(route.id)) >>> 0;
  const out: Case[] = [];
  for (const [n, input] of inputs.entries()) {
    const opts = { seed: seed + n, numRuns: runs };
    if (input === 'params') {
      for (const p of fc.sample(paramsArb(params), opts)) out.push({ input, path: pathOf(route, p) + queryString(query), body: bodyText });
    } else if (input === 'query') {
      for (const q of fc.sample(queryArb(query ?? {}), opts)) out.push({ input, path: pathOf(route, params) + q, body: bodyText });
    } else {
      const bodies = fc.sample(bodyArb(valid), { ...opts, numRuns: runs * 2 }).filter((b) => !rule.unsafe?.(parseOrUndefined(b)));
      for (const b of bodies.slice(0, runs)) out.push({ input, path: pathOf(route, params) + queryString(query), body: b });
    }
  }
  return out;
}

function parseOrUndefined(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

interface Answer {
  status: number;
  body: unknown;
  text: string;
}

async function send(route: RouteDef, c: Case, token: string | undefined, viewerIp: string): Promise<Answer> {
  const { status, text } = await httpRequest(`${stack().urls.api}/api${c.path}`, {
    method: route.method,
    headers: {
      ...edge(viewerIp),
      ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: c.body,
  });
  return { status, body: parseOrUndefined(text) ?? text, text };
}

/** The caller who gets furthest: the holder of an ownership check, else an admin, a seller, an agent. */
function callerFor(rule: RouteRule, w: World): string | undefined {
  if (rule.owner) return rule.owner.holder === 'owner' ? w.owner.token : w.agent.token;
  if (rule.allowed.includes('admin')) return w.admin;
  if (rule.allowed.includes('seller')) return w.owner.token;
  if (rule.allowed.includes('agent')) return w.agent.token;
  return undefined;
}

interface RouteFigures {
  id: string;
  runs: Record<Case['input'], number>;
  statuses: Record<number, number>;
  accepted: number;
  rejectedChecked: number;
  ms: number;
  /** of which: generating the inputs, taking snapshots */
  genMs: number;
  snapMs: number;
  /** a few accepted inputs, for the reader */
  acceptedSamples: string[];
}
const figures: RouteFigures[] = [];
const messages = new Set<string>();

let w: World;
let ipCounter = 0;

let stopOwnStack: (() => Promise<void>) | undefined;

// the gateway runs the handlers in this process and logging is silent in tests: a 5xx is
// reported with the errors the error mapper logged meanwhile, so a failure names its cause
const unhandled: string[] = [];
vi.spyOn(logger, 'error').mockImplementation(((message: string, ...extra: unknown[]) => {
  const err = extra.map((e) => (isObject(e) && e.error instanceof Error ? e.error : undefined)).find(Boolean);
  if (unhandled.length >= 20) unhandled.shift();
  unhandled.push(`${message}: ${err ? `${err.name}: ${err.message} ${err.stack?.split('\n').slice(1, 4).join(' ') ?? ''}` : JSON.stringify(extra).slice(0, 300)}`);
}) as never);

beforeAll(async () => {
  // its own table: every item is counted
  stopOwnStack = await useOwnStack();
  const started = Date.now();
  w = await buildWorld();
  console.log(`security fuzz: world built in ${Date.now() - started} ms`);
  console.log(`security fuzz: seed ${FUZZ_SEED}, ${RUNS_PER_ROUTE} inputs per route, ${CONCURRENCY} at a time`);
}, 180_000);

afterAll(async () => {
  await stopOwnStack?.();
}, 60_000);

afterAll(() => {
  if (!figures.length) return;
  const total = figures.reduce((n, f) => n + f.runs.body + f.runs.query + f.runs.params, 0);
  const lines = figures.map((f) => {
    const st = Object.entries(f.statuses).map(([s, n]) => `${s}:${n}`).join(' ');
    const samples = f.acceptedSamples.length ? `\n    accepted e.g. ${f.acceptedSamples.join('\n                  ')}` : '';
    return `${f.id.padEnd(28)} body ${String(f.runs.body).padStart(3)} query ${String(f.runs.query).padStart(3)} params ${String(f.runs.params).padStart(3)} | ${st} | accepted ${f.accepted}, rejected checked for writes ${f.rejectedChecked} | ${f.ms} ms (inputs ${f.genMs}, snapshots ${f.snapMs})${samples}`;
  });
  console.log(`security fuzz, seed ${FUZZ_SEED}: ${figures.length} routes, ${total} requests, ${messages.size} distinct error messages\n${lines.join('\n')}`);
});

describe(`fuzzing every route (seed ${FUZZ_SEED})`, () => {
  for (const route of manifest) {
    it(`${route.method} ${route.path} (${route.id})`, async () => {
      const rule = RULES[route.id];
      expect(rule, `no rule for ${route.id} in test/support/security.ts`).toBeDefined();
      await fuzz(route, rule!);
    }, 120_000);
  }
});

async function fuzz(route: RouteDef, rule: RouteRule) {
  const started = Date.now();
  unhandled.length = 0;
  const token = callerFor(rule, w);
  ipCounter += 1;
  const viewerIp = `198.51.${100 + Math.floor(ipCounter / 250)}.${1 + (ipCounter % 250)}`;
  // the rate-limit windows of this client exist already (now and the next): a counted attempt is an update, never a new item
  for (const scope of Object.keys(RATE_LIMITS) as RateLimitScope[]) {
    const now = Date.now();
    await enforceRateLimit(scope, viewerIp, now);
    await enforceRateLimit(scope, viewerIp, now + RATE_LIMITS[scope].windowSeconds * 1000);
  }
  const genStarted = Date.now();
  const all = cases(route, rule, w);
  const genMs = Date.now() - genStarted;
  const touches = rule.touches(w);
  const media = writesMedia(route);
  const problems: string[] = [];
  const fig: RouteFigures = { id: route.id, runs: { body: 0, query: 0, params: 0 }, statuses: {}, accepted: 0, rejectedChecked: 0, ms: 0, genMs: 0, snapMs: 0, acceptedSamples: [] };
  for (const c of all) fig.runs[c.input] += 1;
  fig.genMs = genMs;
  const snapshot = async (t: string[], m: boolean) => {
    const t0 = Date.now();
    const snap = await takeSnapshot(t, m);
    fig.snapMs += Date.now() - t0;
    return snap;
  };
  const bucketBefore = media ? await mediaObjectCount() : 0;

  const judge = (c: Case, res: Answer) => {
    fig.statuses[res.status] = (fig.statuses[res.status] ?? 0) + 1;
    const shown = `${c.input} ${route.method} ${c.path.slice(0, 200)} ${c.body?.slice(0, 200) ?? ''} -> ${res.status} ${res.text.slice(0, 300)}`;
    if (res.status < 300 && fig.acceptedSamples.length < 2 && (c.input !== 'query' || rule.query)) fig.acceptedSamples.push(`${c.input} ${c.path.slice(0, 100)} ${c.body?.slice(0, 100) ?? ''}`);
    if (res.status >= 500) problems.push(`5xx: ${shown} | logged: ${unhandled.splice(0).join(' || ').slice(0, 1500) || 'nothing'}`);
    else if (res.status >= 400) {
      for (const p of errorAnswerProblems(res.body)) problems.push(`${p}: ${shown}`);
      if (isObject(res.body) && typeof res.body.message === 'string') messages.add(res.body.message);
    }
  };
  const changed = (a: Snapshot, b: Snapshot) => JSON.stringify(a) !== JSON.stringify(b);

  let baseline = await snapshot(touches, media);
  for (let i = 0; i < all.length; i += CONCURRENCY) {
    const chunk = all.slice(i, i + CONCURRENCY);
    const answers = await Promise.all(chunk.map((c) => send(route, c, token, viewerIp)));
    chunk.forEach((c, j) => judge(c, answers[j]!));
    const after = await snapshot(touches, media);
    const accepted = answers.filter((a) => a.status < 300).length;
    fig.accepted += accepted;
    if (!accepted) {
      fig.rejectedChecked += chunk.length;
      if (changed(baseline, after)) problems.push(`a batch of rejected requests wrote: ${diff(baseline, after)}; first: ${chunk[0]!.path.slice(0, 150)} ${chunk[0]!.body?.slice(0, 150) ?? ''}`);
      baseline = after;
      continue;
    }
    const rejected = chunk.filter((_c, j) => answers[j]!.status >= 300);
    await undo(rule, answers);
    if (!rejected.length) {
      baseline = rule.undo ? await snapshot(touches, media) : after;
      continue;
    }
    // an accepted request may write: the rejected ones of the batch are sent again together,
    // and one by one if one of them is now accepted (the state they met has changed)
    baseline = rule.undo ? await snapshot(touches, media) : after;
    const again = await Promise.all(rejected.map((c) => send(route, c, token, viewerIp)));
    const afterAgain = await snapshot(touches, media);
    if (again.every((a) => a.status >= 300)) {
      fig.rejectedChecked += rejected.length;
      if (changed(baseline, afterAgain)) problems.push(`a batch of rejected requests wrote: ${diff(baseline, afterAgain)}; first: ${rejected[0]!.path.slice(0, 150)} ${rejected[0]!.body?.slice(0, 150) ?? ''}`);
      baseline = afterAgain;
      continue;
    }
    await undo(rule, again);
    baseline = await snapshot(touches, media);
    for (const c of rejected) {
      const res = await send(route, c, token, viewerIp);
      const now = await snapshot(touches, media);
      if (res.status >= 300) {
        fig.rejectedChecked += 1;
        if (changed(baseline, now)) problems.push(`a rejected request wrote: ${diff(baseline, now)}; ${c.input} ${c.path.slice(0, 150)} ${c.body?.slice(0, 200) ?? ''} -> ${res.status}`);
      } else await undo(rule, [res]);
      baseline = await snapshot(touches, media);
    }
  }
  if (media && fig.accepted === 0) {
    const bucketAfter = await mediaObjectCount();
    if (bucketAfter !== bucketBefore) problems.push(`the media bucket changed: ${bucketBefore} -> ${bucketAfter} objects`);
  }
  fig.ms = Date.now() - started;
  figures.push(fig);
  expect(all.length).toBeGreaterThanOrEqual(RUNS_PER_ROUTE);
  expect(problems.slice(0, 15), `${problems.length} problems`).toEqual([]);
}

/** Takes back what accepted requests made when the rule says how (a source list that grows slows every later call). */
async function undo(rule: RouteRule, answers: Answer[]): Promise<void> {
  if (!rule.undo) return;
  for (const a of answers) {
    if (a.status >= 300) continue;
    const call = rule.undo(a.body);
    if (!call) continue;
    const res = await httpRequest(`${stack().urls.api}/api${call.path}`, { method: call.method, headers: { ...edge(), authorization: `Bearer ${w.admin}` } });
    expect(res.status, `undo ${call.method} ${call.path}`).toBeLessThan(300);
  }
}

function diff(a: Snapshot, b: Snapshot): string {
  if (a.itemCount !== b.itemCount) return `table items ${a.itemCount} -> ${b.itemCount}`;
  if (JSON.stringify(a.media) !== JSON.stringify(b.media)) return `files ${JSON.stringify(a.media)} -> ${JSON.stringify(b.media)}`;
  for (const k of Object.keys(a.items)) {
    if (JSON.stringify(a.items[k]) !== JSON.stringify(b.items[k])) return `items of ${k} changed: ${JSON.stringify(b.items[k]).slice(0, 300)}`;
  }
  return 'unknown';
}
