/**
 * The valuation use case: reads the comune's OMI data and runs the pure engine
 * (functions/domain/valuation.ts). The comune is found by identity (its ISTAT code, then its
 * province and name: domain/omi/comune-match.ts). Reads only what the valuation shows: the
 * newest semester's key, then its candidates and zone descriptions (one GetItem of the
 * comune's digest bucket when that semester is digested, comune-digest.ts; else two Queries
 * in parallel), then the
 * names of the semesters holding the zone's province and one Query of the zone's history
 * index for its quotations and descriptions in every semester (the price trend). What it read is reused while the OMI data
 * stays the same (valuate).
 * Shared by the admin's POST /valuations/evaluate, the valuation on submission
 * (model/valuation.ts) and the admin's valuation of a property (review).
 */
import { comuneIdsOf } from '../../domain/omi/comune-match';
import { codTipForCategory } from '../../domain/omi/tipologia';
import type { OmiQuotation, OmiZoneInfo } from '../../domain/omi/types';
import { matchZones } from '../../domain/omi/zone-match';
import { evaluateProperty, selectQuotation, type ValuationRequest, type ValuationResult } from '../../domain/valuation';
import { readComuneDigest, type DigestRef } from './comune-digest';
import { hasUsable, newestSemesterOf, quotationsBefore, quotationsOfLines, quotationsOfSemester } from './quotations';
import { lastOmiDataState, omiDataState, type OmiDataState } from './semesters';
import { VersionedCache } from '../../lib/versioned-cache';
import { loadZoneHistory } from './zone-history';
import { newestZonesOfComune, zoneInfoOfLine, zonesOfComune } from './zones';

/** The zone the valuation will most likely choose, known from the zone descriptions alone: the admin's, else the best address match. */
type ZoneGuess = (zones: readonly OmiZoneInfo[]) => string | undefined;

/**
 * The valuation's data, under the first of the comune's ids that has any: the quotations of
 * one type of the newest semester and that semester's zone descriptions (in parallel, once
 * the newest semester is known from one key read). When that semester has no usable value
 * of the type, the older semesters down to the newest usable one, and its zone descriptions.
 * `onZones` hears the newest semester's descriptions as soon as they arrive (before the
 * quotations, usually).
 */
export async function loadValuationData(
  prov: string,
  comune: string,
  codTip: number,
  onZones?: (zones: readonly OmiZoneInfo[]) => void,
  /**
   * the newest semester holding the form's province (the data state knows it): tried first
   * without the key read; when the comune has nothing there, its own newest semester is read.
   * AdE files wrote a comune under an older province code only in older semesters, so no
   * semester newer than this one holds the comune.
   */
  newestHint?: string,
  /** the digests a comune of a semester is read from instead of the zone items (OmiDataState.digestsOf), undefined when it is not */
  digestsOf?: (semester: string, comuneId: string) => readonly { prov: string; ref: DigestRef }[] | undefined,
): Promise<{ rows: OmiQuotation[]; zones: OmiZoneInfo[] }> {
  const heard = (zones: OmiZoneInfo[]) => {
    onZones?.(zones);
    return zones;
  };
  const read = async (id: string, semester: string): Promise<[OmiQuotation[], OmiZoneInfo[]]> => {
    const refs = digestsOf?.(semester, id);
    const digest = refs ? await readComuneDigest(semester, id, refs) : 'unreadable';
    if (digest === 'none') return [[], heard(await newestZonesOfComune(id))];
    if (digest !== 'unreadable') {
      const rows = digest.quotations.flatMap(([, lines]) => quotationsOfLines(lines, semester, codTip));
      const zones = digest.zones.length ? digest.zones.map(([, line]) => zoneInfoOfLine(line, semester)) : await newestZonesOfComune(id);
      return [rows, heard(zones)];
    }
    return Promise.all([quotationsOfSemester(id, semester, codTip), zonesOfComune(id, semester).then(heard)]);
  };
  for (const [i, id] of comuneIdsOf(prov, comune).entries()) {
    let newest = i === 0 ? newestHint : undefined;
    let [rows, zones]: [OmiQuotation[], OmiZoneInfo[]] = [[], []];
    if (newest) [rows, zones] = await read(id, newest);
    if (!rows.length && !zones.length) {
      newest = await newestSemesterOf(id);
      if (newest) [rows, zones] = await read(id, newest);
    }
    if (!newest) continue;
    if (hasUsable(rows)) return { rows, zones };
    const older = await quotationsBefore(id, codTip, newest);
    if (!older.length) return { rows, zones };
    return { rows: [...rows, ...older], zones: await zonesOfComune(id, oldestSemester(older)) };
  }
  return { rows: [], zones: [] };
}

