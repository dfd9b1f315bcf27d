/**
 * The rows of the OMI files published by the Agenzia delle Entrate, pure: the canonical
 * columns of a VALORI and a ZONE file, the readers that turn a line's fields into a row
 * (with the reason when the row cannot be kept, or a warning when a secondary field is
 * stored empty), and a row as a line of the published format and back. The streaming
 * parser (functions/omi/parse-omi.ts) reads files with these readers; the table stores
 * each record as such a line (functions/model/omi/quotations.ts), read back the same way.
 */
import { isStato } from './tipologia';
import type { OmiValoriRow, OmiZoneRow } from './types';

export const VALORI_COLUMNS = [
  'Area_territoriale', 'Regione', 'Prov', 'Comune_ISTAT', 'Comune_cat', 'Sez', 'Comune_amm', 'Comune_descrizione',
  'Fascia', 'Zona', 'LinkZona', 'Cod_Tip', 'Descr_Tipologia', 'Stato', 'Stato_prev', 'Compr_min', 'Compr_max',
  'Sup_NL_compr', 'Loc_min', 'Loc_max', 'Sup_NL_loc',
] as const;

export const ZONE_COLUMNS = [
  'Area_territoriale', 'Regione', 'Prov', 'Comune_ISTAT', 'Comune_cat', 'Sez', 'Comune_amm', 'Comune_descrizione', 'Fascia',
  'Zona_Descr', 'Zona', 'LinkZona', 'Cod_tip_prev', 'Descr_tip_prev', 'Stato_prev', 'Microzona',
] as const;

const NUMBER = /^(?:\d+(?:[.,]\d*)?|[.,]\d+)$/;

/**
 * `8700` -> 8700, `5,1` -> 5.1, `,9` -> 0.9, `0` or empty -> null; anything else is
 * unreadable: `undefined`, and the caller records why.
 */
export function parseOmiNumber(raw: string): number | null | undefined {
  const text = raw.trim();
  if (text === '') return null;
  if (!NUMBER.test(text)) return undefined;
  const n = Number(text.replace(',', '.'));
  return n === 0 ? null : n;
}

export type ValoriReader = (record: string[]) => { row: OmiValoriRow; warning?: string } | string;
export type ZoneReader = (record: string[]) => OmiZoneRow | string;

/** Sup_NL_compr / Sup_NL_loc: `L` (lorda) or `N` (netta); blank = not given. */
const SURFACE_FLAG = /^[LN]?$/;

/** Column name (trimmed, lower case) -> its first position in the header. */
export function columnIndex(header: string[]): Map<string, number> {
  const map = new Map<string, number>();
  header.forEach((h, i) => {
    const name = h.trim().toLowerCase();
    if (name && !map.has(name)) map.set(name, i);
  });
  return map;
}

/** Fields of a line without the trailing empty field left by the final `;`. */
function dataFields(record: string[], expected: number): string[] | string {
  if (record.length === expected + 1 && record[expected] === '') return record.slice(0, expected);
  if (record.length === expected && record[expected - 1] !== '') return record; // no trailing `;` but complete
  return `Numero di campi errato: ${record.length && record[record.length - 1] === '' ? record.length - 1 : record.length} invece di ${expected} (riga troncata o malformata)`;
}

