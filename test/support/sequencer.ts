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
 * files that hold it in common: it starts after the last of them.
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

/** The order with every `alone` file moved after the last `common` one (the others keep their places). */
export function aloneAfterCommon<T>(files: readonly T[], holdOf: (f: T) => Hold | undefined): T[] {
  const holds = files.map(holdOf);
  const lastCommon = holds.lastIndexOf('common');
  const early = files.filter((_f, i) => holds[i] === 'alone' && i < lastCommon);
  const rest = files.filter((f) => !early.includes(f));
  const at = rest.indexOf(files[lastCommon]!) + 1;
  return [...rest.slice(0, at), ...early, ...rest.slice(at)];
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
      out.push(...aloneAfterCommon(longestFirst(run, relative, seconds), (f) => holdOfFile(ROOT, f.moduleId)));
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
