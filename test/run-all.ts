/**
 * `npm test` after `npm run check`: runs the vitest projects in order (unit + infra, then
 * integration, then e2e, each starting its own emulators), stops at the first failing
 * stage, and closes with one summary line for the whole run.
 *
 * A test file that fails to load or whose setup (beforeAll, global setup) fails runs no
 * test, so it is counted apart, named, and added to the failures: the last line never
 * says "0 failed" when the run failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface JsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { name: string; status: string; message?: string; startTime: number; endTime: number; assertionResults: { status: string }[] }[];
}

// unit-isolated (the unit files that mock a module) runs beside unit
const stages: string[][] = [['unit', 'unit-isolated', 'infra'], ['integration'], ['e2e']];
const only = process.argv.slice(2);
const known = stages.flat();
const unknown = only.filter((s) => !known.includes(s));
if (unknown.length) {
  // a mistyped stage must not run nothing and pass
  console.error(`Unknown test stage: ${unknown.join(', ')}. Known stages: ${known.join(', ')}.`);
  console.log('Tests: 0 passed, 1 failed');
  process.exit(2);
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'opzione-casa-test-'));
/** each file's duration in seconds, by path from the repository root (SUITE_FILE_SECONDS: where to write them) */
const fileSeconds: Record<string, number> = {};
let passed = 0;
let failed = 0;
let skipped = 0;
const brokenSuites: string[] = [];
let exitCode = 0;
const started = Date.now();

for (const projects of stages) {
  // `npm test -- unit` means both unit projects
  const selected = only.length ? projects.filter((p) => only.includes(p) || only.includes(p.replace(/-isolated$/, ''))) : projects;
  if (!selected.length) continue;
  const stage = selected.join(' + ');
  const out = path.join(dir, `${selected.join('-')}.json`);
  const args = ['vitest', 'run', ...selected.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${out}`];
  const t0 = Date.now();
  const run = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1' } });
  let report: JsonReport | undefined;
  try {
    report = JSON.parse(readFileSync(out, 'utf8')) as JsonReport;
  } catch {
    report = undefined;
  }
  const stageFailedBefore = failed + brokenSuites.length;
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    for (const suite of report.testResults) {
      fileSeconds[path.relative(process.cwd(), suite.name).split(path.sep).join('/')] = Math.round((suite.endTime - suite.startTime) / 100) / 10;
      // a failed file with no failed test in it: it did not load, or its setup failed
      if (suite.status === 'failed' && !suite.assertionResults.some((a) => a.status === 'failed')) {
        const firstLine = (suite.message ?? '').split('\n').find((l) => l.trim()) ?? 'errore senza messaggio';
        brokenSuites.push(`${path.relative(process.cwd(), suite.name)} (${firstLine.trim().slice(0, 160)})`);
      }
    }
  } else {
    brokenSuites.push(`[${stage}] nessun report: l'avvio della fase (global setup) è fallito`);
  }
  if (run.status !== 0 && failed + brokenSuites.length === stageFailedBefore) {
    brokenSuites.push(`[${stage}] vitest è uscito con codice ${run.status ?? run.signal} senza test falliti`);
  }
  console.log(`\n[${stage}] ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (run.status !== 0 || failed + brokenSuites.length > stageFailedBefore) {
    exitCode = run.status || 1;
    break;
  }
}
rmSync(dir, { recursive: true, force: true });
// bench/suite.ts keeps them in bench/results/suite.json: the order test/support/sequencer.ts starts files in
if (process.env.SUITE_FILE_SECONDS) writeFileSync(process.env.SUITE_FILE_SECONDS, JSON.stringify(fileSeconds));
console.log(`\nTotal time: ${((Date.now() - started) / 1000).toFixed(1)} s (Node.js ${process.versions.node})`);
if (brokenSuites.length) {
  console.log(`\n${brokenSuites.length} test file(s) failed to load or to set up, counted as failed:`);
  for (const s of brokenSuites) console.log(`  - ${s}`);
}
const totalFailed = failed + brokenSuites.length;
console.log(`Tests: ${passed} passed, ${totalFailed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(exitCode || (totalFailed ? 1 : 0));
