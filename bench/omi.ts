/**
 * `npm run bench` (tsx bench/omi.ts): the OMI figures on the local stack, with the real
 * national 2017/2 files of the Agenzia Entrate (test/fixtures/omi). Not a test: it prints
 * the figures and writes them to bench/results/omi.json (machine, mode, date).
 *
 * Run in both DynamoDB Local modes, each with a whole local stack of its own:
 * - `disk`: `-dbPath` in a data folder, as `npm start` runs it (what users get);
 * - `memory`: `-inMemory`, as the tests run it (an extra row).
 * In each mode:
 * 1. raw BatchWriteItem of exactly the items the import writes (one per semester and zone)
 *    into a scratch table with the same keys and GSIs, same concurrency, before and after
 *    the import (the machine's load moves: both are printed, the import is compared with
 *    their mean);
 * 2. the national VALORI file from drop to done: presigned POST to the local S3 -> S3
 *    event -> import Lambda (in this process, as the local runtime runs it) -> job
 *    completed; then the national ZONE file, then the Milano files (2024/2 and 2025/1, so
 *    the data page and the valuation see several semesters);
 * 3. disk mode only: the national VALORI file imported again in a process of its own, as a
 *    Lambda (exact counts: 0 inserted; its peak RSS);
 * 4. OMI data page API: 200 mixed filter queries, p50/p95, every total checked against a
 *    count made here from the files with a naive reader;
 * 5. valuation API: 200 real addresses (streets of the ZONE file's zone descriptions) in at
 *    least 50 provinces, p50/p95.
 */
import { spawn } from 'node:child_process';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { startLocalStack } from '../infra/local/stack';
import { ensureTable } from '../infra/local/setup';
import { ddb } from '../functions/model/db';
import { s3 } from '../functions/lib/aws/s3';
import { BatchWriter } from '../functions/model/batch-writer';
import { zoneQuotationsItem } from '../functions/model/omi/quotations';
import { formatValoriLine, parseOmiFile } from '../functions/omi/parse-omi';
import { comuneSearchKey } from '../functions/domain/omi/names';
import type { OmiValoriRow } from '../functions/domain/omi/types';
import { MILANO, nationalSample } from '../test/support/omi-samples';
import { edgeHeaders } from '../infra/local/edge';
import { ROOT, writeResults } from './support';

const CONCURRENCY = 16;
const log = (...a: unknown[]) => console.log(...a);
process.removeAllListeners('warning');
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
process.env.LOG_LEVEL ??= 'WARN';

const r1 = (n: number) => Math.round(n * 10) / 10;
const r2 = (n: number) => Math.round(n * 100) / 100;
function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
/** Seeded generator (mulberry32): the same queries every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- the files, and an independent naive reading of them (for exact totals) ----
const national = nationalSample();
interface NaiveRow { semester: string; prov: string; comuneKey: string; codTip: number; stato: string }
function naiveRows(file: string, semester: string): NaiveRow[] {
  return readFileSync(file, 'latin1')
    .split(/\r?\n/)
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => l.split(';'))
    .map((f) => ({ semester, prov: f[2]!, comuneKey: comuneSearchKey(f[7]!), codTip: Number(f[11]), stato: f[13]! }));
}
const ALL_ROWS = [
  ...naiveRows(national.valori, '2017-S2'),
  ...naiveRows(MILANO.valori2024, '2024-S2'),
  ...naiveRows(MILANO.valori2025, '2025-S1'),
];
const COMUNI = [...new Set(ALL_ROWS.map((r) => r.comuneKey))];
const PROVINCES = [...new Set(ALL_ROWS.map((r) => r.prov))];

/** Exactly the items the import writes for the national VALORI file: one per zone, lines in file order. */
async function nationalZoneItems(): Promise<Record<string, unknown>[]> {
  const parsed = await parseOmiFile(createReadStream(national.valori));
  const zones = new Map<string, { prov: string; comune: OmiValoriRow; lines: string[] }>();
  for (const { row } of parsed.valori) {
    const z = zones.get(row.linkZona) ?? { prov: row.prov, comune: row, lines: [] };
    z.lines.push(formatValoriLine(row));
    zones.set(row.linkZona, z);
  }
  return [...zones].map(([linkZona, z]) => zoneQuotationsItem({ semester: '2017-S2', prov: z.prov, linkZona, comune: z.comune }, z.lines));
}

