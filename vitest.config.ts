import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// the SPA's alias for the shared pure domain code, so tests import SPA modules as they are
const resolve = { alias: { '@domain': fileURLToPath(new URL('./functions/domain', import.meta.url)) } };

/**
 * Test projects. `npm test` runs them in this order: unit + infra (no I/O), integration
 * (handlers through the local gateway against emulators started on free ports), e2e
 * (the SPA in Debian Chromium against the whole local stack).
 */
export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          environment: 'node',
          // files share a worker's modules, so the default app is synthesized once per worker
          // (test/infra/helpers.ts); the tests only read templates
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // mail and state reached through the local backend: more than vitest's 1 s default
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // a page waits on the real local backend (a Lambda that may start cold while the
          // machine is busy): 1 s, vitest's default for expect.poll, is not enough there
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
