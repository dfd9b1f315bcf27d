/**
 * `npm run bench:suite`: times the README's test command (`npm test`) as a user runs it and
 * records the figures with the machine in bench/results/suite.json: the whole run, `npm run
 * check`, each stage run-all.ts reports, and the closing line's counts. It times what it
 * runs; a red run is recorded as red, never as a time to compare. Every test file's duration
 * too (`fileSeconds`): test/support/sequencer.ts starts the longest first in the next runs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { recordedFileSeconds } from '../test/support/sequencer';
import { cpuProbeMs, machine, machineCpuS, r1, ROOT, writeResults } from './support';

const env = machine();
const started = Date.now();
const cpuAtStart = machineCpuS();
const timesDir = mkdtempSync(path.join(os.tmpdir(), 'opzione-casa-suite-'));
const timesFile = path.join(timesDir, 'file-seconds.json');
const child = spawn('npm', ['test'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SUITE_FILE_SECONDS: timesFile } });
let out = '';
child.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  out += chunk.toString('utf8');
});
const code: number = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
const totalS = r1((Date.now() - started) / 1000);
const cpuAtEnd = machineCpuS();
/**
 * The CPU every process of the machine used during the run, and how busy its cores were: the
 * run's work, whatever the hour's speed. Divided by the cores, the shortest the run could take
 * on this machine with every core busy all the time.
 */
const busyS = cpuAtEnd.busy - cpuAtStart.busy;
const cpu = {
  busyS: Math.round(busyS),
  busyPercent: Math.round((100 * busyS) / (busyS + cpuAtEnd.idle - cpuAtStart.idle)),
  floorS: Math.round(busyS / env.cpus),
};
// tsx prints "[unit + infra] 31.2 s" after each stage and "Total time: ... s" (test/run-all.ts)
const plain = stripVTControlCharacters(out);
const stages = Object.fromEntries([...plain.matchAll(/^\[([a-z0-9 +-]+)\] ([\d.]+) s$/gm)].map((m) => [m[1]!, Number(m[2])]));
const testsS = Number(/^Total time: ([\d.]+) s/m.exec(plain)?.[1] ?? NaN);
const closing = /^Tests: (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m.exec(plain);
let fileSeconds: Record<string, number> = {};
try {
  fileSeconds = JSON.parse(readFileSync(timesFile, 'utf8')) as Record<string, number>;
} catch {
  // the run stopped before writing them: the sequencer keeps the previous ones
}
rmSync(timesDir, { recursive: true, force: true });
const previous = Object.fromEntries(recordedFileSeconds());
const results = {
  date: new Date().toISOString(),
  command: 'npm test',
  exitCode: code,
  totalS,
  checkS: r1(totalS - testsS),
  stagesS: stages,
  tests: closing ? { passed: Number(closing[1]), failed: Number(closing[2]), skipped: Number(closing[3] ?? 0) } : null,
  cpu,
  machine: { ...env, cpuProbeMsAtEnd: cpuProbeMs() },
  // a stage that did not run (an earlier one failed) keeps its files' previous times; a deleted file has none
  fileSeconds: Object.fromEntries(
    Object.entries({ ...previous, ...fileSeconds })
      .filter(([f]) => existsSync(path.join(ROOT, f)))
      .sort(([, a], [, b]) => b - a),
  ),
};
const file = await writeResults('suite', results);
console.log(`\nnpm test: ${totalS} s (check ${results.checkS} s; ${Object.entries(stages).map(([s, t]) => `${s} ${t} s`).join('; ')}), exit ${code}; ${cpu.busyS} CPU-s, ${env.cpus} cores ${cpu.busyPercent} % busy (all busy: ${cpu.floorS} s) -> ${file}`);
process.exit(code);
