import data from './comuni.json';
import { normalizePlaceName, provinceByCode } from './provinces';

/**
 * The comuni of every province (ISTAT "Elenco comuni italiani", see README.md). This module
 * carries the whole list (~56 KB gzip): the SPA loads it with `loadComuni()` from index.ts
 * so it becomes a separate chunk; the server imports it directly.
 */
export interface Comune {
  /** ISTAT denomination, e.g. "Bolzano/Bozen", "Reggio nell'Emilia" */
  name: string;
  /** ISTAT 6-digit code (the OMI files carry it, region-prefixed, in Comune_ISTAT) */
  istat: string;
  province: string;
}

const raw = data as Record<string, string[]>;
const cache = new Map<string, readonly Comune[]>();
const index = new Map<string, Map<string, Comune>>();

/** The comuni of a province (by sigla), ordered by name; empty for an unknown code. */
export function comuniOf(provinceCode: string): readonly Comune[] {
  const province = provinceByCode(provinceCode);
  if (!province) return [];
  let list = cache.get(province.code);
  if (!list) {
    list = (raw[province.code] ?? []).map((s) => ({ name: s.slice(3), istat: province.istat + s.slice(0, 3), province: province.code }));
    cache.set(province.code, list);
  }
  return list;
}

function indexOf(provinceCode: string): Map<string, Comune> {
  const code = provinceCode.trim().toUpperCase();
  let map = index.get(code);
  if (!map) {
    map = new Map();
    for (const c of comuniOf(code)) {
      map.set(normalizePlaceName(c.name), c);
      // bilingual names ("Bolzano/Bozen"): each part alone also matches
      if (c.name.includes('/')) for (const part of c.name.split('/')) if (!map.has(normalizePlaceName(part))) map.set(normalizePlaceName(part), c);
    }
    index.set(code, map);
  }
  return map;
}

/**
 * The comune of that province with that name, matched case- and accent-insensitively
 * (also OMI's backtick spellings and either part of a bilingual name); undefined if the
 * comune is not in that province.
 */
export function findComune(provinceCode: string, name: string): Comune | undefined {
  if (!name || !provinceCode) return undefined;
  return indexOf(provinceCode).get(normalizePlaceName(name));
}

/** True when the comune belongs to the province. */
export function isComuneOf(provinceCode: string, name: string): boolean {
  return findComune(provinceCode, name) !== undefined;
}

/** Every comune, for counts and checks. */
export function allComuni(): Comune[] {
  return Object.keys(raw).flatMap((code) => [...comuniOf(code)]);
}