/** The VALORI reader of a header: a line's fields -> its row (and warning), or the reason it is rejected. */
export function makeValoriReader(columns: string[]): ValoriReader {
  const idx = columnIndex(columns);
  const expected = columns.length;
  const col = (name: string) => idx.get(name.toLowerCase()) ?? -1;
  const c = {
    area: col('Area_territoriale'), regione: col('Regione'), prov: col('Prov'), istat: col('Comune_ISTAT'), cat: col('Comune_cat'),
    sez: col('Sez'), amm: col('Comune_amm'), comune: col('Comune_descrizione'), fascia: col('Fascia'), zona: col('Zona'),
    linkZona: col('LinkZona'), codTip: col('Cod_Tip'), descr: col('Descr_Tipologia'), stato: col('Stato'), statoPrev: col('Stato_prev'),
    comprMin: col('Compr_min'), comprMax: col('Compr_max'), supCompr: col('Sup_NL_compr'), locMin: col('Loc_min'), locMax: col('Loc_max'),
    supLoc: col('Sup_NL_loc'),
  };
  return (record: string[]): { row: OmiValoriRow; warning?: string } | string => {
    const f = dataFields(record, expected);
    if (typeof f === 'string') return f;
    const at = (i: number) => (i < 0 ? '' : (f[i] ?? '').trim());
    const problems: string[] = [];
    let unreadable = 0;
    const value = (i: number, column: string): number | null => {
      const n = parseOmiNumber(at(i));
      if (n !== undefined) return n;
      unreadable++;
      problems.push(`${column} non numerico ("${at(i)}"), salvato vuoto`);
      return null;
    };
    const flag = (i: number, column: string): string => {
      const raw = at(i).toUpperCase();
      if (SURFACE_FLAG.test(raw)) return raw;
      problems.push(`${column} non valido ("${at(i)}"), salvato vuoto`);
      return '';
    };
    const prov = at(c.prov);
    const comune = at(c.comune);
    const linkZona = at(c.linkZona);
    if (!prov) return 'Prov mancante';
    if (!comune) return 'Comune_descrizione mancante';
    if (!linkZona) return 'LinkZona mancante';
    const codTipRaw = at(c.codTip);
    if (!/^\d{1,3}$/.test(codTipRaw) || Number(codTipRaw) === 0) return `Cod_Tip non valido: "${codTipRaw}"`;
    const statoRaw = at(c.stato).toUpperCase();
    if (statoRaw !== '' && !isStato(statoRaw)) return `Stato non valido: "${statoRaw}"`;
    const comprMin = value(c.comprMin, 'Compr_min');
    const comprMax = value(c.comprMax, 'Compr_max');
    const locMin = value(c.locMin, 'Loc_min');
    const locMax = value(c.locMax, 'Loc_max');
    if (unreadable === 4) return `Nessun valore leggibile: ${problems.join('; ').replaceAll(', salvato vuoto', '')}`;
    const row: OmiValoriRow = {
      areaTerritoriale: at(c.area),
      regione: at(c.regione),
      prov: prov.toUpperCase(),
      comuneIstat: at(c.istat),
      comuneCat: at(c.cat),
      sez: at(c.sez),
      comuneAmm: at(c.amm),
      comuneDescrizione: comune,
      fascia: at(c.fascia),
      zona: at(c.zona),
      linkZona,
      codTip: Number(codTipRaw),
      descrTipologia: at(c.descr),
      stato: statoRaw === '' ? null : (statoRaw as OmiValoriRow['stato']),
      statoPrev: at(c.statoPrev).toUpperCase() === 'P',
      comprMin,
      comprMax,
      supNlCompr: flag(c.supCompr, 'Sup_NL_compr'),
      locMin,
      locMax,
      supNlLoc: flag(c.supLoc, 'Sup_NL_loc'),
    };
    return problems.length ? { row, warning: problems.join('; ') } : { row };
  };
}

