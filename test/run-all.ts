/**
 * `npm test` after `npm run check`: runs the vitest projects in order (unit + infra, then
 * integration, then e2e, each starting its own emulators), stops at the first failing
 * stage, and closes with one summary line for the whole run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const stages: string[][] = [['unit', 'infra'], ['integration'], ['e2e']];
const only = process.argv.slice(2);
const dir = mkdtempSync(path.join(os.tmpdir(), 'opzione-casa-test-'));
let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;
const started = Date.now();

for (const projects of stages) {
  const selected = only.length ? projects.filter((p) => only.includes(p)) : projects;
  if (!selected.length) continue;
  const out = path.join(dir, `${selected.join('-')}.json`);
  const args = ['vitest', 'run', ...selected.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${out}`];
  const t0 = Date.now();
  const run = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1' } });
  try {
    const report = JSON.parse(readFileSync(out, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
  } catch {
    failed += 1; // the stage could not even report (setup failed)
  }
  console.log(`\n[${selected.join(' + ')}] ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (run.status !== 0) {
    exitCode = run.status ?? 1;
    break;
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(`\nTotal time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(exitCode || (failed ? 1 : 0));
