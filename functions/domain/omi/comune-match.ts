/**
 * Which current comune an OMI row belongs to, by identity rather than spelling (pure).
 *
 * The Agenzia delle Entrate writes comuni as its cadastral system knows them: older files
 * keep Monza under MI, Barletta under BA, Carbonia under CA, Forlì under FO, with the ISTAT
 * code of that time; names are abbreviated ("S BENEDETTO DEL TRONTO", "CASTIONE D
 * PRESOLANA"), cut at 50 characters, or German only. The form offers the current ISTAT list
 * (domain/places). A row is tied to one of its comuni, in this order:
 * 1. `istat`: the 6-digit code in `Comune_ISTAT` (region prefix + code) is a current comune
 *    and it is the same comune (same cadastral code, or a compatible name): a code is
 *    never trusted alone, since ISTAT reassigns the codes of a province it redraws;
 * 2. `catastale`: the cadastral code in `Comune_amm` is a current comune's. It does not
 *    change when a comune moves to a new province, so it stands for a table of the ISTAT
 *    code changes since 2004 (MB, BT, FM, the Sardinian provinces, the comuni that moved);
 * 3. `nome`: the name, abbreviations expanded, names cut at 50 characters read as cut,
 *    matches exactly one comune of the row's region.
 * Anything else is unmatched: the import lists it in its report.
 */
import cadastralData from '../places/cadastral.json';
import { comuniOf, findComune, type Comune } from '../places/comuni';
import { PROVINCES } from '../places/provinces';
import { comuneSearchKey } from './names';

export interface OmiComuneRef {
  prov: string;
  regione: string;
  /** region prefix + 6-digit ISTAT code, not zero-padded: `3015146` */
  comuneIstat: string;
  /** cadastral code: `F205` */
  comuneAmm: string;
  comuneDescrizione: string;
}

export type ComuneMatchRule = 'istat' | 'catastale' | 'nome';

export interface ComuneMatch {
  comune: Comune;
  by: ComuneMatchRule;
}

/** ISTAT region codes (the prefix of `Comune_ISTAT`). */
const REGION_CODES: Record<string, number> = {
  piemonte: 1, valledaosta: 2, lombardia: 3, trentinoaltoadige: 4, veneto: 5, friuliveneziagiulia: 6, liguria: 7,
  emiliaromagna: 8, toscana: 9, umbria: 10, marche: 11, lazio: 12, abruzzo: 13, molise: 14, campania: 15, puglia: 16,
  basilicata: 17, calabria: 18, sicilia: 19, sardegna: 20,
};

const letters = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z]/g, '');

/** "VALLE D'AOSTA/VALLEE D'AOSTE" and "Valle d'Aosta" -> 2; undefined when unknown. */
function regionCode(name: string): number | undefined {
  const key = letters(name.split('/')[0]!);
  return REGION_CODES[key];
}

interface Tables {
  byIstat: Map<string, Comune>;
  byCadastral: Map<string, Comune>;
  cadastralOf: Map<string, string>;
  byRegion: Map<number, Comune[]>;
}

let tables: Tables | undefined;

function load(): Tables {
  if (tables) return tables;
  const cadastral = cadastralData as Record<string, string>;
  const t: Tables = { byIstat: new Map(), byCadastral: new Map(), cadastralOf: new Map(), byRegion: new Map() };
  for (const p of PROVINCES) {
    const codes = cadastral[p.code] ?? '';
    const region = regionCode(p.region);
    comuniOf(p.code).forEach((c, i) => {
      const code = codes.slice(i * 4, i * 4 + 4);
      t.byIstat.set(c.istat, c);
      if (code.length === 4) {
        t.byCadastral.set(code, c);
        t.cadastralOf.set(c.istat, code);
      }
      if (region !== undefined) {
        const list = t.byRegion.get(region) ?? [];
        list.push(c);
        t.byRegion.set(region, list);
      }
    });
  }
  return (tables = t);
}

