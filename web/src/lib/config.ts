import type { RuntimeConfig } from '@domain/runtime-config';

let current: RuntimeConfig | null = null;

export class ConfigError extends Error {}

/**
 * `/config.json` is written complete by runtimeConfigSchema (functions/domain/runtime-config.ts):
 * the web stack parses it at synth, the local runtime builds it typed. The page only checks
 * that what it needs to start is there, without loading zod before the first paint.
 */
function missingFields(raw: unknown): string[] {
  if (!raw || typeof raw !== 'object') return ['tutto'];
  const c = raw as Record<string, unknown>;
  const strings = ['apiUrl', 'region', 'userPoolId', 'userPoolClientId', 'privacyUrl'] as const;
  const objects = ['company', 'payments'] as const;
  return [
    ...strings.filter((k) => typeof c[k] !== 'string' || !c[k]),
    ...objects.filter((k) => !c[k] || typeof c[k] !== 'object'),
  ];
}

/** Fetches and checks `/config.json` (written at deploy, or by the local runtime). Called once at boot. */
export async function loadConfig(url = '/config.json'): Promise<RuntimeConfig> {
  let raw: unknown;
  try {
    // no cache option: the request must match index.html's preload to reuse its answer, and the
    // server sends config.json with `no-cache`, so it is never stale after a deploy
    const res = await fetch(url, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new ConfigError(`${url}: HTTP ${res.status}`);
    raw = await res.json();
  } catch (err) {
    throw err instanceof ConfigError ? err : new ConfigError(`${url}: ${(err as Error).message}`);
  }
  const missing = missingFields(raw);
  if (missing.length) throw new ConfigError(`${url} non valido: mancano ${missing.join(', ')}`);
  current = raw as RuntimeConfig;
  return current;
}

/** The runtime configuration; available once `loadConfig` has resolved (before the app renders). */
export function getConfig(): RuntimeConfig {
  if (!current) throw new Error('Runtime config not loaded');
  return current;
}

/** Same as getConfig, for components (the config never changes after boot). */
export function useConfig(): RuntimeConfig {
  return getConfig();
}
