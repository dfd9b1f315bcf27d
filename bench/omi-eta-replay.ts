/**
 * `npx tsx bench/omi-eta-replay.ts`: the time-left estimate of domain/omi/progress.ts as it
 * is now, replayed on the job states bench/omi-eta.ts recorded (bench/results/omi-eta.json),
 * without running an import again. What a recorded state lacks is rebuilt from the file the
 * same way the run computes it: rowsExpected from the line feeds among the first bytesRead
 * bytes (exact once every byte is read and the rows read are the file's). Prints, per file,
 * the error at the first state past 20/40/60/80 % and the largest absolute error from 20 %
 * on, and adds them to the results file as `replay`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { importPercent, importSpeed, INDEX_WORK_SHARE, type ImportProgressFields } from '../functions/domain/omi/progress';
import { nationalSample } from '../test/support/omi-samples';
import { r1, ROOT, writeResults } from './support';

type Recorded = { actualLeftS: number; job: Omit<ImportProgressFields, 'rowsExpected'> };
type FileResult = { dataRows: number; samples: Recorded[] };

const results = JSON.parse(readFileSync(path.join(ROOT, 'bench', 'results', 'omi-eta.json'), 'utf8')) as Record<string, unknown>;
const national = nationalSample();
const replay: Record<string, unknown> = { indexWorkShare: INDEX_WORK_SHARE };
for (const [kind, file] of [['valori', national.valori], ['zone', national.zone]] as const) {
  const bytes = readFileSync(file);
  const recorded = results[kind] as FileResult;
  const rows = recorded.samples.map((s) => {
    const j = s.job;
    let lineFeeds = 0;
    for (let i = bytes.indexOf(10); i !== -1 && i < j.bytesRead; i = bytes.indexOf(10, i + 1)) lineFeeds++;
    const done = j.bytesTotal !== null && j.bytesRead >= j.bytesTotal && j.rowsRead === recorded.dataRows;
    const rowsExpected = done ? j.rowsRead : j.bytesTotal && j.bytesRead > 0 && lineFeeds > 0 ? Math.max(j.rowsRead, Math.round((lineFeeds * j.bytesTotal) / j.bytesRead) - 2) : null;
    const job = { ...j, rowsExpected };
    const estimate = importSpeed(job).secondsLeft;
    const progress = importPercent(job);
    const errorPct = estimate === null || s.actualLeftS <= 0 ? null : r1(((estimate - s.actualLeftS) / s.actualLeftS) * 100);
    return { progress, phase: j.phase, rowsRead: j.rowsRead, rowsWritten: j.rowsWritten, rowsExpected, actualLeftS: s.actualLeftS, estimateS: estimate === null ? null : r1(estimate), errorPct };
  });
  const late = rows.filter((r) => r.progress >= 20 && r.actualLeftS > 0);
  const out = {
    milestones: Object.fromEntries([20, 40, 60, 80].map((p) => [`${p}%`, rows.find((r) => r.progress >= p && r.actualLeftS > 0) ?? null])),
    samplesFrom20Percent: late.length,
    maxAbsErrorPctFrom20: r1(Math.max(0, ...late.map((r) => Math.abs(r.errorPct ?? 0)))),
    maxAbsErrorPctFrom20With3sLeft: r1(Math.max(0, ...late.filter((r) => r.actualLeftS >= 3).map((r) => Math.abs(r.errorPct ?? 0)))),
    within30PctFrom20: `${late.filter((r) => r.errorPct !== null && Math.abs(r.errorPct) <= 30).length}/${late.length}`,
    samples: rows,
  };
  replay[kind] = out;
  const { samples: _s, ...brief } = out;
  console.log(`\n== ${kind}`, JSON.stringify(brief, null, 1));
  console.table(rows);
}
results.replay = replay;
console.log(`written ${await writeResults('omi-eta', results)}`);
