/**
 * Shared by the reliability benchmarks (bench/load.ts, bench/faults.ts): the local edge in
 * front of the API, HTTP calls from a chosen client address, sign-in, percentiles, the
 * machine's description and the results file.
 *
 * Calls go through the local stand-in of CloudFront (infra/local/web-server.ts), as the
 * browser's do on AWS: the edge is what tells the API the viewer's address. Each simulated
 * visitor connects from its own loopback address (Linux routes all of 127/8 to lo), so the
 * per-IP limits see 200 visitors, not one.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { freePort } from '../infra/local/emulators';
import { LOCAL_REGION } from '../infra/local/setup';
import { startStaticWeb } from '../infra/local/web-server';
import type { LocalStack } from '../infra/local/stack';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Quiet output: the SDK's notices and the handlers' info logs say nothing about the figures.
 * The handlers' logger reads LOG_LEVEL when it loads: a script that imports handlers imports
 * ./quiet first instead.
 */
export function quiet(): void {
  process.removeAllListeners('warning');
  process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
  process.env.LOG_LEVEL ??= 'ERROR';
}

export const r1 = (n: number) => Math.round(n * 10) / 10;

/** Nearest-rank percentile. */
export function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export interface Latency {
  calls: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function latency(ms: number[]): Latency {
  if (!ms.length) return { calls: 0, p50Ms: 0, p95Ms: 0, p99Ms: 0, maxMs: 0 };
  return { calls: ms.length, p50Ms: r1(pct(ms, 50)), p95Ms: r1(pct(ms, 95)), p99Ms: r1(pct(ms, 99)), maxMs: r1(Math.max(...ms)) };
}

export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 1e9),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAvgAtStart: os.loadavg().map(r1),
    cpuProbeMs: cpuProbeMs(),
  };
}

/**
 * The machine's CPU time so far, over all cores (os.cpus(): user, nice, system and irq as busy,
 * idle apart), in seconds. Two readings give what every process used in between: on a machine
 * running nothing else, the work of what ran.
 */
export function machineCpuS(): { busy: number; idle: number } {
  let busy = 0;
  let idle = 0;
  for (const { times } of os.cpus()) {
    busy += times.user + times.nice + times.sys + times.irq;
    idle += times.idle;
  }
  return { busy: busy / 1000, idle: idle / 1000 };
}

/**
 * How fast one core of the machine runs JavaScript right now: a fixed workload (200,000
 * JSON.stringify of a small object), the median of five, in ms. Machines of one kind are not
 * equally fast from hour to hour (the security fuzz file alone took 74 s, then 86-92 s two hours
 * later on the same code): figures of two runs compare where their probes agree.
 */
export function cpuProbeMs(): number {
  const times: number[] = [];
  const sample = { id: 'PROPERTY#01J', rooms: [1, 2, 3], city: 'Milano', value: 320_000.5 };
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    let length = 0;
    for (let i = 0; i < 200_000; i++) length += JSON.stringify(sample).length;
    if (length === 0) throw new Error('unreachable');
    times.push(performance.now() - started);
  }
  return Math.round(times.sort((a, b) => a - b)[2]!);
}

