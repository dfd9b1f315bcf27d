/**
 * The OMI data page's index: per (semester, province), the compact list of its records in
 * display order — comune, zone, type, state; no prices — written by the import and read
 * by the listing, which filters it in memory (exact totals over ~160,000 rows per semester
 * in a few milliseconds) and then fetches only the 50 records of the page. Pure: how a
 * chunk is stored (deflated, in parts) is functions/model/omi/index-chunks.ts.
 */
import { compareNatural } from '../format';
import type { Stato } from './tipologia';

export interface IndexEntry {
  comune: string;
  comuneKey: string;
  linkZona: string;
  zona: string;
  codTip: number;
  stato: Stato | null;
}

export interface IndexChunk {
  semester: string;
  prov: string;
  comuni: string[];
  comuneKeys: string[];
  zoneLinks: string[];
  zoneNames: string[];
  zoneComune: Uint32Array;
  rowZone: Uint32Array;
  rowCodTip: Uint8Array;
  rowStato: Uint8Array;
  size: number;
}

const STATO_CODE: Record<string, number> = { OTTIMO: 1, NORMALE: 2, SCADENTE: 3 };
const STATO_OF_CODE: (Stato | null)[] = [null, 'OTTIMO', 'NORMALE', 'SCADENTE'];

/** Display order inside a (semester, province): comune, zone (B2 < B12), type, state. */
function compareEntries(a: IndexEntry, b: IndexEntry): number {
  return (
    (a.comuneKey < b.comuneKey ? -1 : a.comuneKey > b.comuneKey ? 1 : 0) ||
    compareNatural(a.zona, b.zona) ||
    (a.linkZona < b.linkZona ? -1 : a.linkZona > b.linkZona ? 1 : 0) ||
    a.codTip - b.codTip ||
    (STATO_CODE[a.stato ?? ''] ?? 9) - (STATO_CODE[b.stato ?? ''] ?? 9)
  );
}

export function buildChunk(semester: string, prov: string, entries: Iterable<IndexEntry>): IndexChunk {
  const list = [...entries].sort(compareEntries);
  const comuni: string[] = [];
  const comuneKeys: string[] = [];
  const comuneIdx = new Map<string, number>();
  const zoneLinks: string[] = [];
  const zoneNames: string[] = [];
  const zoneComune: number[] = [];
  const zoneIdx = new Map<string, number>();
  const rowZone = new Uint32Array(list.length);
  const rowCodTip = new Uint8Array(list.length);
  const rowStato = new Uint8Array(list.length);
  list.forEach((e, i) => {
    let c = comuneIdx.get(e.comuneKey);
    if (c === undefined) {
      c = comuni.length;
      comuni.push(e.comune);
      comuneKeys.push(e.comuneKey);
      comuneIdx.set(e.comuneKey, c);
    }
    let z = zoneIdx.get(e.linkZona);
    if (z === undefined) {
      z = zoneLinks.length;
      zoneLinks.push(e.linkZona);
      zoneNames.push(e.zona);
      zoneComune.push(c);
      zoneIdx.set(e.linkZona, z);
    }
    rowZone[i] = z;
    rowCodTip[i] = e.codTip;
    rowStato[i] = STATO_CODE[e.stato ?? ''] ?? 0;
  });
  return {
    semester, prov, comuni, comuneKeys, zoneLinks, zoneNames, zoneComune: Uint32Array.from(zoneComune), rowZone, rowCodTip, rowStato,
    size: list.length,
  };
}

/** Entries back from a chunk: what a (semester, province) holds, for the next import to merge into. */
export function* chunkEntries(chunk: IndexChunk): Generator<IndexEntry> {
  for (let i = 0; i < chunk.size; i++) {
    const z = chunk.rowZone[i]!;
    const c = chunk.zoneComune[z]!;
    yield {
      comune: chunk.comuni[c]!,
      comuneKey: chunk.comuneKeys[c]!,
      linkZona: chunk.zoneLinks[z]!,
      zona: chunk.zoneNames[z]!,
      codTip: chunk.rowCodTip[i]!,
      stato: STATO_OF_CODE[chunk.rowStato[i]!] ?? null,
    };
  }
}

export interface ListingFilter {
  /** partial comune, already passed through comuneSearchKey */
  comuneKey?: string;
  codTip?: number;
  stato?: Stato;
  /** one zone: its LinkZona or its Zona code, upper case */
  zona?: string;
}

/** A zone some matching row belongs to (listed only with the zone filter). */
export interface IndexZone {
  prov: string;
  linkZona: string;
  zona: string;
  comune: string;
}

export interface IndexHit {
  semester: string;
  prov: string;
  linkZona: string;
  codTip: number;
  stato: Stato | null;
}

/**
 * Exact total of the rows matching the filter across the chunks (already in display
 * order: newest semester first, then province), and the hits of rows [offset, offset+limit).
 */
export function selectPage(
  chunks: readonly IndexChunk[],
  filter: ListingFilter,
  offset: number,
  limit: number,
): { total: number; hits: IndexHit[]; zones?: IndexZone[] } {
  let total = 0;
  const hits: IndexHit[] = [];
  const zones = filter.zona ? new Map<string, IndexZone>() : undefined;
  const stato = filter.stato ? STATO_CODE[filter.stato]! : 0;
  const codTip = filter.codTip ?? 0;
  const end = offset + limit;
  for (const chunk of chunks) {
    let zoneOk: Uint8Array | undefined;
    if (filter.comuneKey) {
      const q = filter.comuneKey;
      const comuneOk = chunk.comuneKeys.map((k) => k.includes(q));
      if (!comuneOk.some(Boolean)) continue;
      zoneOk = new Uint8Array(chunk.zoneLinks.length);
      for (let z = 0; z < zoneOk.length; z++) zoneOk[z] = comuneOk[chunk.zoneComune[z]!] ? 1 : 0;
    }
    if (filter.zona) {
      const wanted = filter.zona;
      const ok = zoneOk ?? new Uint8Array(chunk.zoneLinks.length).fill(1);
      let any = false;
      for (let z = 0; z < ok.length; z++) {
        if (ok[z] && chunk.zoneLinks[z] !== wanted && chunk.zoneNames[z]!.toUpperCase() !== wanted) ok[z] = 0;
        any ||= ok[z] === 1;
      }
      if (!any) continue;
      zoneOk = ok;
    }
    const { rowZone, rowCodTip, rowStato, size } = chunk;
    for (let i = 0; i < size; i++) {
      if (codTip && rowCodTip[i] !== codTip) continue;
      if (stato && rowStato[i] !== stato) continue;
      if (zoneOk && !zoneOk[rowZone[i]!]) continue;
      if (zones) {
        const z = rowZone[i]!;
        const key = `${chunk.prov}#${chunk.zoneLinks[z]}`;
        if (!zones.has(key)) {
          zones.set(key, { prov: chunk.prov, linkZona: chunk.zoneLinks[z]!, zona: chunk.zoneNames[z]!, comune: chunk.comuni[chunk.zoneComune[z]!]! });
        }
      }
      if (total >= offset && total < end) {
        hits.push({
          semester: chunk.semester,
          prov: chunk.prov,
          linkZona: chunk.zoneLinks[rowZone[i]!]!,
          codTip: rowCodTip[i]!,
          stato: STATO_OF_CODE[rowStato[i]!] ?? null,
        });
      }
      total++;
    }
  }
  return zones ? { total, hits, zones: [...zones.values()] } : { total, hits };
}
