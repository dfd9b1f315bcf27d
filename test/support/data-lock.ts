/**
 * Which test files need the run's shared data to themselves, and the lock that lets them have
 * it while the other files keep running (no vitest import here: the sequencer, which
 * vitest.config.ts loads, reads the rules too).
 *
 * A file holds the data in `common` (with the other such files) or `alone`, or does not take
 * the lock:
 * - integration: the files listed in INTEGRATION_ALONE hold it alone; every other file holds
 *   it in common, except those that start emulators of their own (`useOwnStack(`), which never
 *   touch the shared stack;
 * - e2e: `omi.test.ts` clears every OMI record and counts exact totals, so it holds the data
 *   alone; the files that import OMI data (`importOmi(`) and read valuations from it hold it
 *   in common; the other pages never read OMI records and run beside it.
 *
 * Before, the alone files were projects of their own run after the others, one at a time: a
 * core stayed idle for their 20 s at the end of each stage. Now they are files of the same
 * project, started where the files that hold the data in common are expected to have ended
 * (test/support/sequencer.ts), and the lock (taken before a file's own hooks,
 * test/support/worker-setup.ts) makes them wait until no such file runs, and the others wait
 * while an alone file runs.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Integration files that need the table, or the OMI data, to themselves: the OMI files import
 * and clear every OMI record (a clear is refused while another import runs) and check the
 * valuations that read them; the requests files count the total of all requests; the trusted
 * list file replaces every trust anchor.
 */
export const INTEGRATION_ALONE = [
  'test/integration/omi-import.test.ts',
  'test/integration/omi-valuation.test.ts',
  'test/integration/omi-trend.test.ts',
  'test/integration/review.test.ts',
  'test/integration/submission-valuation.test.ts',
  // count the total of every request before and after their own submissions, or across pages
  'test/integration/requests.test.ts',
  'test/integration/request-list.test.ts',
  // a refresh replaces every trust anchor, the test CAs other files register included
  'test/integration/trusted-list.test.ts',
  // runs the daily job over the whole table "as of" days ahead: it mails every property's
  // owner, issues fresh link tokens and deletes the ones it finds expired, other files' included
  'test/integration/reminders.test.ts',
];

/** Browser files that need the OMI data to themselves (the Dati OMI pages). */
export const E2E_ALONE = ['test/e2e/omi.test.ts'];

export type Hold = 'common' | 'alone';

/** How the file at `relativePath` (from the repository root; `text`: its source) holds the data, if at all. */
export function holdOf(relativePath: string, text: string): Hold | undefined {
  if (INTEGRATION_ALONE.includes(relativePath) || E2E_ALONE.includes(relativePath)) return 'alone';
  if (relativePath.startsWith('test/integration/')) return /\buseOwnStack\(/.test(text) ? undefined : 'common';
  if (relativePath.startsWith('test/e2e/')) return /\bimportOmi\(/.test(text) ? 'common' : undefined;
  return undefined;
}

/** holdOf for a file on disk. */
export function holdOfFile(root: string, file: string): Hold | undefined {
  return holdOf(path.relative(root, file).split(path.sep).join('/'), readFileSync(file, 'utf8'));
}

const POLL_MS = 100;

/** A fresh folder for the lock of one stack and run (its global setup provides it, and removes it at the end). */
export function newLockDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'opzione-casa-lock-'));
}

/** Whether the process `pid` still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holders recorded in `folder` whose process still runs (a marker left by a process that died is removed). */
function liveCommon(folder: string): string[] {
  const live: string[] = [];
  for (const name of readdirSync(folder)) {
    const file = path.join(folder, name);
    if (!alive(Number(name.split('-')[0]))) rmSync(file, { force: true });
    else {
      try {
        live.push(readFileSync(file, 'utf8'));
      } catch {
        // released meanwhile
      }
    }
  }
  return live;
}

/** The alone holder (waiting or running), if its process still runs (a lock left by a process that died is removed). */
function liveAlone(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const [pid, ...who] = text.split('\n');
  if (alive(Number(pid))) return who.join('\n');
  rmSync(file, { force: true });
  return undefined;
}

/**
 * Takes the lock kept in the folder `dir` (one per stack and run) and returns its release.
 * `who` names the holder in the error of a wait that runs out.
 *
 * A common holder is a file `common/<pid>-<uuid>`; the alone holder, waiting or running, is
 * the one file `alone` (created exclusively, so there is only ever one). A common holder writes
 * its marker, then looks for `alone` (if there is one, it takes its marker back and tries again
 * later); an alone holder creates `alone`, then waits until no common marker is left. Whichever
 * of the two writes second sees the other, so they never run together; an alone holder waiting
 * keeps new common holders out, so it is never starved. A file left by a process that died is
 * removed by whoever finds it.
 */
export async function hold(dir: string, mode: Hold, who: string, timeoutMs: number): Promise<() => void> {
  const common = path.join(dir, 'common');
  const alone = path.join(dir, 'alone');
  mkdirSync(common, { recursive: true });
  const deadline = Date.now() + timeoutMs;
  const runOut = (holders: string[]) => new Error(`${who}: the shared test data was still held after ${timeoutMs / 1000} s, by ${holders.join(', ')}`);

  if (mode === 'common') {
    const mine = path.join(common, `${process.pid}-${randomUUID()}`);
    for (;;) {
      writeFileSync(mine, who);
      const holder = liveAlone(alone);
      if (holder === undefined) return () => rmSync(mine, { force: true });
      rmSync(mine, { force: true });
      if (Date.now() > deadline) throw runOut([holder]);
      await sleep(POLL_MS);
    }
  }
  // first the one alone place, then no common holder left
  for (;;) {
    try {
      writeFileSync(alone, `${process.pid}\n${who}`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = liveAlone(alone);
    if (holder !== undefined) {
      if (Date.now() > deadline) throw runOut([holder]);
      await sleep(POLL_MS);
    }
  }
  const release = () => rmSync(alone, { force: true });
  for (;;) {
    const holders = liveCommon(common);
    if (!holders.length) return release;
    if (Date.now() > deadline) {
      release();
      throw runOut(holders);
    }
    await sleep(POLL_MS);
  }
}