/** The n-th simulated visitor's address: 127.77.x.y, never .0 or .255. */
export function visitorIp(n: number): string {
  return `127.77.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;
}

/** The local edge (the CloudFront stand-in of the e2e tests) in front of the stack's API. */
export async function startEdge(stack: LocalStack): Promise<{ url: string; stop: () => Promise<void> }> {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'bench-edge-'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>bench</title>');
  const web = await startStaticWeb({
    port: await freePort(),
    distDir: dist,
    apiUrl: stack.urls.api,
    config: stack.runtimeConfig,
    originSecret: stack.env.ORIGIN_SECRET,
    storageUrl: stack.urls.s3,
  });
  return {
    url: web.url,
    stop: async () => {
      await web.stop();
      await rm(dist, { recursive: true, force: true });
    },
  };
}

export interface CallResult<T> {
  status: number;
  body: T;
  ms: number;
  /** set when the connection failed (no HTTP status) */
  error?: string;
}

/**
 * One HTTP call. `ip` is the client's own address (the socket's local address); `agent` a
 * keep-alive agent for the load loops (each call on its own connection without it).
 */
export function call<T = unknown>(
  base: string,
  method: string,
  route: string,
  opts: { ip?: string; token?: string; body?: unknown; agent?: http.Agent } = {},
): Promise<CallResult<T>> {
  const url = new URL(route, base);
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent: opts.agent,
        ...(opts.ip ? { localAddress: opts.ip } : {}),
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: body as T, ms: performance.now() - started });
        });
        res.on('error', (err) => resolve({ status: 0, body: undefined as T, ms: performance.now() - started, error: err.message }));
      },
    );
    req.on('error', (err) => resolve({ status: 0, body: undefined as T, ms: performance.now() - started, error: err.message }));
    if (payload) req.write(payload);
    req.end();
  });
}

/** POSTs a file to a presigned POST form, as the browser does (multipart, file last). */
export async function postForm(form: { url: string; fields: Record<string, string> }, bytes: Buffer, fileName: string): Promise<{ status: number; ms: number; text: string }> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(form.fields)) fd.append(k, v);
  fd.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  const started = performance.now();
  try {
    const res = await fetch(form.url, { method: 'POST', body: fd });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, text };
  } catch (err) {
    return { status: 0, ms: performance.now() - started, text: (err as Error).message };
  }
}

/** An ID token from the Cognito emulator (USER_PASSWORD_AUTH, as the SPA signs in locally). */
export async function signIn(stack: LocalStack, email: string, password: string): Promise<string> {
  const cognito = new CognitoIdentityProviderClient({ endpoint: stack.urls.cognito, region: LOCAL_REGION, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  try {
    const res = await cognito.send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack.pool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
    );
    return res.AuthenticationResult!.IdToken!;
  } finally {
    cognito.destroy();
  }
}

export function demoAccount(stack: LocalStack, role: 'admin' | 'agent' | 'seller') {
  const a = stack.accounts.find((x) => x.role === role);
  if (!a) throw new Error(`no demo ${role}`);
  return a;
}

/** Sent mail as the SES emulator holds it (GET /store). */
export async function sentMail(sesUrl: string): Promise<{ subject: string; destination: { to: string[] }; body: { html?: string; text?: string } }[]> {
  const res = await fetch(`${sesUrl}/store`);
  return ((await res.json()) as { emails: never[] }).emails;
}

export async function writeResults(name: string, results: unknown): Promise<string> {
  const dir = path.join(ROOT, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  return path.relative(ROOT, file);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds a process used so far (utime + stime from /proc, 100 ticks a second); NaN elsewhere. */
function processCpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * Where a phase's time went: CPU seconds of this process (the stack: gateway, handlers,
 * S3, SES, Cognito) and of DynamoDB Local (java), and this process's event-loop delay.
 */
export function cpuMeter(javaPid: number | undefined) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const c0 = process.cpuUsage();
  const j0 = processCpuSeconds(javaPid);
  const t0 = performance.now();
  return () => {
    loop.disable();
    const c = process.cpuUsage(c0);
    return {
      wallSeconds: r1((performance.now() - t0) / 1000),
      stackNodeCpuSeconds: r1((c.user + c.system) / 1e6),
      dynamodbJavaCpuSeconds: r1(processCpuSeconds(javaPid) - j0),
      stackEventLoopDelayP99Ms: r1(loop.percentile(99) / 1e6),
      stackEventLoopDelayMaxMs: r1(loop.max / 1e6),
      loadAvg1m: r1(os.loadavg()[0]!),
    };
  };
}

/** Runs bench/load-client.ts (or another script) with one JSON job; resolves with its last stdout line, parsed. */
export function runChild<T>(script: string, job: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', script), JSON.stringify(job)], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'ERROR' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(text.trim().split('\n').pop() ?? '') as T);
      } catch {
        reject(new Error(`${script} failed (exit ${code}): ${text.slice(-2000)}`));
      }
    });
  });
}
