import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/sequencer.ts';

// handlers log through Powertools and expected failures would flood the output: silent unless
// asked (LOG_LEVEL=INFO npm test). Set here, before any module builds the logger: in this process
// (the global setups' stacks) and in the workers it starts (the security suites' own stacks).
process.env.LOG_LEVEL ??= 'SILENT';

// the SPA's alias for the shared pure domain code, so tests import SPA modules as they are
const resolve = { alias: { '@domain': fileURLToPath(new URL('./functions/domain', import.meta.url)) } };

/**
 * Unit files that replace a module (vi.mock): where a worker's files share modules, a module an
 * earlier file loaded would stay unmocked, so these run isolated (found by their text, so a new
 * one cannot be missed).
 */
const UNIT_MOCKING = readdirSync(fileURLToPath(new URL('./test/unit', import.meta.url)))
  .filter((f) => f.endsWith('.test.ts') && /\bvi\.(mock|doMock)\(/.test(readFileSync(fileURLToPath(new URL(`./test/unit/${f}`, import.meta.url)), 'utf8')))
  .map((f) => `test/unit/${f}`);

/** Files of a worker share its modules; test/support/worker-setup.ts resets what a file may change. */
const sharedWorkers = { isolate: false, setupFiles: ['test/support/worker-setup.ts'] };

const integration = {
  environment: 'node' as const,
  globalSetup: ['test/integration/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // the stage 150 s instead of 180 s, its CPU 253 s instead of 311 s
  ...sharedWorkers,
  // mail and state reached through the local backend: more than vitest's 1 s default
  expect: { poll: { timeout: 10_000 } },
};

const e2e = {
  environment: 'node' as const,
  globalSetup: ['test/e2e/global-setup.ts'],
  testTimeout: 90_000,
  hookTimeout: 180_000,
  ...sharedWorkers,
  // tests a file marks concurrent (the axe checks of a11y.test.ts): three pages at a time
  maxConcurrency: 3,
  // a page waits on the real local backend (a Lambda that may start cold while the
  // machine is busy): 1 s, vitest's default for expect.poll, is not enough there
  expect: { poll: { timeout: 10_000 } },
};

/**
 * Test projects. `npm test` runs them in this order: unit + infra (no I/O), integration
 * (handlers through the local gateway against emulators started on free ports), e2e (the SPA
 * in Debian Chromium against the whole local stack). The files of integration and e2e that
 * need the stack's data to themselves run beside the others that do not read it, under the
 * lock of test/support/data-lock.ts.
 */
export default defineConfig({
  test: {
    // within each project, the files known to take longest start first (test/support/sequencer.ts)
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: UNIT_MOCKING,
          environment: 'node',
          // CPU-bound: one worker per core (vitest's default here is one in all)
          maxWorkers: 2,
          // the stage's unit files in 12 s instead of 20 s
          ...sharedWorkers,
        },
      },
      {
        resolve,
        test: {
          // the files that mock a module: each in a fresh module graph, where the mock is the only copy
          name: 'unit-isolated',
          include: UNIT_MOCKING,
          environment: 'node',
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/infra/global-setup.ts'],
          // files share a worker's modules, so the default app is synthesized once per worker
          // (test/infra/helpers.ts); the tests only read templates
          isolate: false,
          // beside the unit files (one pool per group order): one worker per core
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          ...integration,
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // files run side by side against the one stack (every test makes its own ids); they
          // mostly wait on the emulators, so more workers than cores
          maxWorkers: 3,
        },
      },
      {
        test: {
          ...e2e,
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // three browsers at a time: with two, a third of the CPU stayed idle (the pages wait on
          // the backend); four measured no faster than three (the stage 251 s against 256 s, every
          // file slower for the CPU they share)
          maxWorkers: 3,
        },
      },
    ],
  },
});
