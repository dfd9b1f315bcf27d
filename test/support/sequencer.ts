import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { holdOfFile, type Hold } from './data-lock.ts';

/**
 * Vitest's order, but within each project the files that took longest in the last timed run
 * start first. Without a results cache (a fresh clone, CI) vitest keeps the discovery order,
 * and a long file that starts last (the e2e kyc flow, ~1.5 min; the security fuzz, ~2 min)
 * keeps the whole group waiting after the others have finished.
 *
 * The times are the suite's own: `npm run bench:suite` records every file's duration in
 * bench/results/suite.json (`fileSeconds`, from test/run-all.ts). A file with no recorded time
 * (new since that run) starts before the timed ones: its length is unknown, and starting it
 * early is what bounds the wait it can cause.
 *
 * A file that needs the stack's data alone (test/support/data-lock.ts) would only wait for the
 * files that hold it in common: it starts where they are expected to have ended.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

export function recordedFileSeconds(file = path.join(ROOT, 'bench/results/suite.json')): Map<string, number> {
  try {
    const suite = JSON.parse(readFileSync(file, 'utf8')) as { fileSeconds?: Record<string, number> };
    return new Map(Object.entries(suite.fileSeconds ?? {}));
  } catch {
    return new Map();
  }
}

/** The files in the order to start them: longest recorded first, unknown ones before all, ties in the given order. */
export function longestFirst<T>(files: readonly T[], relativePath: (f: T) => string, seconds: ReadonlyMap<string, number>): T[] {
  const time = (f: T) => seconds.get(relativePath(f)) ?? Infinity;
  return files
    .map((f, i) => ({ f, i, t: time(f) }))
    .sort((a, b) => (a.t === b.t ? a.i - b.i : b.t - a.t))
    .map(({ f }) => f);
}

/**
 * The order with the `alone` files moved to where they are expected to start once every
 * `common` file has ended: the recorded times played on `workers` workers, each file started
 * on the first one free (a file with no recorded time counts as 0 s). Started earlier, an alone
 * file holds a worker while it waits for the lock: the e2e OMI page, started fourth right after
 * the common kyc, review and a11y files, waited about 20 s for them with its worker idle. When
 * the common files are expected to end last, the alone ones go last (the integration stage).
 */
export function aloneWhenCommonEnds<T>(files: readonly T[], holdOf: (f: T) => Hold | undefined, seconds: (f: T) => number | undefined, workers: number): T[] {
  const alone = files.filter((f) => holdOf(f) === 'alone');
  if (!alone.length) return [...files];
  const rest = files.filter((f) => holdOf(f) !== 'alone');
  const free = Array.from({ length: Math.max(1, workers) }, () => 0);
  const starts: number[] = [];
  let commonEnd = 0;
  for (const f of rest) {
    const w = free.indexOf(Math.min(...free));
    starts.push(free[w]!);
    free[w]! += seconds(f) ?? 0;
    if (holdOf(f) === 'common') commonEnd = Math.max(commonEnd, free[w]!);
  }
  const at = starts.findIndex((start) => start >= commonEnd);
  return at < 0 ? [...rest, ...alone] : [...rest.slice(0, at), ...alone, ...rest.slice(at)];
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const seconds = recordedFileSeconds();
    const relative = (f: TestSpecification) => path.relative(ROOT, f.moduleId).split(path.sep).join('/');
    // groups and projects stay where vitest put them (one run per project): only files of a project move
    const out: TestSpecification[] = [];
    let run: TestSpecification[] = [];
    const flush = () => {
      const workers = Number(run[0]!.project.config.maxWorkers) || 1;
      // each file's source is read once, not at every look at its hold
      const holds = new Map(run.map((f) => [f, holdOfFile(ROOT, f.moduleId)]));
      out.push(...aloneWhenCommonEnds(longestFirst(run, relative, seconds), (f) => holds.get(f), (f) => seconds.get(relative(f)), workers));
      run = [];
    };
    for (const f of sorted) {
      if (run.length && run[0]!.project.name !== f.project.name) flush();
      run.push(f);
    }
    flush();
    return out;
  }
}
