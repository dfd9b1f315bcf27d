import type { DemoAccount } from '../../infra/local/seed';
import type { Ports } from '../../infra/local/stack';

/** What the global setups hand to test files (vitest `provide` / `inject`). */
interface StackInfo {
  ports: Ports;
  urls: { api: string; dynamodb: string; s3: string; ses: string; cognito: string; issuer: string };
  pool: { userPoolId: string; userPoolClientId: string };
  accounts: DemoAccount[];
  env: Record<string, string>;
  /** e2e only: the SPA's URL */
  webUrl?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
    /** infra only: the run's folder for cloud assemblies (test/infra/global-setup.ts) */
    infraOutdir: string;
    /** integration and e2e: the folder of the lock on the stack's data (test/support/data-lock.ts) */
    dataLockDir: string;
  }
}
