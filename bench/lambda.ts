/**
 * `npm run bench:lambda`: what each Lambda costs to ship and to start. Bundles every function
 * of the manifest (routes and triggers) with esbuild exactly as the CDK stack does
 * (infra/lambda-bundle: ESM, node22, minified, AWS SDK bundled, the same module substitutions,
 * Powertools and pkijs from the layer the stack builds), then,
 * for each bundle, imports it in a fresh Node process and times the import (the cold init
 * the runtime pays before the first event; no network is touched at import time).
 * Bars (issue "production readiness"): bundle <= 1 MB, init <= 300 ms.
 * Not a test: it prints the figures and writes bench/results/lambda.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { routes, triggers } from '../functions/routes';
import { lambdaBuildOptions } from '../infra/lambda-bundle';
import { buildModulesLayer } from '../infra/lambda-bundle/modules-layer';
import { ROOT, writeResults } from './support';

const MAX_BYTES = 1024 * 1024;
const MAX_INIT_MS = 300;
const RUNS = Number(process.env.BENCH_INIT_RUNS ?? 3);

const defs = [...routes, ...triggers].map((d) => ({ id: d.id, handler: d.handler }));
const only = process.argv.slice(2);
const selected = only.length ? defs.filter((d) => only.includes(d.id)) : defs;
// what the bundles leave out (Powertools, pkijs) comes from the layer as on AWS: built into the
// folder above them (infra/lambda-bundle/modules-layer.ts), so the init time includes it
const out = mkdtempSync(path.join(os.tmpdir(), 'bench-lambda-'));
buildModulesLayer(out);

interface Row {
  id: string;
  handler: string;
  bytes: number;
  initMsMedian: number;
  initMsMax: number;
}
const rows: Row[] = [];

/** median and max of the import time, each in a fresh process (what a cold start pays) */
function initTimes(file: string): number[] {
  const script = `const t=performance.now();await import(${JSON.stringify('file://' + file)});process.stdout.write(String(performance.now()-t));`;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const ms = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      // as on Lambda, where the tracer (and its X-Ray SDK) is loaded at init: lib/observability.ts
      env: { PATH: process.env.PATH ?? '', AWS_REGION: 'eu-south-1', NODE_OPTIONS: '', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', LAMBDA_TASK_ROOT: path.dirname(file) },
      encoding: 'utf8',
    });
    times.push(Number(ms));
  }
  return times.sort((a, b) => a - b);
}

try {
  for (const def of selected) {
    const outfile = path.join(out, def.id, 'index.mjs');
    await build({
      entryPoints: [path.join(ROOT, 'functions', `${def.handler}.ts`)],
      outfile,
      ...lambdaBuildOptions(),
      logLevel: 'error',
    });
    const bytes = statSync(outfile).size;
    const times = initTimes(outfile);
    rows.push({ id: def.id, handler: def.handler, bytes, initMsMedian: Math.round(times[Math.floor(times.length / 2)]!), initMsMax: Math.round(times.at(-1)!) });
    process.stdout.write('.');
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
process.stdout.write('\n');

const kb = (b: number) => (b / 1024).toFixed(0).padStart(6);
rows.sort((a, b) => b.bytes - a.bytes);
console.log(`${'function'.padEnd(30)} ${'KB'.padStart(6)} ${'init p50'.padStart(9)} ${'init max'.padStart(9)}`);
for (const r of rows) {
  const flag = r.bytes > MAX_BYTES || r.initMsMax > MAX_INIT_MS ? '  <- over the bar' : '';
  console.log(`${r.id.padEnd(30)} ${kb(r.bytes)} ${String(r.initMsMedian).padStart(9)} ${String(r.initMsMax).padStart(9)}${flag}`);
}
const overSize = rows.filter((r) => r.bytes > MAX_BYTES).length;
const overInit = rows.filter((r) => r.initMsMax > MAX_INIT_MS).length;
const totalKb = rows.reduce((n, r) => n + r.bytes, 0) / 1024;
console.log(
  `\n${rows.length} functions; largest ${kb(rows[0]?.bytes ?? 0).trim()} KB, median ${kb(rows[Math.floor(rows.length / 2)]?.bytes ?? 0).trim()} KB, total ${totalKb.toFixed(0)} KB; ` +
    `over 1 MB: ${overSize}; init over ${MAX_INIT_MS} ms: ${overInit} (${RUNS} fresh processes each, ${os.cpus().length} cores)`,
);
await writeResults('lambda', { date: new Date().toISOString(), runs: RUNS, maxBytes: MAX_BYTES, maxInitMs: MAX_INIT_MS, rows });
