/**
 * The OMI data page (spec 001, "Dati OMI"): filters, exact total, pages of 50, newest first.
 *
 * Order: newest semester first; inside a semester by province, comune, zone, type, state.
 * How: the semester manifests (read again only when the data state changes) -> the (semester, province) index chunks the
 * filters need (cached in this warm Lambda by version; a re-import writes a new version,
 * so a stale chunk is never used) -> filter in memory for the exact total -> one
 * BatchGetItem of the zone items holding the page's records. No Scan.
 */
import type { QuotationListItem, QuotationPage, ZoneHistory } from '../domain/omi/api';
import type { IndexZone } from '../domain/omi/listing-index';
import { zoneHistory } from '../domain/omi/zone-history';
import { omiKeys } from '../model/keys';
import { readIndexChunks, type IndexRef } from '../model/omi/index-chunks';
import { loadZonesRecords, type OmiRecord } from '../model/omi/quotations';
import { currentManifests, listSemesters, type SemesterManifest } from '../model/omi/semesters';
import { loadZoneHistory } from '../model/omi/zone-history';
import { selectPage, type IndexChunk } from '../domain/omi/listing-index';
import { comuneSearchKey } from '../domain/omi/names';
import type { Stato } from '../domain/omi/tipologia';
import { FASCE } from '../domain/omi/tipologia';

export const PAGE_SIZE = 50;

export interface QuotationFilters {
  comune?: string;
  provincia?: string;
  codTip?: number;
  stato?: Stato;
  semestre?: string;
  /** LinkZona or Zona code */
  zona?: string;
  page: number;
}

const MAX_ZONE_MATCHES = 20;

export type { QuotationListItem, QuotationPage };

/** Decoded chunks by `{semester}#{prov}#{version}`: a warm Lambda's cache. */
const cache = new Map<string, IndexChunk>();
const MAX_CACHED_CHUNKS = 2000;

const cacheKey = (semester: string, prov: string, ref: IndexRef) => `${semester}#${prov}#${ref.v}`;

async function loadChunks(wanted: { semester: string; prov: string; ref: IndexRef }[]): Promise<IndexChunk[] | undefined> {
  const missing = wanted.filter((w) => !cache.has(cacheKey(w.semester, w.prov, w.ref)));
  if (missing.length) {
    const chunks = await readIndexChunks(missing);
    for (const [i, w] of missing.entries()) {
      const chunk = chunks[i];
      if (!chunk) return undefined; // replaced meanwhile: the caller reloads the manifests
      if (cache.size >= MAX_CACHED_CHUNKS) cache.clear();
      cache.set(cacheKey(w.semester, w.prov, w.ref), chunk);
    }
  }
  return wanted.map((w) => cache.get(cacheKey(w.semester, w.prov, w.ref))!);
}

export async function listQuotations(f: QuotationFilters): Promise<QuotationPage> {
  for (let attempt = 0; ; attempt++) {
    // the manifests of the current data state; read again when a chunk was replaced meanwhile
    const manifests = attempt === 0 ? await currentManifests() : await listSemesters();
    const wanted: { semester: string; prov: string; ref: IndexRef }[] = [];
    for (const m of manifests) {
      if (f.semestre && m.semester !== f.semestre) continue;
      for (const prov of Object.keys(m.index).sort()) {
        if (f.provincia && prov !== f.provincia) continue;
        wanted.push({ semester: m.semester, prov, ref: m.index[prov]! });
      }
    }
    const chunks = await loadChunks(wanted);
    if (!chunks) {
      if (attempt < 2) continue;
      throw new Error('Indice OMI in aggiornamento: riprova');
    }
    const comuneKey = f.comune ? comuneSearchKey(f.comune) : undefined;
    const { total, hits, zones } = selectPage(
      chunks,
      { comuneKey: comuneKey || undefined, codTip: f.codTip, stato: f.stato, zona: f.zona },
      (f.page - 1) * PAGE_SIZE,
      PAGE_SIZE,
    );
    // one zone named: its history over every semester stored, read beside the page's zones
    const [pageRecords, history] = await Promise.all([
      loadZonesRecords(hits),
      zones?.length === 1 ? historyOf(zones[0]!, manifests, f) : undefined,
    ]);
    // the page's rows live in a few zone items: one BatchGet of those, then each row by identity
    const records = new Map<string, OmiRecord>();
    for (const q of pageRecords) records.set(`${q.semester}|${q.prov}|${omiKeys.quotationIdentity(q)}`, q);
    const items: QuotationListItem[] = [];
    hits.forEach((h) => {
      const q = records.get(`${h.semester}|${h.prov}|${omiKeys.quotationIdentity(h)}`);
      if (!q) return;
      items.push({
        id: `${q.semester}|${q.linkZona}|${q.codTip}|${q.stato ?? '-'}`,
        semestre: q.semester,
        comuneDescrizione: q.comuneDescrizione,
        provincia: q.prov,
        zona: q.zona,
        fascia: q.fascia,
        fasciaDescr: FASCE[q.fascia] ?? q.fascia,
        linkZona: q.linkZona,
        codTip: q.codTip,
        descrTipologia: q.descrTipologia,
        stato: q.stato,
        statoPrev: q.statoPrev,
        comprMin: q.comprMin,
        comprMax: q.comprMax,
        locMin: q.locMin,
        locMax: q.locMax,
        regione: q.regione,
      });
    });
    const page: QuotationPage = {
      items,
      total,
      page: f.page,
      pageSize: PAGE_SIZE,
      pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
      semesters: manifests.map((m) => m.semester),
    };
    if (zones) {
      page.zoneHistory = history ?? null;
      page.zoneMatches = zones.slice(0, MAX_ZONE_MATCHES).map((z) => ({ linkZona: z.linkZona, zona: z.zona, comune: z.comune, prov: z.prov }));
    }
    return page;
  }
}

/**
 * A zone's history whatever the semester filter: its zone items and its ZONE items (the
 * redraw check) in every semester that has its province (model/omi/zone-history.ts).
 */
async function historyOf(zone: IndexZone, manifests: readonly SemesterManifest[], f: QuotationFilters): Promise<ZoneHistory | undefined> {
  const holding = manifests.filter((m) => m.provinces.includes(zone.prov));
  const indexed = new Set(holding.filter((m) => m.historyIndexed.includes(zone.prov)).map((m) => m.semester));
  const { records, descriptions } = await loadZoneHistory(zone.prov, zone.linkZona, holding.map((m) => m.semester), indexed);
  return zoneHistory(records, descriptions, { codTip: f.codTip, stato: f.stato });
}
