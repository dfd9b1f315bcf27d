/**
 * `npm run bench` (tsx bench/omi.ts): the OMI figures of issue 3 on the local emulators.
 * Not a test: it prints the figures and writes them to bench/results/omi.json.
 *
 * 1. generates a national-size VALORI file (and ZONE file) with the real quirks;
 * 2. raw BatchWriteItem throughput of the same DynamoDB Local for the same items (scratch
 *    tables with the same keys and GSIs, same concurrency as the import), before and after
 *    the import, compared with their mean;
 * 3. import 2025-S1 from drop to done: presigned POST to s3rver -> S3 event -> import
 *    Lambda (in this process, as the local runtime runs it) -> job completed;
 * 4. import 2024-S2 in a child process of its own (as a Lambda), for its peak RSS;
 * 5. re-import 2025-S1 (exact counts: 0 inserted) and the ZONE file;
 * 6. OMI data page API: 200 mixed filter queries over both semesters, p50/p95, every total
 *    checked against a count made here from the generated rows;
 * 7. valuation API: 200 properties, p50/p95.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { startLocalStack } from '../infra/local/stack';
import { ensureTable } from '../infra/local/setup';
import { ddb } from '../functions/lib/aws/ddb';
import { s3 } from '../functions/lib/aws/s3';
import { BatchWriter } from '../functions/lib/batch-writer';
import { quotationItem } from '../functions/omi/omi-store';
import { parseOmiFile } from '../functions/omi/parse-omi';
import { comuneSearchKey } from '../functions/domain/omi/names';
import { OMI_CATEGORIES } from '../functions/domain/omi/tipologia';
import { generateNational, rng, valoriFile, zoneFile, type GenRow } from './omi-generator';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONCURRENCY = 16;
const log = (...a: unknown[]) => console.log(...a);
process.removeAllListeners('warning');

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
const r1 = (n: number) => Math.round(n * 10) / 10;


async function main() {
  const results: Record<string, unknown> = {
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryGb: Math.round(os.totalmem() / 1e9),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      loadAvgAtStart: os.loadavg().map(r1),
    },
    at: new Date().toISOString(),
  };

  // 1. data
  let t = Date.now();
  const data = generateNational();
  const file2025 = valoriFile(data, '2025-S1');
  const file2024 = valoriFile(data, '2024-S2', 0.97);
  const zones = zoneFile(data, '2025-S1');
  const dataset = {
    rows: data.rows.length,
    comuni: data.comuni.length,
    zones: data.zones.length,
    provinces: new Set(data.rows.map((r) => r.prov)).size,
    rowsWithZeroPrices: data.rows.filter((r) => r.min === 0).length,
    rowsWithEmptyStato: data.rows.filter((r) => !r.stato).length,
    comuniWithBacktick: data.comuni.filter((c) => c.name.includes('`')).length,
    comuniWithLatin1Letters: data.comuni.filter((c) => /[À-ÿ]/.test(c.name)).length,
    valoriFileMb: r1(file2025.length / 1e6),
    zoneFileMb: r1(zones.length / 1e6),
    generateMs: Date.now() - t,
  };
  results.dataset = dataset;
  log('dataset', dataset);

  // 2. the local stack
  t = Date.now();
  const stack = await startLocalStack({ appOrigin: 'http://localhost:5173' });
  log(`stack up in ${Date.now() - t} ms`);
  const admin = stack.accounts.find((a) => a.role === 'admin')!;
  const cognito = new CognitoIdentityProviderClient({ endpoint: stack.urls.cognito, region: 'eu-south-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  const token = (
    await cognito.send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack.pool.userPoolClientId, AuthParameters: { USERNAME: admin.email, PASSWORD: admin.password } }),
    )
  ).AuthenticationResult!.IdToken!;
  const api = async <T>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T; ms: number }> => {
    const s = performance.now();
    const res = await fetch(`${stack.urls.api}/api${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, ms: performance.now() - s };
  };
  type Job = { status: string; rowsRead: number; inserted: number; updated: number; rejected: number; finishedAt: string; durationMs: number; error: string | null };
  /** Waits for the job to end. A failed attempt that Lambda retries (async invoke) is counted, not taken as the end. */
  const failedAttempts: { job: string; error: string | null }[] = [];
  const waitJob = async (id: string) => {
    for (;;) {
      const j = await api<Job>('GET', `/omi/imports/${id}`);
      if (j.body.status === 'completed') return j.body;
      if (j.body.status === 'failed') {
        failedAttempts.push({ job: id, error: j.body.error });
        log('import attempt failed, waiting for the retry:', j.body.error);
        let retried = false;
        for (let i = 0; i < 40 && !retried; i++) {
          await new Promise((r) => setTimeout(r, 250));
          retried = (await api<Job>('GET', `/omi/imports/${id}`)).body.status !== 'failed';
        }
        if (!retried) return j.body;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const dropFile = async (content: Buffer, fileName: string, semester: string) => {
    const up = await api<{ jobId: string; upload: { url: string; fields: Record<string, string> } }>('POST', '/omi/uploads', { fileName, semester });
    const form = new FormData();
    for (const [k, v] of Object.entries(up.body.upload.fields)) form.append(k, v);
    form.append('file', new Blob([content]), fileName);
    const t0 = Date.now();
    const res = await fetch(up.body.upload.url, { method: 'POST', body: form });
    await res.text();
    const uploadedMs = Date.now() - t0;
    const job = await waitJob(up.body.jobId);
    return { job, t0, uploadedMs, dropToDoneMs: Date.parse(job.finishedAt) - t0 };
  };

  try {
    // 3. raw BatchWriteItem of the same items into scratch tables with the same keys/GSIs,
    //    once before and once after the import (the machine's load moves; both are printed),
    //    after warming the emulator's JVM up with 10,000 other writes
    const parsed = await parseOmiFile(file2025);
    const items = parsed.valori.map(({ row }) => quotationItem(row, '2025-S1'));
    const rawRun = async (table: string, list: Record<string, unknown>[]) => {
      await ensureTable(stack.urls.dynamodb, table);
      const w = new BatchWriter(ddb(), table, { concurrency: CONCURRENCY });
      const s0 = performance.now();
      for (const item of list) await w.put(item);
      await w.flush();
      const ms = performance.now() - s0;
      return { items: list.length, ms: Math.round(ms), itemsPerSecond: Math.round(list.length / (ms / 1000)), retries: w.stats.retries, unprocessedItems: w.stats.unprocessedItems };
    };
    await rawRun('bench-warmup', items.slice(0, 10_000).map((i) => ({ ...i, pk: `W${i.pk as string}` })));
    const rawBefore = await rawRun('bench-raw-1', items);
    log('raw BatchWriteItem (before the import)', rawBefore);

    // 4. import 2025-S1 from drop to done, in this process (RSS sampled: the whole local stack)
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 25);
    const a = await dropFile(file2025, 'QI_9999999_1_20251_VALORI.csv', '2025-S1');
    clearInterval(sampler);
    const importRate = a.job.inserted / (a.dropToDoneMs / 1000);
    const rawAfter = await rawRun('bench-raw-2', items);
    log('raw BatchWriteItem (after the import)', rawAfter);
    const rawRate = (rawBefore.itemsPerSecond + rawAfter.itemsPerSecond) / 2;
    results.rawBatchWrite = { concurrency: CONCURRENCY, before: rawBefore, after: rawAfter, meanItemsPerSecond: Math.round(rawRate) };
    results.import2025 = {
      rowsRead: a.job.rowsRead, inserted: a.job.inserted, updated: a.job.updated, rejected: a.job.rejected, status: a.job.status,
      uploadMs: a.uploadedMs, dropToDoneMs: a.dropToDoneMs, jobDurationMs: a.job.durationMs, itemsPerSecond: Math.round(importRate),
      ratioToMeanRaw: Math.round((importRate / rawRate) * 100) / 100,
      ratioToBestRaw: Math.round((importRate / Math.max(rawBefore.itemsPerSecond, rawAfter.itemsPerSecond)) * 100) / 100,
      inProcessRssBeforeMb: Math.round(rssBefore / 1048576), inProcessRssPeakMb: Math.round(rssPeak / 1048576),
    };
    log('import 2025-S1 (drop to done)', results.import2025);

    items.length = 0;

    // 5. import 2024-S2 in a child process, as its own Lambda (peak RSS of the import alone)
    const key = 'bench/valori-20242.bin'; // not .csv: the S3 trigger ignores it, the child imports it
    await s3().send(new PutObjectCommand({ Bucket: stack.env.OMI_BUCKET!, Key: key, Body: file2024 }));
    const child = await new Promise<{ outcome: Record<string, number | string>; wallMs: number; maxRssMb: number }>((resolve, reject) => {
      const p = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'omi-import-child.ts'), stack.env.OMI_BUCKET!, key, 'bench-child-20242', '2024-S2', 'QI_9999999_1_20242_VALORI.csv'], {
        cwd: ROOT,
        env: { ...process.env, ...stack.env, LOG_LEVEL: 'WARN' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      p.stdout.on('data', (d: Buffer) => (out += d.toString()));
      p.on('exit', (code) => {
        const line = out.trim().split('\n').pop() ?? '';
        try {
          resolve(JSON.parse(line));
        } catch {
          reject(new Error(`child import failed (${code}): ${out}`));
        }
      });
    });
    results.import2024ChildProcess = { ...child.outcome, wallMs: child.wallMs, peakRssMb: child.maxRssMb, itemsPerSecond: Math.round(Number(child.outcome.inserted) / (child.wallMs / 1000)) };
    log('import 2024-S2 (own process)', results.import2024ChildProcess);

    // 6. re-import (exact counts: all updated) and the ZONE file
    const again = await dropFile(file2025, 'QI_9999999_1_20251_VALORI.csv', '2025-S1');
    results.reimport2025 = { status: again.job.status, error: again.job.error, rowsRead: again.job.rowsRead, inserted: again.job.inserted, updated: again.job.updated, dropToDoneMs: again.dropToDoneMs };
    log('re-import 2025-S1', results.reimport2025);
    const z = await dropFile(zones, 'QI_9999999_1_20251_ZONE.csv', '2025-S1');
    results.zoneImport = { status: z.job.status, rowsRead: z.job.rowsRead, inserted: z.job.inserted, dropToDoneMs: z.dropToDoneMs };
    log('ZONE import', results.zoneImport);

    // 7. OMI data page: 200 mixed queries, totals checked against our own count
    const rand = rng(7);
    const pick = <T>(l: readonly T[]) => l[Math.floor(rand() * l.length)]!;
    const keyOf = new Map(data.comuni.map((c) => [c.name, comuneSearchKey(c.name)]));
    const semesters = ['2025-S1', '2024-S2'];
    const TIPS = [20, 21, 19, 1, 5, 6, 9];
    const STATI = ['OTTIMO', 'NORMALE', 'SCADENTE'];
    const provs = [...new Set(data.rows.map((r) => r.prov))];
    type Q = { comune?: string; provincia?: string; tipologia?: number; stato?: string; semestre?: string; page: number };
    const queries: Q[] = [];
    for (let i = 0; i < 200; i++) {
      const q: Q = { page: 1 };
      if (rand() < 0.35) {
        const name = comuneSearchKey(pick(data.comuni).name);
        const len = 3 + Math.floor(rand() * 5);
        const start = Math.floor(rand() * Math.max(1, name.length - len));
        q.comune = rand() < 0.5 ? name.slice(start, start + len) : pick(data.comuni).name.toLowerCase();
      }
      if (rand() < 0.4) q.provincia = pick(provs);
      if (rand() < 0.35) q.tipologia = pick(TIPS);
      if (rand() < 0.3) q.stato = pick(STATI);
      if (rand() < 0.3) q.semestre = pick(semesters);
      if (rand() < 0.5) q.page = 1 + Math.floor(rand() * 20);
      queries.push(q);
    }
    const expected = (q: Q) => {
      const ck = q.comune ? comuneSearchKey(q.comune) : undefined;
      const n = data.rows.filter(
        (r: GenRow) =>
          (!q.provincia || r.prov === q.provincia) &&
          (!q.tipologia || r.codTip === q.tipologia) &&
          (!q.stato || r.stato === q.stato) &&
          (!ck || keyOf.get(r.comune)!.includes(ck)),
      ).length;
      return q.semestre ? n : n * semesters.length;
    };
    const qs = (q: Q) => new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const cold = await api<{ total: number }>('GET', `/omi/quotations?${qs({ page: 1 })}`);
    const listMs: number[] = [];
    let exact = 0;
    const mismatches: unknown[] = [];
    let nonEmptyPages = 0;
    for (const q of queries) {
      const res = await api<{ total: number; items: unknown[] }>('GET', `/omi/quotations?${qs(q)}`);
      if (res.status !== 200) throw new Error(`listing ${qs(q)} -> ${res.status} ${JSON.stringify(res.body)}`);
      listMs.push(res.ms);
      const want = expected(q);
      if (res.body.total === want && res.body.items.length === Math.max(0, Math.min(50, want - (q.page - 1) * 50))) exact++;
      else mismatches.push({ q, got: res.body.total, want, items: res.body.items.length });
      if (res.body.items.length) nonEmptyPages++;
    }
    results.listing = {
      rowsListed: cold.body.total, queries: queries.length, exactTotals: exact, mismatches: mismatches.slice(0, 5), nonEmptyPages,
      coldFirstQueryMs: Math.round(cold.ms), p50Ms: r1(pct(listMs, 50)), p95Ms: r1(pct(listMs, 95)), maxMs: r1(Math.max(...listMs)),
    };
    log('OMI data page', results.listing);

    // 8. valuation: 200 properties
    const vrand = rng(11);
    const vpick = <T>(l: readonly T[]) => l[Math.floor(vrand() * l.length)]!;
    const cats = OMI_CATEGORIES.filter((c) => !c.startsWith('terreni'));
    const valMs: number[] = [];
    let available = 0;
    let byAddress = 0;
    for (let i = 0; i < 200; i++) {
      const zone = vpick(data.zones);
      const unknown = vrand() < 0.1;
      const body = {
        address: vrand() < 0.5 ? `${zone.descr.split(', ')[0]} 12` : 'Via Sconosciuta 1',
        province: zone.prov,
        city: unknown ? 'Comune Inesistente' : vrand() < 0.5 ? zone.comune.toLowerCase() : zone.comune.replace('`', "'"),
        omiCategory: vrand() < 0.6 ? 'abitazioni_civili' : vpick(cats),
        surfaceArea: 40 + Math.floor(vrand() * 160),
        condition: vpick(['nuovo', 'ottimo', 'buono', 'da_ristrutturare', null]),
        floor: vpick(['terra', '0', '1', '2', '5']),
        hasTerrace: vrand() < 0.4,
        features: vrand() < 0.6 ? ['Ascensore', 'Cantina'] : ['Cantina'],
      };
      const res = await api<{ available: boolean; zone?: { rule: string } }>('POST', '/valuations/evaluate', body);
      if (res.status !== 200) throw new Error(`valuation -> ${res.status} ${JSON.stringify(res.body)}`);
      valMs.push(res.ms);
      if (res.body.available) available++;
      if (res.body.zone?.rule === 'address') byAddress++;
    }
    results.valuation = { properties: 200, available, notAvailable: 200 - available, zoneByAddress: byAddress, p50Ms: r1(pct(valMs, 50)), p95Ms: r1(pct(valMs, 95)), maxMs: r1(Math.max(...valMs)) };
    log('valuation', results.valuation);

    results.failedAttemptsRetried = failedAttempts;
    results.targets = {
      importDropToDoneUnder60s: a.dropToDoneMs <= 60_000,
      importAtLeast70PercentOfRaw: importRate / rawRate >= 0.7,
      importPeakRssUnder512Mb: child.maxRssMb <= 512,
      listingP95Under150ms: pct(listMs, 95) <= 150,
      listingTotalsExact: exact === queries.length,
      valuationP95Under50ms: pct(valMs, 95) <= 50,
    };
    log('targets', results.targets);
  } finally {
    await stack.stop();
  }
  results.machine = { ...(results.machine as object), loadAvgAtEnd: os.loadavg().map(r1) };
  const out = path.join(ROOT, 'bench', 'results');
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, 'omi.json'), `${JSON.stringify(results, null, 2)}\n`);
  log(`written ${path.join('bench', 'results', 'omi.json')}`);
}

await main();
process.exit(0);