/** The ZONE reader of a header: a line's fields -> its row, or the reason it is rejected. */
export function makeZoneReader(columns: string[]): ZoneReader {
  const idx = columnIndex(columns);
  const expected = columns.length;
  const descrAt = idx.get('zona_descr')!;
  return (record: string[]): OmiZoneRow | string => {
    // Zona_Descr is wrapped in single quotes and may itself contain `;`: glue it back.
    let fields = record;
    const extra = record.length - (expected + 1);
    if (extra > 0 && record[record.length - 1] === '') {
      const glued = record.slice(descrAt, descrAt + extra + 1).join(';');
      fields = [...record.slice(0, descrAt), glued, ...record.slice(descrAt + extra + 1)];
    }
    const f = dataFields(fields, expected);
    if (typeof f === 'string') return f;
    const at = (name: string) => {
      const i = idx.get(name.toLowerCase());
      return i === undefined ? '' : (f[i] ?? '').trim();
    };
    const prov = at('Prov');
    const comune = at('Comune_descrizione');
    const linkZona = at('LinkZona');
    if (!prov) return 'Prov mancante';
    if (!comune) return 'Comune_descrizione mancante';
    if (!linkZona) return 'LinkZona mancante';
    const codTipPrev = at('Cod_tip_prev');
    return {
      areaTerritoriale: at('Area_territoriale'),
      regione: at('Regione'),
      prov: prov.toUpperCase(),
      comuneIstat: at('Comune_ISTAT'),
      comuneAmm: at('Comune_amm'),
      comuneDescrizione: comune,
      fascia: at('Fascia'),
      zonaDescr: at('Zona_Descr').replace(/^'(.*)'$/s, '$1').trim(),
      zona: at('Zona'),
      linkZona,
      codTipPrev: /^\d+$/.test(codTipPrev) && Number(codTipPrev) > 0 ? Number(codTipPrev) : null,
      descrTipPrev: at('Descr_tip_prev'),
      statoPrev: at('Stato_prev'),
      microzona: at('Microzona'),
    };
  };
}

/**
 * One row as a line of the published format (canonical column order, `0` for a missing
 * value, decimal comma, trailing `;`): what the table stores for each record, so a stored
 * record reads exactly like the file it came from and goes back through the same reader.
 */
const num = (n: number | null) => (n === null ? '0' : String(n).replace('.', ','));

export function formatValoriLine(r: OmiValoriRow): string {
  return `${[
    r.areaTerritoriale, r.regione, r.prov, r.comuneIstat, r.comuneCat, r.sez || ' ', r.comuneAmm, r.comuneDescrizione, r.fascia, r.zona,
    r.linkZona, r.codTip, r.descrTipologia, r.stato ?? '', r.statoPrev ? 'P' : ' ', num(r.comprMin), num(r.comprMax), r.supNlCompr,
    num(r.locMin), num(r.locMax), r.supNlLoc,
  ].join(';')};`;
}

export function formatZoneLine(r: OmiZoneRow): string {
  return `${[
    r.areaTerritoriale, r.regione, r.prov, r.comuneIstat, '', ' ', r.comuneAmm, r.comuneDescrizione, r.fascia, `'${r.zonaDescr}'`, r.zona,
    r.linkZona, r.codTipPrev ?? 0, r.descrTipPrev, r.statoPrev, r.microzona,
  ].join(';')};`;
}

const valoriLineReader = makeValoriReader([...VALORI_COLUMNS]);
const zoneLineReader = makeZoneReader([...ZONE_COLUMNS]);

export function readValoriLine(line: string): OmiValoriRow {
  return readValoriFields(line.split(';'));
}

const STORED_COD_TIP = VALORI_COLUMNS.indexOf('Cod_Tip');

/**
 * A stored line when it is of the given type (Cod_Tip), else undefined without reading the rest:
 * the valuation keeps one type of a zone's lines, and reading every line of 30 semesters was
 * most of a cold valuation's time.
 */
export function readValoriLineOfType(line: string, codTip: number): OmiValoriRow | undefined {
  // the Cod_Tip field found by its separators: a line of another type is never split
  let start = 0;
  for (let i = 0; i < STORED_COD_TIP; i++) {
    start = line.indexOf(';', start) + 1;
    if (start === 0) return undefined;
  }
  const end = line.indexOf(';', start);
  if (Number(line.slice(start, end === -1 ? undefined : end)) !== codTip) return undefined;
  return readValoriFields(line.split(';'));
}

function readValoriFields(fields: string[]): OmiValoriRow {
  const read = valoriLineReader(fields);
  if (typeof read === 'string') throw new Error(`Riga OMI memorizzata non valida: ${read}`);
  return read.row;
}

export function readZoneLine(line: string): OmiZoneRow {
  const row = zoneLineReader(line.split(';'));
  if (typeof row === 'string') throw new Error(`Riga di zona OMI memorizzata non valida: ${row}`);
  return row;
}
