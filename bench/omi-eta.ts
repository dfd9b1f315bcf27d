/**
 * `npx tsx bench/omi-eta.ts`: how true the import page's time left is, on the real national
 * 2017/2 files (test/fixtures/omi) dropped as an admin drops them, on a local stack with
 * DynamoDB Local on disk (`-dbPath`, as `npm start`). Not a test: it prints the figures and
 * writes them to bench/results/omi-eta.json.
 *
 * For each file (VALORI, then ZONE): presigned POST -> S3 event -> import Lambda, while the
 * job is polled (GET /omi/imports/{jobId}) as the page polls it. Each distinct state of the
 * job (a heartbeat, every 5 s) is a sample: the page's estimate (domain/omi/progress.ts
 * importSpeed, from the job as of its updatedAt) against the time that was actually left
 * (finishedAt - updatedAt). Printed: the error at the first sample past 20/40/60/80 % of
 * the work, the largest absolute error from 20 % on, the same for the estimate the page
 * used before (bytes read at the bytes/s so far), and how long the index rebuild took. The
 * largest error is also given over the states with 3 s or more left: the page shows whole
 * seconds, rounded up, so 30 % of the last second or two is finer than what it can say.
 * The rows stored are checked against the file (a short import would show here).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { startLocalStack } from '../infra/local/stack';
import { edgeHeaders } from '../infra/local/edge';
import { importSpeed, INDEX_WORK_SHARE } from '../functions/domain/omi/progress';
import type { OmiJob } from '../functions/domain/omi/api';
import { nationalSample } from '../test/support/omi-samples';
import { machine, r1, writeResults } from './support';

process.removeAllListeners('warning');
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
process.env.LOG_LEVEL ??= 'WARN';
const log = (...a: unknown[]) => console.log(...a);

/** The estimate the page used before: the bytes still to read at the bytes/s so far. */
function byteEstimate(job: OmiJob): number | null {
  const seconds = (Date.parse(job.updatedAt) - Date.parse(job.startedAt!)) / 1000;
  if (!job.bytesTotal || job.bytesRead <= 0 || seconds < 1) return null;
  return Math.max(0, job.bytesTotal - job.bytesRead) / (job.bytesRead / seconds);
}

interface Sample {
  atS: number;
  progress: number;
  phase: string | null;
  rowsRead: number;
  rowsWritten: number;
  actualLeftS: number;
  estimateS: number | null;
  errorPct: number | null;
  byteEstimateS: number | null;
  byteErrorPct: number | null;
  /** the job's fields the estimate reads (to recompute it offline) */
  job: Pick<OmiJob, 'rowsRead' | 'rowsWritten' | 'rowsExpected' | 'rejected' | 'startedAt' | 'updatedAt' | 'bytesRead' | 'bytesTotal' | 'fileKind' | 'phase' | 'indexDone' | 'indexTotal' | 'indexStartedAt' | 'indexWorkDone' | 'indexWorkTotal'>;
}

const errorPct = (estimate: number | null, actual: number) => (estimate === null || actual <= 0 ? null : r1(((estimate - actual) / actual) * 100));

function summarize(samples: Sample[]) {
  const at = (p: number) => samples.find((s) => s.progress >= p && s.actualLeftS > 0) ?? null;
  const late = samples.filter((s) => s.progress >= 20 && s.actualLeftS > 0);
  const maxAbs = (k: 'errorPct' | 'byteErrorPct') => r1(Math.max(0, ...late.map((s) => Math.abs(s[k] ?? 0))));
  return {
    milestones: Object.fromEntries(
      [20, 40, 60, 80].map((p) => {
        const s = at(p);
        return [`${p}%`, s && { progress: s.progress, actualLeftS: s.actualLeftS, estimateS: s.estimateS, errorPct: s.errorPct, byteEstimateS: s.byteEstimateS, byteErrorPct: s.byteErrorPct }];
      }),
    ),
    samplesFrom20Percent: late.length,
    maxAbsErrorPctFrom20: maxAbs('errorPct'),
    // the page shows whole seconds (rounded up) and "pochi istanti" under one: +-30 % of 1-2 s is below what it can say
    maxAbsErrorPctFrom20With3sLeft: r1(Math.max(0, ...late.filter((s) => s.actualLeftS >= 3).map((s) => Math.abs(s.errorPct ?? 0)))),
    oldByteEstimateMaxAbsErrorPctFrom20: maxAbs('byteErrorPct'),
  };
}

