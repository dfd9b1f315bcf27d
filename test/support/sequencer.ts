import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order, but within each project the files known to take longest start first. Without
 * a results cache (a fresh clone, CI) vitest keeps the discovery order, and a long file that
 * starts last (the security fuzz, ~2-3 min) keeps the whole group waiting after the others
 * have finished. Longest first, from the suite's own timings (bench/results/suite.json).
 */
const LONGEST_FIRST = [
  'test/integration/security-fuzz.test.ts',
  'test/integration/identity.test.ts',
  'test/integration/agent-requests.test.ts',
  'test/integration/security-matrix.test.ts',
  'test/integration/visits.test.ts',
  'test/integration/security-uploads.test.ts',
];

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // groups and projects stay where vitest put them (one run per project): only files of a project move
    const out: TestSpecification[] = [];
    let run: TestSpecification[] = [];
    const flush = () => {
      out.push(...run.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f));
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