/** Addresses for the valuation: the first street named in a zone's description, one zone per province in turn. */
function valuationAddresses(count: number): { address: string; province: string; city: string }[] {
  const rand = rng(11);
  const byProv = new Map<string, { address: string; province: string; city: string }[]>();
  for (const line of readFileSync(national.zone, 'latin1').split(/\r?\n/).slice(2)) {
    const f = line.split(';');
    if (f.length < 12) continue;
    const descr = line.slice(line.indexOf("'") + 1, line.lastIndexOf("'"));
    const street = descr.split(/[,:-]/).map((s) => s.trim()).find((s) => /^(VIA|VIALE|PIAZZA|CORSO|LARGO|CONTRADA|LOCALITA|STRADA)\b/i.test(s));
    if (!street) continue;
    const list = byProv.get(f[2]!) ?? [];
    list.push({ address: `${street} 12`, province: f[2]!, city: f[7]! });
    byProv.set(f[2]!, list);
  }
  const provs = [...byProv.keys()].sort();
  const out: { address: string; province: string; city: string }[] = [];
  for (let i = 0; out.length < count; i++) {
    const list = byProv.get(provs[i % provs.length]!)!;
    out.push(list[Math.floor(rand() * list.length)]!);
  }
  return out;
}

type Job = {
  status: string; rowsRead: number; inserted: number; updated: number; rejected: number; warnings: number;
  finishedAt: string; startedAt: string; durationMs: number; error: string | null;
};

