import { runtimeConfigSchema, type RuntimeConfig } from '@domain/runtime-config';

let current: RuntimeConfig | null = null;

export class ConfigError extends Error {}

/** Fetches and validates `/config.json` (written at deploy, or by the local runtime). Called once at boot. */
export async function loadConfig(url = '/config.json'): Promise<RuntimeConfig> {
  let raw: unknown;
  try {
    const res = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } });
    if (!res.ok) throw new ConfigError(`${url}: HTTP ${res.status}`);
    raw = await res.json();
  } catch (err) {
    throw err instanceof ConfigError ? err : new ConfigError(`${url}: ${(err as Error).message}`);
  }
  const parsed = runtimeConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(`${url} non valido: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  }
  current = parsed.data;
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