async function main() {
  const national = nationalSample();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opzione-casa-bench-eta-'));
  const results: Record<string, unknown> = { at: new Date().toISOString(), machine: machine(), mode: 'disk (-dbPath, as npm start)', indexWorkShare: INDEX_WORK_SHARE };
  const stack = await startLocalStack({ appOrigin: 'http://localhost:5173', dataDir });
  try {
    const admin = stack.accounts.find((a) => a.role === 'admin')!;
    const cognito = new CognitoIdentityProviderClient({ endpoint: stack.urls.cognito, region: 'eu-south-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
    const auth = await cognito.send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack.pool.userPoolClientId, AuthParameters: { USERNAME: admin.email, PASSWORD: admin.password } }),
    );
    const token = auth.AuthenticationResult!.IdToken!;
    const api = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${stack.urls.api}/api${p}`, {
        method,
        headers: { ...edgeHeaders(stack.env.ORIGIN_SECRET!), authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await res.json()) as T;
    };

    for (const [kind, file] of [['valori', national.valori], ['zone', national.zone]] as const) {
      const fileName = path.basename(file);
      const bytes = readFileSync(file);
      const dataRows = bytes.toString('latin1').split(/\r?\n/).slice(2).filter((l) => l.trim()).length;
      const up = await api<{ jobId: string; upload: { url: string; fields: Record<string, string> } }>('POST', '/omi/uploads', { fileName, semester: '2017-S2' });
      const form = new FormData();
      for (const [k, v] of Object.entries(up.upload.fields)) form.append(k, v);
      form.append('file', new Blob([bytes]), fileName);
      const t0 = Date.now();
      await (await fetch(up.upload.url, { method: 'POST', body: form })).text();
      const states = new Map<string, OmiJob>();
      let job: OmiJob;
      for (;;) {
        job = await api<OmiJob>('GET', `/omi/imports/${up.jobId}`);
        if (job.status === 'running') states.set(job.updatedAt, job);
        if (job.status === 'completed' || job.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 250));
      }
      if (job.status !== 'completed') throw new Error(`import of ${fileName} failed: ${job.error}`);
      const end = Date.parse(job.finishedAt!);
      const start = Date.parse(job.startedAt!);
      const samples: Sample[] = [...states.values()].map((s) => {
        const actual = (end - Date.parse(s.updatedAt)) / 1000;
        const estimate = importSpeed(s).secondsLeft;
        const bytesEstimate = byteEstimate(s);
        return {
          atS: r1((Date.parse(s.updatedAt) - start) / 1000), progress: s.progress, phase: s.phase, rowsRead: s.rowsRead, rowsWritten: s.rowsWritten,
          actualLeftS: r1(actual), estimateS: estimate === null ? null : r1(estimate), errorPct: errorPct(estimate, actual),
          byteEstimateS: bytesEstimate === null ? null : r1(bytesEstimate), byteErrorPct: errorPct(bytesEstimate, actual),
          job: {
            rowsRead: s.rowsRead, rowsWritten: s.rowsWritten, rowsExpected: s.rowsExpected, rejected: s.rejected, startedAt: s.startedAt, updatedAt: s.updatedAt, bytesRead: s.bytesRead,
            bytesTotal: s.bytesTotal, fileKind: s.fileKind, phase: s.phase, indexDone: s.indexDone, indexTotal: s.indexTotal,
            indexStartedAt: s.indexStartedAt, indexWorkDone: s.indexWorkDone, indexWorkTotal: s.indexWorkTotal,
          },
        };
      });
      // when the rebuild began: the job says so, else its first state seen in phase 'index'
      const indexStartAt = job.indexStartedAt ?? [...states.values()].find((s) => s.phase === 'index')?.updatedAt;
      const indexStart = indexStartAt ? { updatedAt: indexStartAt } : undefined;
      const rowsPhaseS = indexStart ? (Date.parse(indexStart.updatedAt) - start) / 1000 : (end - start) / 1000;
      const out = {
        file: fileName, bytes: bytes.length, dataRows, rowsRead: job.rowsRead, rowsWritten: job.rowsWritten, inserted: job.inserted, rejected: job.rejected,
        complete: job.rowsRead === dataRows, dropToDoneS: r1((end - t0) / 1000), runS: r1((end - start) / 1000),
        indexPhaseS: indexStart ? r1((end - Date.parse(indexStart.updatedAt)) / 1000) : null,
        indexShareOfRowsPhase: indexStart ? Math.round(((end - Date.parse(indexStart.updatedAt)) / 1000 / rowsPhaseS) * 1000) / 1000 : null,
        ...summarize(samples),
        samples,
      };
      results[kind] = out;
      const { samples: _s, ...brief } = out;
      log(`\n== ${kind}`, JSON.stringify(brief, null, 1));
      console.table(samples.map(({ job: _j, ...rest }) => rest));
    }
  } finally {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  log(`written ${await writeResults('omi-eta', results)}`);
}

await main();
process.exit(0);
