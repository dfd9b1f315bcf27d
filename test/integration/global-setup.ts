import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startLocalStack, type LocalStack } from '../../infra/local/stack';
import { newLockDir } from '../support/data-lock';
import '../support/context';

/**
 * Starts the emulators and the local gateway once per run, on free ports, in memory, and
 * makes the folder of the lock on their data (test/support/data-lock.ts). A project that
 * uses this setup shares the one stack: the first setup starts it, the last teardown stops it.
 */
const shared = globalThis as typeof globalThis & { integrationStack?: { stack: Promise<LocalStack>; lockDir?: string; users: number } };

export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
  // handlers log through Powertools; expected failures in tests would flood the output
  process.env.LOG_LEVEL ??= 'SILENT';
  shared.integrationStack ??= { stack: startLocalStack({ appOrigin: 'http://localhost:5173' }), users: 0 };
  shared.integrationStack.users++;
  const stack = await shared.integrationStack.stack;
  const lockDir = (shared.integrationStack.lockDir ??= newLockDir());
  project.provide('dataLockDir', lockDir);
  project.provide('stack', {
    ports: stack.ports,
    urls: stack.urls,
    pool: stack.pool,
    accounts: stack.accounts,
    env: stack.env,
  });
  return async () => {
    if (--shared.integrationStack!.users > 0) return;
    shared.integrationStack = undefined;
    rmSync(lockDir, { recursive: true, force: true });
    await stack.stop();
  };
}
