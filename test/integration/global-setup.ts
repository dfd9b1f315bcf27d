import type { TestProject } from 'vitest/node';
import { startLocalStack } from '../../infra/local/stack';
import '../support/context';

/** Starts the emulators and the local gateway once per run, on free ports, in memory. */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
  // handlers log through Powertools; expected failures in tests would flood the output
  process.env.LOG_LEVEL ??= 'SILENT';
  const stack = await startLocalStack({ appOrigin: 'http://localhost:5173' });
  project.provide('stack', {
    ports: stack.ports,
    urls: stack.urls,
    pool: stack.pool,
    accounts: stack.accounts,
    env: stack.env,
  });
  return async () => {
    await stack.stop();
  };
}
