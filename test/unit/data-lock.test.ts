import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { E2E_ALONE, hold, holdOf, holdOfFile, INTEGRATION_ALONE } from '../support/data-lock';
import { aloneWhenCommonEnds } from '../support/sequencer';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'data-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Whether the promise has settled after the lock's own poll had time to run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setTimeout(r, 250));
  return done;
}

describe('the lock on the stack data', () => {
  it('lets common holders run together; an alone one waits for all of them, and common ones wait for it', async () => {
    const a = await hold(dir, 'common', 'a', 5_000);
    const b = await hold(dir, 'common', 'b', 5_000);
    const alone = hold(dir, 'alone', 'omi', 5_000);
    expect(await settled(alone)).toBe(false);
    a();
    expect(await settled(alone)).toBe(false);
    b();
    const releaseAlone = await alone;
    const later = hold(dir, 'common', 'c', 5_000);
    expect(await settled(later)).toBe(false);
    releaseAlone();
    (await later)();
  });

  it('keeps new common holders out while an alone one waits, so it is not starved', async () => {
    const a = await hold(dir, 'common', 'a', 5_000);
    const alone = hold(dir, 'alone', 'omi', 5_000);
    await settled(alone);
    const newcomer = hold(dir, 'common', 'b', 5_000);
    expect(await settled(newcomer)).toBe(false);
    a();
    const releaseAlone = await alone;
    expect(await settled(newcomer)).toBe(false);
    releaseAlone();
    (await newcomer)();
  });

  it('runs alone holders one at a time', async () => {
    const first = await hold(dir, 'alone', 'first', 5_000);
    const others = [hold(dir, 'alone', 'second', 5_000), hold(dir, 'alone', 'third', 5_000)];
    expect(await Promise.all(others.map(settled))).toEqual([false, false]);
    first();
    const next = await Promise.race(others.map((p, i) => p.then((release) => ({ release, i }))));
    expect(await settled(others[1 - next.i]!)).toBe(false);
    next.release();
    (await others[1 - next.i]!)();
    expect(existsSync(path.join(dir, 'alone'))).toBe(false);
  });

  it('ignores, and removes, what a process that is gone left, common or alone', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    mkdirSync(path.join(dir, 'common'), { recursive: true });
    const stale = path.join(dir, 'common', `${gone}-x`);
    writeFileSync(stale, 'crashed.test.ts');
    (await hold(dir, 'alone', 'omi', 1_000))();
    expect(existsSync(stale)).toBe(false);
    writeFileSync(path.join(dir, 'alone'), `${gone}\ncrashed-omi.test.ts`);
    (await hold(dir, 'common', 'review', 1_000))();
    writeFileSync(path.join(dir, 'alone'), `${gone}\ncrashed-omi.test.ts`);
    (await hold(dir, 'alone', 'omi', 1_000))();
    expect(existsSync(path.join(dir, 'alone'))).toBe(false);
  });

  it('gives up after its time with an error naming who holds the data, leaving no marker of its own', async () => {
    const a = await hold(dir, 'common', 'test/e2e/kyc.test.ts', 5_000);
    await expect(hold(dir, 'alone', 'test/e2e/omi.test.ts', 300)).rejects.toThrow(
      'test/e2e/omi.test.ts: the shared test data was still held after 0.3 s, by test/e2e/kyc.test.ts',
    );
    expect(existsSync(path.join(dir, 'alone'))).toBe(false);
    a();
  });
});

describe('who holds the data', () => {
  it('alone: the listed integration files and the OMI pages; common: the other integration files and the pages that import OMI data', () => {
    expect(holdOf('test/integration/reminders.test.ts', '')).toBe('alone');
    expect(holdOf('test/e2e/omi.test.ts', 'importOmi(x)')).toBe('alone');
    expect(holdOf('test/integration/visits.test.ts', 'await api(...)')).toBe('common');
    expect(holdOf('test/integration/security-fuzz.test.ts', 'stopOwnStack = await useOwnStack();')).toBeUndefined();
    expect(holdOf('test/e2e/review.test.ts', "await importOmi(MILANO.valori2025, '2025-S1');")).toBe('common');
    expect(holdOf('test/e2e/users.test.ts', 'await signIn(page)')).toBeUndefined();
    expect(holdOf('test/unit/fees.test.ts', '')).toBeUndefined();
  });

  it('reads the files themselves: every listed file exists, the fuzz has its own stack, the review page imports OMI data', () => {
    for (const f of [...INTEGRATION_ALONE, ...E2E_ALONE]) expect(existsSync(path.join(ROOT, f)), f).toBe(true);
    expect(holdOfFile(ROOT, path.join(ROOT, 'test/integration/security-fuzz.test.ts'))).toBeUndefined();
    expect(holdOfFile(ROOT, path.join(ROOT, 'test/e2e/review.test.ts'))).toBe('common');
    expect(holdOfFile(ROOT, path.join(ROOT, 'test/e2e/voice-widget.test.ts'))).toBeUndefined();
  });

  it('starts the alone files where the recorded times say the common ones have ended, on as many workers as the project has', () => {
    const holds: Record<string, 'common' | 'alone' | undefined> = { c1: 'common', c2: 'common', c3: 'common', a1: 'alone', a2: 'alone', n1: undefined, n2: undefined, n3: undefined };
    const time: Record<string, number> = { c1: 80, c2: 55, c3: 50, n1: 45, n2: 30, n3: 25, a1: 20, a2: 5 };
    const place = (files: string[], workers: number) => aloneWhenCommonEnds(files, (f) => holds[f], (f) => time[f], workers);
    // three workers: c1 ends at 80; n1 starts at 50 and n2 at 55, n3 at 80: the alone files go before n3
    expect(place(['c1', 'c2', 'c3', 'a1', 'n1', 'n2', 'a2', 'n3'], 3)).toEqual(['c1', 'c2', 'c3', 'n1', 'n2', 'a1', 'a2', 'n3']);
    // one worker: every common file has ended when n1 starts
    expect(place(['a1', 'c1', 'n1', 'c2', 'n2'], 1)).toEqual(['c1', 'n1', 'c2', 'a1', 'n2']);
    // the common files end last: the alone ones go last
    expect(place(['n1', 'a1', 'c1', 'c2'], 2)).toEqual(['n1', 'c1', 'c2', 'a1']);
    // no common file: at the start; no alone file: unchanged; an unknown time counts as 0 s
    expect(place(['n1', 'a1', 'n2'], 2)).toEqual(['a1', 'n1', 'n2']);
    expect(place(['c1', 'n1'], 2)).toEqual(['c1', 'n1']);
    // x (no time) takes no worker time: n1 starts at 0 beside c2, so a1 goes after it (x at 100 s would put it before)
    expect(place(['x', 'c2', 'n1', 'a1'], 2)).toEqual(['x', 'c2', 'n1', 'a1']);
    expect(aloneWhenCommonEnds(['x', 'c2', 'n1', 'a1'], (f) => holds[f], (f) => (f === 'x' ? 100 : time[f]), 2)).toEqual(['x', 'c2', 'a1', 'n1']);
  });
});
