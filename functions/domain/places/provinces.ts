import { PLACES_SOURCE, PROVINCES_DATA } from './provinces-data';

/**
 * Italian provinces (and the other ISTAT supra-municipal units: metropolitan cities, free
 * consortia, Sud Sardegna, Aosta): the sigla used by OMI and by the wizard, the name, the
 * region and the ISTAT code. Small and eager: the comuni are in a separate, lazily loaded
 * chunk (see index.ts).
 */
export interface Province {
  /** sigla automobilistica, e.g. MI */
  code: string;
  name: string;
  region: string;
  /** ISTAT 3-digit code of the province */
  istat: string;
}

export { PLACES_SOURCE };

export const PROVINCES: readonly Province[] = PROVINCES_DATA;

const byCode = new Map(PROVINCES.map((p) => [p.code, p]));

/** Every province, ordered by name. */
export function provinces(): readonly Province[] {
  return PROVINCES_BY_NAME;
}

const PROVINCES_BY_NAME = [...PROVINCES].sort((a, b) => a.name.localeCompare(b.name, 'it'));

export function provinceByCode(code: string | null | undefined): Province | undefined {
  return code ? byCode.get(code.trim().toUpperCase()) : undefined;
}

export function isProvinceCode(code: string | null | undefined): boolean {
  return provinceByCode(code) !== undefined;
}

/** Lower-case, accent-free, OMI backticks as apostrophes, single spaces: for matching names. */
export function normalizePlaceName(name: string): string {
  return name
    .replace(/`/g, "'")
    .replace(/[’‘]/g, "'")
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s*'\s*/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
