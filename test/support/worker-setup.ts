/**
 * Runs before each file of the projects whose files share their worker's modules (isolate:
 * false: the AWS SDK, the emulators' clients, the use cases, the browser driver load once per
 * worker, not once per file), so what a file may have changed in the process is put back
 * first: its spies, fake timers, the environment (a file may point SES at a dead port, say)
 * and the AWS clients and configuration built from it (pointed at the run's stack, if any).
 */
import { inject, vi } from 'vitest';
import { resetAws } from '../../functions/lib/aws';
import { resetConfig } from '../../functions/lib/config';
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
