import type { TestProject } from 'vitest/node';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startLocalStack, type LocalStack } from '../../infra/local/stack';
import { freePort } from '../../infra/local/emulators';
import { startStaticWeb } from '../../infra/local/web-server';
import { newLockDir } from '../support/data-lock';
import '../support/context';

/**
 * The whole product for the browser tests: the production build of the SPA served as
 * CloudFront would serve it, in front of the local stack (emulators on free ports) running
 * the Lambda bundles that ship, not the sources.
 */
const shared = globalThis as typeof globalThis & {
  e2eStack?: { started: Promise<{ stack: LocalStack; web: { url: string; stop: () => Promise<void> } }>; lockDir?: string; users: number };
};

/** `vite build` of the SPA as users get it: NODE_ENV is 'test' under vitest, which would make Vite emit React's development build (with source paths). */
function buildSpa(root: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    child.on('error', reject);
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`vite build ended with ${code ?? signal}`))));
  });
}

/**
 * Builds the SPA while the stack starts (the two overlap: 21 s instead of 28 s on two cores),
 * then the web server: once per run, shared by the two e2e projects.
 */
async function start() {
  process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
  // handlers log through Powertools; expected failures in tests would flood the output
  process.env.LOG_LEVEL ??= 'SILENT';
  const root = path.resolve(import.meta.dirname, '../..');
  const webPort = await freePort();
  const appOrigin = `http://localhost:${webPort}`;
  const built = buildSpa(root);
  built.catch(() => undefined); // awaited below, once the stack is up (or stopped)
  // the handlers as AWS runs them: the esbuild bundles with their module substitutions
  const stack = await startLocalStack({ appOrigin, bundles: true });
  // a build or a web server that fails must not leave the emulators (a Java process) running
  try {
    await built;
    const web = await startStaticWeb({ port: webPort, distDir: path.join(root, 'web', 'dist'), apiUrl: stack.urls.api, config: stack.runtimeConfig });
    return { stack, web };
  } catch (err) {
    await stack.stop();
    throw err;
  }
}

export default async function setup(project: TestProject) {
  shared.e2eStack ??= { started: start(), users: 0 };
  shared.e2eStack.users++;
  const { stack, web } = await shared.e2eStack.started;
  // the folder of the lock on the stack's data (test/support/data-lock.ts)
  const lockDir = (shared.e2eStack.lockDir ??= newLockDir());
  project.provide('dataLockDir', lockDir);
  project.provide('stack', {
    ports: stack.ports,
    urls: stack.urls,
    pool: stack.pool,
    accounts: stack.accounts,
    env: stack.env,
    webUrl: web.url,
  });
  return async () => {
    if (--shared.e2eStack!.users > 0) return;
    shared.e2eStack = undefined;
    rmSync(lockDir, { recursive: true, force: true });
    await web.stop();
    await stack.stop();
  };
}