/** Words of a comune's name: lower case, no accents; apostrophes, backticks, `/` and `-` split words. */
function words(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** AdE's abbreviations: a one-letter word stands for these (and any word starting with it, see below). */
const ABBREVIATIONS: Record<string, readonly string[]> = {
  s: ['san', 'santo', 'santa', 'sant', 'santi', 'santissimo', 's'],
  d: ['di', 'del', 'della', 'dei', 'degli', 'delle', 'dello', 'd', 'da'],
  m: ['monte', 'marina', 'm'],
  v: ['val', 'valle', 'villa', 'v'],
  c: ['castel', 'castello', 'casal', 'c'],
};

function wordMatches(omi: string, istat: string, last: boolean, cut: boolean): boolean {
  if (omi === istat) return true;
  if (omi.length === 1) return (ABBREVIATIONS[omi] ?? []).includes(istat) || istat.startsWith(omi);
  // the last word of a name cut at 50 characters is a prefix
  return last && cut && istat.startsWith(omi);
}

/** Published names are cut at this length. */
const CUT_AT = 50;

/**
 * True when an OMI name is a spelling of the ISTAT name: the same words in order, where a
 * one-letter word abbreviates a word, a name cut at 50 characters stops early, and a
 * bilingual ISTAT name ("Bolzano/Bozen") matches either of its names alone.
 */
export function namesCompatible(istatName: string, omiName: string): boolean {
  const cut = omiName.trim().length >= CUT_AT - 1;
  const omi = words(omiName);
  if (!omi.length) return false;
  const variants = [istatName, ...(istatName.includes('/') ? istatName.split('/') : [])].map(words);
  return variants.some((ist) => {
    if (cut ? omi.length > ist.length : omi.length !== ist.length) return false;
    return omi.every((w, i) => wordMatches(w, ist[i]!, i === omi.length - 1, cut));
  });
}

/** The 6-digit ISTAT code of `Comune_ISTAT` (region prefix dropped); undefined when not a code. */
function istatCode(raw: string): string | undefined {
  const digits = raw.trim();
  if (!/^\d{4,8}$/.test(digits)) return undefined;
  return digits.slice(-6).padStart(6, '0');
}

/** The region of a row: the prefix of `Comune_ISTAT`, else its `Regione`. */
function regionOf(ref: OmiComuneRef): number | undefined {
  const digits = ref.comuneIstat.trim();
  if (/^\d{7,8}$/.test(digits)) return Number(digits.slice(0, -6));
  return regionCode(ref.regione);
}

/** The current comune of an OMI row, and by which rule; null when none (see the module comment). */
export function matchOmiComune(ref: OmiComuneRef): ComuneMatch | null {
  const t = load();
  const amm = ref.comuneAmm.trim().toUpperCase();
  const code = istatCode(ref.comuneIstat);
  const byCode = code ? t.byIstat.get(code) : undefined;
  if (byCode && (t.cadastralOf.get(byCode.istat) === amm || namesCompatible(byCode.name, ref.comuneDescrizione))) {
    return { comune: byCode, by: 'istat' };
  }
  const byCadastral = t.byCadastral.get(amm);
  if (byCadastral) return { comune: byCadastral, by: 'catastale' };
  const region = regionOf(ref);
  const candidates = (region !== undefined ? t.byRegion.get(region) : undefined) ?? [];
  const named = candidates.filter((c) => namesCompatible(c.name, ref.comuneDescrizione));
  return named.length === 1 ? { comune: named[0]!, by: 'nome' } : null;
}

const memo = new Map<string, ComuneMatch | null>();

/** matchOmiComune, remembered per (code, cadastral code, name): an import meets each comune ~20 times. */
export function matchOmiComuneCached(ref: OmiComuneRef): ComuneMatch | null {
  const key = `${ref.comuneIstat}|${ref.comuneAmm}|${ref.comuneDescrizione}|${ref.regione}`;
  let hit = memo.get(key);
  if (hit === undefined) {
    if (memo.size > 50_000) memo.clear();
    hit = matchOmiComune(ref);
    memo.set(key, hit);
  }
  return hit;
}

/** The cadastral code of a current comune (by its ISTAT code). */
export function cadastralCodeOf(istat: string): string | undefined {
  return load().cadastralOf.get(istat);
}

/** The lookup id of a row tied to no current comune: its province and name key. */
export const unmatchedComuneId = (prov: string, name: string) => `${prov.trim().toUpperCase()}#${comuneSearchKey(name)}`;

/**
 * The comune a stored OMI record is found by (model/keys.ts, gsi1): the ISTAT code of the
 * current comune the row belongs to, else its province and name.
 */
export function omiComuneId(ref: OmiComuneRef): string {
  const match = matchOmiComuneCached(ref);
  return match ? match.comune.istat : unmatchedComuneId(ref.prov, ref.comuneDescrizione);
}

/**
 * The province a comune id (omiComuneId) belongs to today: the province of the ISTAT code
 * (its first three digits), or the province written in an unmatched comune's id. A record
 * stored under another province was written under an old code (Monza under MI).
 */
export function homeProvinceOf(comuneId: string): string | undefined {
  if (/^\d{6}$/.test(comuneId)) return PROVINCES.find((p) => p.istat === comuneId.slice(0, 3))?.code;
  return comuneId.split('#')[0];
}

/**
 * The ids a comune of the form is looked up by, in order: its ISTAT code (the rows tied to
 * it), then its province and name (data stored before rows were tied to comuni, and a
 * comune the form does not list).
 */
export function comuneIdsOf(province: string, city: string): string[] {
  const comune = findComune(province, city);
  const byName = unmatchedComuneId(province, city);
  return comune ? [comune.istat, byName] : [byName];
}
