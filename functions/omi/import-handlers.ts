/**
 * What the OMI import (run-import.ts) does with the rows of each kind of file, after a row
 * was counted and found not to be a duplicate: VALORI rows are gathered into one item per
 * zone, ZONE rows are written one item each.
 */
import type { UnmatchedComune } from '../domain/omi/api';
import { matchOmiComuneCached, type OmiComuneRef } from '../domain/omi/comune-match';
import type { IndexEntry } from '../domain/omi/listing-index';
import { formatValoriLine } from '../domain/omi/lines';
import type { OmiValoriRow, OmiZoneRow } from '../domain/omi/types';
import { omiKeys } from '../model/keys';
import { indexEntryOf, storedZoneRows } from '../model/omi/quotations';
import type { OmiWriter } from '../model/omi/writer';

/** The file's records of one zone (VALORI): published lines and identities, in file order. */
interface ZoneRows {
  /** the zone's first row: ties the zone's item to its comune */
  comune: OmiValoriRow;
  lines: string[];
  ids: string[];
  /** the file's rows of the zone already handed to a write (a zone met again is written whole once more) */
  counted: number;
}

/** One province of the file: what the semester held there before the run, and what the file brings. */
export interface ProvinceState {
  prov: string;
  existing: Map<string, IndexEntry | null>;
  /** the file's records of this province, by identity, with the line they came from */
  fromFile: Map<string, { entry: IndexEntry | null; line: number }>;
  /** VALORI: the file's rows by LinkZona; zones written once and met again are re-put at the end */
  zones: Map<string, ZoneRows>;
  written: Set<string>;
  reopened: Set<string>;
  /** identities already stored, by LinkZona (built on first need) */
  existingByZone?: Map<string, Set<string>>;
  /** the province's registrations count after this run's own (semesters.ts registerProvince) */
  registrations: number;
  /** another job was registered in the province when this run registered */
  shared: boolean;
  /** when `existing` was read (ms) */
  readAt: number;
}

/** What the import does with the rows of one kind of file. */
export interface RowHandler<R> {
  /** identity of the row within its semester and province; the same twice in a file is a duplicate */
  identity(row: R): string;
  duplicate(firstLine: number): string;
  entry(row: R): IndexEntry | null;
  /** the row is new or updated (not a duplicate): store it (a promise only when it writes) */
  accept(row: R, st: ProvinceState, identity: string): Promise<void> | void;
  /** after the last row */
  finish(provinces: Iterable<ProvinceState>): Promise<void>;
}

/** What the handlers use of the run: its writer, the semester (known before the first row), the comuni tied to no current comune. */
export interface HandlerRun {
  readonly writer: OmiWriter;
  readonly semester: string | undefined;
  readonly unmatched: Map<string, UnmatchedComune>;
}

/** Notes the row's comune when it is tied to no current comune (the match is cached per comune). */
function noteComune(run: HandlerRun, row: OmiComuneRef): void {
  if (matchOmiComuneCached(row)) return;
  const key = `${row.prov}|${row.comuneIstat}|${row.comuneDescrizione}`;
  if (!run.unmatched.has(key)) run.unmatched.set(key, { prov: row.prov, comune: row.comuneDescrizione, istat: row.comuneIstat, cadastral: row.comuneAmm });
}

/**
 * VALORI: a zone's rows are gathered and written as one item when the file moves on to
 * another zone (the files list a zone's rows together). A zone met again later is written
 * whole once more at the end. Rows an earlier import stored in the zone and this file
 * lacks are kept (merged from the stored item): an import adds and updates, never removes.
 */
export function valoriHandler(run: HandlerRun): RowHandler<OmiValoriRow> {
  let open: { st: ProvinceState; linkZona: string } | undefined;

  async function zoneLines(st: ProvinceState, linkZona: string): Promise<string[]> {
    const zone = st.zones.get(linkZona)!;
    if (!st.existingByZone) {
      st.existingByZone = new Map();
      for (const [id, e] of st.existing) {
        if (!e) continue;
        let set = st.existingByZone.get(e.linkZona);
        if (!set) st.existingByZone.set(e.linkZona, (set = new Set()));
        set.add(id);
      }
    }
    const stored = st.existingByZone.get(linkZona);
    if (!stored || stored.size === 0) return zone.lines;
    const inFile = new Set(zone.ids);
    if ([...stored].every((id) => inFile.has(id))) return zone.lines;
    const kept = (await storedZoneRows({ semester: run.semester!, prov: st.prov, linkZona })).filter((r) => !inFile.has(omiKeys.quotationIdentity(r)));
    return [...zone.lines, ...kept.map(formatValoriLine)];
  }

  async function write(st: ProvinceState, linkZona: string): Promise<void> {
    const zone = st.zones.get(linkZona)!;
    // rows written counts the file's rows once: a second write of the zone adds only the rows met since
    const rows = zone.ids.length - zone.counted;
    zone.counted = zone.ids.length;
    await run.writer.putZoneQuotations({ semester: run.semester!, prov: st.prov, linkZona, comune: zone.comune }, await zoneLines(st, linkZona), rows);
    st.written.add(linkZona);
  }

  async function closeZone({ st, linkZona }: { st: ProvinceState; linkZona: string }): Promise<void> {
    if (st.written.has(linkZona)) st.reopened.add(linkZona);
    else await write(st, linkZona);
  }

  return {
    identity: (row) => omiKeys.quotationIdentity(row),
    duplicate: (first) => `Riga duplicata: stesso LinkZona, Cod_Tip e Stato della riga ${first}`,
    entry: (row) => indexEntryOf(row),
    accept(row, st, identity) {
      noteComune(run, row);
      let zone = st.zones.get(row.linkZona);
      if (!zone) st.zones.set(row.linkZona, (zone = { comune: row, lines: [], ids: [], counted: 0 }));
      zone.lines.push(formatValoriLine(row));
      zone.ids.push(identity);
      if (open && open.st === st && open.linkZona === row.linkZona) return undefined;
      // a new zone begins: the previous one is complete (its rows were pushed before this one)
      const previous = open;
      open = { st, linkZona: row.linkZona };
      return previous ? closeZone(previous) : undefined;
    },
    async finish(all) {
      if (open) await closeZone(open);
      open = undefined;
      await run.writer.flush(); // a zone's second write never shares a batch with its first
      for (const st of all) for (const linkZona of st.reopened) await write(st, linkZona);
    },
  };
}

/** ZONE: one item per zone description, written as the row comes. */
export function zoneHandler(run: HandlerRun): RowHandler<OmiZoneRow> {
  return {
    identity: (row) => omiKeys.zoneIdentity(row),
    duplicate: (first) => `Riga duplicata: stessa LinkZona della riga ${first}`,
    entry: () => null,
    accept: (row) => {
      noteComune(run, row);
      return run.writer.putZone(row, run.semester!);
    },
    finish: async () => undefined,
  };
}