/** The semester the engine values from: older rows stop at the newest usable one. */
const oldestSemester = (rows: readonly OmiQuotation[]) => rows.reduce((a, r) => (r.semester < a ? r.semester : a), rows[0]!.semester);

type ZoneHistory = Awaited<ReturnType<typeof loadZoneHistory>>;
type ValuationData = Awaited<ReturnType<typeof loadValuationData>>;

/**
 * What the valuation reads, kept per container while the OMI data stays the same
 * (semesters.ts omiDataState: its version changes with every import and clear; nothing is
 * kept while an import is under way) and for at most a minute: a comune's rows and
 * zone descriptions for one type, a zone's history of one type. A valuation then reads only the data state.
 */
const CACHE_TTL_MS = 60_000;
const dataCache = new VersionedCache<ValuationData>(1_000, CACHE_TTL_MS);
const historyCache = new VersionedCache<ZoneHistory>(2_000, CACHE_TTL_MS);

/** Empties the valuation's per-container cache (the benchmark measures cold valuations with it). */
export function clearValuationCache(): void {
  dataCache.clear();
  historyCache.clear();
}

/**
 * The valuation. The OMI data state (one GetItem of its version while it stays the same) says whether what an
 * earlier valuation read is still true: reads made at the same version are reused. The reads
 * do not wait for it: they start at once with the state this container read last and count
 * only when the current state turns out to be that same version (otherwise they are made
 * again with the current one). The chosen zone's history (its rows and descriptions in every
 * semester of its province) is read as soon as the zone descriptions tell which zone it will
 * most likely be (the admin's, or the one the address names), alongside the quotations; when
 * the engine then chooses another zone (no usable row there, or no match), after the choice.
 */
export async function valuate(req: ValuationRequest): Promise<ValuationResult> {
  const codTip = codTipForCategory(req.omiCategory);
  if (codTip === null) return evaluateProperty(req, { rows: [] });
  const last = lastOmiDataState();
  const current = omiDataState();
  if (last) {
    const early = valuateAt(last, req, codTip);
    early.catch(() => undefined); // awaited below when the state did not change
    const state = await current;
    if (state.version === last.version && state.importing === last.importing) return early;
    return valuateAt(state, req, codTip);
  }
  return valuateAt(await current, req, codTip);
}

async function valuateAt(state: OmiDataState, req: ValuationRequest, codTip: number): Promise<ValuationResult> {
  const keep = !state.importing;
  // the zone's province is the form's but for a file that wrote the comune under an old one (Monza under MI)
  const historyOf = (prov: string, linkZona: string) =>
    historyCache.get(
      `${prov}|${linkZona}|${codTip}`,
      state.version,
      () => loadZoneHistory(prov, linkZona, state.semestersOf(prov), state.historyIndexedOf(prov), codTip),
      keep,
    );
  const guess = zoneGuess(req);
  let early: { prov: string; linkZona: string; history: Promise<ZoneHistory> } | undefined;
  const { rows, zones } = await dataCache.get(
    `${req.province.toUpperCase()}|${req.city}|${codTip}`,
    state.version,
    () =>
      loadValuationData(
        req.province,
        req.city,
        codTip,
        (newestZones) => {
        const linkZona = guess(newestZones);
        const zone = linkZona ? newestZones.find((z) => z.linkZona === linkZona) : undefined;
        if (!zone?.prov) return;
        early = { prov: zone.prov, linkZona: zone.linkZona, history: historyOf(zone.prov, zone.linkZona) };
        early.history.catch(() => undefined); // awaited below when the guess was right
        },
        state.semestersOf(req.province.trim().toUpperCase())[0],
        (semester, comuneId) => state.digestsOf(semester, comuneId, req.province.trim().toUpperCase()),
      ),
    keep,
  );
  const selection = selectQuotation(req, rows, zones);
  if (!selection.ok) return selection.result;
  const { prov, linkZona } = selection.row;
  const guessed = early && early.prov === prov && early.linkZona === linkZona ? early.history : undefined;
  const { records: history, descriptions } = await (guessed ?? historyOf(prov, linkZona));
  return evaluateProperty(req, { rows, zones, history, historyZones: descriptions }, selection);
}

/** The admin's zone when given, else the zone whose description best matches the address (as the engine's rule 3b ranks them). */
function zoneGuess(req: ValuationRequest): ZoneGuess {
  return (zones) => {
    if (req.linkZona) return req.linkZona;
    if (!req.address) return undefined;
    return matchZones(req.address, zones, req.city)[0]?.linkZona;
  };
}
