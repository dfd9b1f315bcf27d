import { config } from '../config';

const resets: (() => void)[] = [];

/** Each client module registers how to forget its client. */
export function onReset(fn: () => void): void {
  resets.push(fn);
}

/** Drop the cached clients (after the configuration changed: local runtime, tests). */
export function resetAws(): void {
  for (const fn of resets) fn();
}

const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Region, plus endpoint and dummy credentials when an emulator endpoint is configured. */
export function clientOptions(endpoint: string | undefined, credentials = localCredentials) {
  return { region: config().AWS_REGION, ...(endpoint ? { endpoint, credentials } : {}) };
}
