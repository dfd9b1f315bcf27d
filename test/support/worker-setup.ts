/**
 * Runs before each file of the projects whose files share their worker's modules (isolate:
 * false: the AWS SDK, the emulators' clients, the use cases, the browser driver load once per
 * worker, not once per file), so what a file may have changed in the process is put back
 * first: its spies, fake timers, the environment (a file may point SES at a dead port, say)
 * and the AWS clients and configuration built from it (pointed at the run's stack, if any).
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, vi } from 'vitest';
import { resetAws } from '../../functions/lib/aws';
import { resetConfig } from '../../functions/lib/config';
import { hold, holdOfFile } from './data-lock';
import { useStackEnv } from './helpers';

const shared = globalThis as typeof globalThis & { baseEnv?: Record<string, string | undefined> };
shared.baseEnv ??= { ...process.env };

vi.restoreAllMocks();
vi.useRealTimers();
for (const key of Object.keys(process.env)) if (!(key in shared.baseEnv)) delete process.env[key];
Object.assign(process.env, shared.baseEnv);
vi.unstubAllEnvs();
vi.unstubAllGlobals();
if (inject('stack')) useStackEnv();
else {
  resetConfig();
  resetAws();
}

// the stack's data, held in common or alone as test/support/data-lock.ts says, before the file's own hooks
const ROOT = path.resolve(import.meta.dirname, '../..');
const LOCK_WAIT_MS = 8 * 60_000;
const lockDir = inject('dataLockDir');
if (lockDir) {
  let release: (() => void) | undefined;
  beforeAll(async () => {
    const file = expect.getState().testPath!;
    const mode = holdOfFile(ROOT, file);
    if (mode) release = await hold(lockDir, mode, path.relative(ROOT, file), LOCK_WAIT_MS);
  }, LOCK_WAIT_MS + 10_000);
  afterAll(() => release?.());
}
