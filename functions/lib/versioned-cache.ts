/**
 * A per-container cache of values that change only with a known data version (e.g. the OMI
 * data, which only an import or a clear changes): an entry answers while it was read at the
 * current version and is younger than `ttlMs` (a bound on staleness whatever the version
 * says); at most `max` entries, the oldest out first. The value is kept as its promise, so
 * calls at once share one read; a failed read is dropped.
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, { version: string; at: number; value: Promise<T> }>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
  ) {}

  /** The value of `key` read at `version`, else `load()` kept under that version (`store` false: not kept). */
  get(key: string, version: string, load: () => Promise<T>, store = true, now = Date.now()): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.version === version && now - hit.at < this.ttlMs) return hit.value;
    const value = load();
    if (!store) return value;
    this.entries.delete(key);
    this.entries.set(key, { version, at: now, value });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