async function runMode(mode: 'disk' | 'memory', items: Record<string, unknown>[]) {
  const out: Record<string, unknown> = { mode, dynamodb: mode === 'disk' ? '-dbPath (as npm start)' : '-inMemory (as the tests)' };
  const dataDir = mode === 'disk' ? await mkdtemp(path.join(os.tmpdir(), 'opzione-casa-bench-')) : undefined;
  let t = Date.now();
  const stack = await startLocalStack({ appOrigin: 'http://localhost:5173', dataDir });
  log(`\n== ${mode}: stack up in ${Date.now() - t} ms`);
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
      headers: { ...edgeHeaders(stack.env.ORIGIN_SECRET!), authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, ms: performance.now() - s };
  };
  const waitJob = async (id: string): Promise<Job> => {
    for (;;) {
      const j = await api<Job>('GET', `/omi/imports/${id}`);
      if (j.body.status === 'completed' || j.body.status === 'failed') return j.body;
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const dropFile = async (file: string, semester: string) => {
    const fileName = path.basename(file);
    const up = await api<{ jobId: string; upload: { url: string; fields: Record<string, string> } }>('POST', '/omi/uploads', { fileName, semester });
    const form = new FormData();
    for (const [k, v] of Object.entries(up.body.upload.fields)) form.append(k, v);
    form.append('file', new Blob([readFileSync(file)]), fileName);
    const t0 = Date.now();
    const res = await fetch(up.body.upload.url, { method: 'POST', body: form });
    await res.text();
    const job = await waitJob(up.body.jobId);
    if (job.status !== 'completed') throw new Error(`import of ${fileName} ${job.status}: ${job.error}`);
    const dropToDoneMs = Date.parse(job.finishedAt) - t0;
    return {
      rowsRead: job.rowsRead, inserted: job.inserted, updated: job.updated, rejected: job.rejected, warnings: job.warnings,
      dropToDoneS: r1(dropToDoneMs / 1000), rowsPerSecond: Math.round(job.rowsRead / (dropToDoneMs / 1000)), dropToDoneMs,
    };
  };
  const rawRun = async (table: string, list: Record<string, unknown>[]) => {
    await ensureTable(stack.urls.dynamodb, table);
    const w = new BatchWriter(ddb(), table, { concurrency: CONCURRENCY });
    const s0 = performance.now();
    for (const item of list) await w.put(item);
    await w.flush();
    const ms = performance.now() - s0;
    return { items: list.length, seconds: r1(ms / 1000), itemsPerSecond: Math.round(list.length / (ms / 1000)), retries: w.stats.retries };
  };

  try {
    // 1-2. raw writes around the real import of the same items
    await rawRun('bench-warmup', items.slice(0, 3000).map((i) => ({ ...i, pk: `W${i.pk as string}` })));
    const rawBefore = await rawRun('bench-raw-1', items);
    log('raw BatchWriteItem before', rawBefore);
    const valori = await dropFile(national.valori, '2017-S2');
    log('national VALORI, drop to done', valori);
    const rawAfter = await rawRun('bench-raw-2', items);
    log('raw BatchWriteItem after', rawAfter);
    const rawItemsPerSecond = (rawBefore.itemsPerSecond + rawAfter.itemsPerSecond) / 2;
    const importItemsPerSecond = items.length / (valori.dropToDoneMs / 1000);
    out.raw = { concurrency: CONCURRENCY, before: rawBefore, after: rawAfter, meanItemsPerSecond: Math.round(rawItemsPerSecond) };
    out.importValori = {
      ...valori, items: items.length, itemsPerSecond: Math.round(importItemsPerSecond), ratioToRaw: r2(importItemsPerSecond / rawItemsPerSecond),
      rawSecondsForSameItems: r1(items.length / rawItemsPerSecond),
    };
    out.importZone = await dropFile(national.zone, '2017-S2');
    log('national ZONE, drop to done', out.importZone);
    out.importMilano = { '2024-S2': await dropFile(MILANO.valori2024, '2024-S2'), '2025-S1': await dropFile(MILANO.valori2025, '2025-S1') };

    // 3. the same national file again, in a process of its own (a Lambda): exact counts, peak RSS
    if (mode === 'disk') {
      const key = 'bench/valori-20172.bin'; // not .csv: the S3 trigger ignores it, the child imports it
      await s3().send(new PutObjectCommand({ Bucket: stack.env.OMI_BUCKET!, Key: key, Body: readFileSync(national.valori) }));
      const child = await new Promise<{ outcome: Record<string, number | string>; wallMs: number; maxRssMb: number }>((resolve, reject) => {
        const p = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'omi-import-child.ts'), stack.env.OMI_BUCKET!, key, 'bench-child-20172', '2017-S2', path.basename(national.valori)], {
          cwd: ROOT,
          env: { ...process.env, ...stack.env, LOG_LEVEL: 'WARN' },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let text = '';
        p.stdout.on('data', (d: Buffer) => (text += d.toString()));
        p.on('exit', (code) => {
          try {
            resolve(JSON.parse(text.trim().split('\n').pop() ?? ''));
          } catch {
            reject(new Error(`child import failed (${code}): ${text}`));
          }
        });
      });
      out.reimportOwnProcess = { ...child.outcome, wallS: r1(child.wallMs / 1000), peakRssMb: child.maxRssMb };
      log('national VALORI again, own process', out.reimportOwnProcess);
    }

    // 4. the data page: 200 mixed queries, totals checked against the naive count
    const rand = rng(7);
    const pick = <T>(l: readonly T[]) => l[Math.floor(rand() * l.length)]!;
    type Q = { comune?: string; provincia?: string; tipologia?: number; stato?: string; semestre?: string; page: number };
    const queries: Q[] = [];
    for (let i = 0; i < 200; i++) {
      const q: Q = { page: 1 };
      if (rand() < 0.4) {
        const name = pick(COMUNI);
        const len = 3 + Math.floor(rand() * 5);
        q.comune = rand() < 0.5 ? name.slice(0, len) : name;
      }
      if (rand() < 0.4) q.provincia = pick(PROVINCES);
      if (rand() < 0.35) q.tipologia = pick([20, 21, 19, 1, 5, 6, 9, 13]);
      if (rand() < 0.3) q.stato = pick(['OTTIMO', 'NORMALE', 'SCADENTE']);
      if (rand() < 0.3) q.semestre = pick(['2017-S2', '2024-S2', '2025-S1']);
      if (rand() < 0.5) q.page = 1 + Math.floor(rand() * 10);
      queries.push(q);
    }
    const expected = (q: Q) => {
      const ck = q.comune ? comuneSearchKey(q.comune) : undefined;
      return ALL_ROWS.filter(
        (r) =>
          (!q.semestre || r.semester === q.semestre) && (!q.provincia || r.prov === q.provincia) && (!q.tipologia || r.codTip === q.tipologia) &&
          (!q.stato || r.stato === q.stato) && (!ck || r.comuneKey.includes(ck)),
      ).length;
    };
    const qs = (q: Q) => new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const cold = await api<{ total: number }>('GET', `/omi/quotations?${qs({ page: 1 })}`);
    const listMs: number[] = [];
    let exact = 0;
    const mismatches: unknown[] = [];
    for (const q of queries) {
      const res = await api<{ total: number; items: unknown[] }>('GET', `/omi/quotations?${qs(q)}`);
      if (res.status !== 200) throw new Error(`listing ${qs(q)} -> ${res.status} ${JSON.stringify(res.body)}`);
      listMs.push(res.ms);
      const want = expected(q);
      if (res.body.total === want && res.body.items.length === Math.max(0, Math.min(50, want - (q.page - 1) * 50))) exact++;
      else mismatches.push({ q, got: res.body.total, want, items: res.body.items.length });
    }
    out.listing = {
      rowsListed: cold.body.total, expectedRows: ALL_ROWS.length, queries: queries.length, exactTotals: exact, mismatches: mismatches.slice(0, 5),
      coldFirstQueryMs: Math.round(cold.ms), p50Ms: r1(pct(listMs, 50)), p95Ms: r1(pct(listMs, 95)), maxMs: r1(Math.max(...listMs)),
    };
    log('OMI data page', out.listing);

    // 5. the valuation: 200 real addresses in at least 50 provinces
    const addresses = valuationAddresses(200);
    const valMs: number[] = [];
    let available = 0;
    let byAddress = 0;
    const vrand = rng(13);
    for (const a of addresses) {
      const body = {
        ...a,
        omiCategory: 'abitazioni_civili',
        surfaceArea: 40 + Math.floor(vrand() * 160),
        condition: ['nuovo', 'ottimo', 'buono', 'da_ristrutturare', null][Math.floor(vrand() * 5)],
        floor: ['terra', '1', '2', '5'][Math.floor(vrand() * 4)],
        hasTerrace: vrand() < 0.4,
        features: vrand() < 0.6 ? ['Ascensore', 'Cantina'] : ['Cantina'],
      };
      const res = await api<{ available: boolean; zone?: { rule: string } }>('POST', '/valuations/evaluate', body);
      if (res.status !== 200) throw new Error(`valuation -> ${res.status} ${JSON.stringify(res.body)}`);
      valMs.push(res.ms);
      if (res.body.available) available++;
      if (res.body.zone?.rule === 'address') byAddress++;
    }
    out.valuation = {
      addresses: addresses.length, provinces: new Set(addresses.map((a) => a.province)).size, available, zoneByAddress: byAddress,
      p50Ms: r1(pct(valMs, 50)), p95Ms: r1(pct(valMs, 95)), maxMs: r1(Math.max(...valMs)),
    };
    log('valuation', out.valuation);
  } finally {
    t = Date.now();
    await stack.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
  return out;
}

async function main() {
  const results: Record<string, unknown> = {
    at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryGb: Math.round(os.totalmem() / 1e9),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      loadAvgAtStart: os.loadavg().map(r1),
    },
    files: { valori: path.basename(national.valori), zone: path.basename(national.zone), source: 'Agenzia Entrate - OMI (test/fixtures/omi)' },
  };
  const items = await nationalZoneItems();
  log(`${items.length} zone items for ${ALL_ROWS.length - 892} national rows`);
  const modes = { disk: await runMode('disk', items), memory: await runMode('memory', items) };
  results.modes = modes;
  (results.machine as Record<string, unknown>).loadAvgAtEnd = os.loadavg().map(r1);

  type ModeOut = { importValori: { dropToDoneS: number; rowsPerSecond: number; itemsPerSecond: number; ratioToRaw: number }; raw: { meanItemsPerSecond: number }; importZone: { dropToDoneS: number }; listing: { p95Ms: number; exactTotals: number; queries: number }; valuation: { p95Ms: number } };
  const rows = (['disk', 'memory'] as const).map((m) => {
    const o = modes[m] as unknown as ModeOut;
    return {
      mode: m, rawItemsPerS: o.raw.meanItemsPerSecond, importItemsPerS: o.importValori.itemsPerSecond, ratio: o.importValori.ratioToRaw,
      valoriDropToDoneS: o.importValori.dropToDoneS, valoriRowsPerS: o.importValori.rowsPerSecond, zoneDropToDoneS: o.importZone.dropToDoneS,
      listingP95Ms: o.listing.p95Ms, listingExact: `${o.listing.exactTotals}/${o.listing.queries}`, valuationP95Ms: o.valuation.p95Ms,
    };
  });
  console.table(rows);
  const disk = modes.disk as unknown as ModeOut;
  const memory = modes.memory as unknown as ModeOut;
  results.targets = {
    valoriDropToDoneUnder60sOnDisk: disk.importValori.dropToDoneS <= 60,
    importAtLeast70PercentOfRawOnDisk: disk.importValori.ratioToRaw >= 0.7,
    importAtLeast70PercentOfRawInMemory: memory.importValori.ratioToRaw >= 0.7,
    listingP95Under150msOnDisk: disk.listing.p95Ms <= 150,
    listingTotalsExact: disk.listing.exactTotals === disk.listing.queries && memory.listing.exactTotals === memory.listing.queries,
    valuationP95Under50msOnDisk: disk.valuation.p95Ms <= 50,
  };
  log('targets', results.targets);
  log(`written ${await writeResults('omi', results)}`);
}

await main();
process.exit(0);
