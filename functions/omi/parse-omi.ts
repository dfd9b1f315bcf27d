/**
 * Streaming parser of the OMI CSV files published by the Agenzia delle Entrate
 * (../shared/omi-samples/README.md): "VALORI" (quotations) and "ZONE" (zone descriptions).
 *
 * - line 1 is a title with no `;` (the semester is read from it), line 2 the header;
 * - `;` separated, nothing quoted, a trailing `;` on every line;
 * - each line is decoded on its own: valid UTF-8 as UTF-8, anything else as Latin-1
 *   (Windows-1252, its superset), so files with mixed encodings read correctly;
 * - `0` is a missing value (null), rents have a decimal comma, Stato may be empty,
 *   Stato_prev is `P` or blank;
 * - a bad row (wrong number of fields, e.g. a truncated line; a non-numeric price; a
 *   missing key field) is reported with its line number and reason and the parse goes on.
 *   Only a file whose header lacks required columns is refused as a whole.
 *
 * Memory stays flat: bytes -> lines -> csv-parse -> rows, with stream backpressure.
 */
import { isUtf8 } from 'node:buffer';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import { semesterFromTitle, type Semester } from '../domain/omi/semester';
import { isStato } from '../domain/omi/tipologia';
import type { OmiValoriRow, OmiZoneRow } from '../domain/omi/types';

export type OmiFileKind = 'valori' | 'zone';

export const VALORI_COLUMNS = [
  'Area_territoriale', 'Regione', 'Prov', 'Comune_ISTAT', 'Comune_cat', 'Sez', 'Comune_amm', 'Comune_descrizione',
  'Fascia', 'Zona', 'LinkZona', 'Cod_Tip', 'Descr_Tipologia', 'Stato', 'Stato_prev', 'Compr_min', 'Compr_max',
  'Sup_NL_compr', 'Loc_min', 'Loc_max', 'Sup_NL_loc',
] as const;

/** Columns a VALORI file must have (spec 001, OMI import: "Expected columns"). */
export const VALORI_REQUIRED = [
  'Area_territoriale', 'Regione', 'Prov', 'Comune_ISTAT', 'Comune_cat', 'Comune_amm', 'Comune_descrizione', 'Fascia',
  'Zona', 'LinkZona', 'Cod_Tip', 'Descr_Tipologia', 'Stato', 'Stato_prev', 'Compr_min', 'Compr_max', 'Loc_min', 'Loc_max',
] as const;

export const ZONE_REQUIRED = [
  'Area_territoriale', 'Regione', 'Prov', 'Comune_ISTAT', 'Comune_descrizione', 'Fascia', 'Zona_Descr', 'Zona', 'LinkZona',
] as const;

/** A file that cannot be read at all (wrong header, empty). The message is for the admin. */
export class OmiFormatError extends Error {
  constructor(message: string, readonly missingColumns: string[] = []) {
    super(message);
    this.name = 'OmiFormatError';
  }
}

export interface OmiFileMeta {
  kind: OmiFileKind;
  /** the title line, when the file has one */
  title: string | null;
  /** semester read from the title line */
  semester: Semester | undefined;
  columns: string[];
}

export type OmiParseEvent =
  | { type: 'meta'; meta: OmiFileMeta }
  | { type: 'valori'; line: number; row: OmiValoriRow }
  | { type: 'zone'; line: number; row: OmiZoneRow }
  | { type: 'rejected'; line: number; reason: string };

export interface OmiParseSummary {
  kind: OmiFileKind | undefined;
  /** data lines read (blank lines excluded); = accepted + rejected */
  rowsRead: number;
  accepted: number;
  rejected: number;
  /** lines that needed Latin-1 decoding / lines with non-ASCII UTF-8 */
  latin1Lines: number;
  utf8Lines: number;
  encoding: 'ascii' | 'utf8' | 'latin1' | 'mixed';
  bytesRead: number;
}

/** No OMI line is near this long (real ones are ~150 bytes); longer means not an OMI CSV. */
export const MAX_LINE_BYTES = 64 * 1024;

/** Splits bytes into lines and decodes each line (UTF-8 when valid, else Latin-1). */
class LineDecoder extends Transform {
  private rest: Buffer | null = null;
  private first = true;
  latin1Lines = 0;
  utf8Lines = 0;
  bytesRead = 0;

  constructor(private readonly onBytes?: (total: number) => void) {
    super({ readableObjectMode: false });
  }

  private decode(bytes: Buffer): string {
    let b = bytes;
    if (this.first) {
      this.first = false;
      if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) b = b.subarray(3);
    }
    if (b.length && b[b.length - 1] === 13) b = b.subarray(0, b.length - 1);
    let ascii = true;
    for (let i = 0; i < b.length; i++) {
      if (b[i]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return b.toString('latin1');
    if (isUtf8(b)) {
      this.utf8Lines++;
      return b.toString('utf8');
    }
    this.latin1Lines++;
    return iconv.decode(b, 'win1252');
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytesRead += chunk.length;
    this.onBytes?.(this.bytesRead);
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    const out: string[] = [];
    let start = 0;
    let idx: number;
    while ((idx = buf.indexOf(10, start)) !== -1) {
      out.push(this.decode(buf.subarray(start, idx)));
      start = idx + 1;
    }
    this.rest = start < buf.length ? Buffer.from(buf.subarray(start)) : null;
    if (out.length) this.push(`${out.join('\n')}\n`, 'utf8');
    if (this.rest && this.rest.length > MAX_LINE_BYTES) {
      cb(new OmiFormatError(`Una riga supera ${MAX_LINE_BYTES / 1024} KB senza andare a capo: il file non è un CSV OMI`));
      return;
    }
    cb();
  }

  override _flush(cb: TransformCallback): void {
    if (this.rest && this.rest.length) this.push(this.decode(this.rest), 'utf8');
    this.rest = null;
    cb();
  }
}

const NUMBER = /^\d+(?:[.,]\d+)?$/;

/** `8700` -> 8700, `5,1` -> 5.1, `0` or empty -> null, anything else -> Error. */
function parseValue(raw: string, column: string): number | null {
  const text = raw.trim();
  if (text === '') return null;
  if (!NUMBER.test(text)) throw new Error(`${column} non numerico: "${text}"`);
  const n = Number(text.replace(',', '.'));
  return n === 0 ? null : n;
}

function columnIndex(header: string[]): Map<string, number> {
  const map = new Map<string, number>();
  header.forEach((h, i) => {
    const name = h.trim().toLowerCase();
    if (name && !map.has(name)) map.set(name, i);
  });
  return map;
}

function checkHeader(columns: string[]): OmiFileKind {
  const idx = columnIndex(columns);
  const kind: OmiFileKind = idx.has('zona_descr') ? 'zone' : 'valori';
  const required = kind === 'zone' ? ZONE_REQUIRED : VALORI_REQUIRED;
  const missing = required.filter((c) => !idx.has(c.toLowerCase()));
  if (missing.length) {
    throw new OmiFormatError(
      `Intestazione del file non valida: ${missing.length === 1 ? 'manca la colonna' : 'mancano le colonne'} ${missing.join(', ')}. ` +
        'La prima riga deve essere il titolo e la seconda l\'intestazione dei campi OMI separati da ";".',
      missing,
    );
  }
  return kind;
}

/** Fields of a line without the trailing empty field left by the final `;`. */
function dataFields(record: string[], expected: number): string[] | string {
  if (record.length === expected + 1 && record[expected] === '') return record.slice(0, expected);
  if (record.length === expected && record[expected - 1] !== '') return record; // no trailing `;` but complete
  return `Numero di campi errato: ${record.length && record[record.length - 1] === '' ? record.length - 1 : record.length} invece di ${expected} (riga troncata o malformata)`;
}

function makeValoriReader(columns: string[]) {
  const idx = columnIndex(columns);
  const expected = columns.length;
  const at = (f: string[], name: string) => {
    const i = idx.get(name.toLowerCase());
    return i === undefined ? '' : (f[i] ?? '');
  };
  return (record: string[]): OmiValoriRow | string => {
    const f = dataFields(record, expected);
    if (typeof f === 'string') return f;
    try {
      const prov = at(f, 'Prov').trim();
      const comune = at(f, 'Comune_descrizione').trim();
      const linkZona = at(f, 'LinkZona').trim();
      if (!prov) return 'Prov mancante';
      if (!comune) return 'Comune_descrizione mancante';
      if (!linkZona) return 'LinkZona mancante';
      const codTipRaw = at(f, 'Cod_Tip').trim();
      if (!/^\d{1,3}$/.test(codTipRaw) || Number(codTipRaw) === 0) return `Cod_Tip non valido: "${codTipRaw}"`;
      const statoRaw = at(f, 'Stato').trim().toUpperCase();
      if (statoRaw !== '' && !isStato(statoRaw)) return `Stato non valido: "${statoRaw}"`;
      return {
        areaTerritoriale: at(f, 'Area_territoriale').trim(),
        regione: at(f, 'Regione').trim(),
        prov: prov.toUpperCase(),
        comuneIstat: at(f, 'Comune_ISTAT').trim(),
        comuneCat: at(f, 'Comune_cat').trim(),
        sez: at(f, 'Sez').trim(),
        comuneAmm: at(f, 'Comune_amm').trim(),
        comuneDescrizione: comune,
        fascia: at(f, 'Fascia').trim(),
        zona: at(f, 'Zona').trim(),
        linkZona,
        codTip: Number(codTipRaw),
        descrTipologia: at(f, 'Descr_Tipologia').trim(),
        stato: statoRaw === '' ? null : (statoRaw as OmiValoriRow['stato']),
        statoPrev: at(f, 'Stato_prev').trim().toUpperCase() === 'P',
        comprMin: parseValue(at(f, 'Compr_min'), 'Compr_min'),
        comprMax: parseValue(at(f, 'Compr_max'), 'Compr_max'),
        supNlCompr: at(f, 'Sup_NL_compr').trim(),
        locMin: parseValue(at(f, 'Loc_min'), 'Loc_min'),
        locMax: parseValue(at(f, 'Loc_max'), 'Loc_max'),
        supNlLoc: at(f, 'Sup_NL_loc').trim(),
      };
    } catch (err) {
      return (err as Error).message;
    }
  };
}

function makeZoneReader(columns: string[]) {
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

type Source = AsyncIterable<Uint8Array | Buffer | string> | Readable;

/**
 * Reads an OMI file and yields, in order: one `meta` event (after the header), then one
 * `valori`/`zone` event per good row and one `rejected` event per bad row. Returns the
 * summary. Throws OmiFormatError when the header is missing required columns.
 */
export async function* parseOmiCsv(
  source: Source,
  opts: { onBytes?: (bytesRead: number) => void } = {},
): AsyncGenerator<OmiParseEvent, OmiParseSummary, undefined> {
  const decoder = new LineDecoder(opts.onBytes);
  const input = source instanceof Readable ? source : Readable.from(source);
  const parser = parse({
    delimiter: ';',
    quote: false,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
  });
  const onError = (err: Error) => parser.destroy(err);
  input.once('error', onError);
  decoder.once('error', onError);
  input.pipe(decoder).pipe(parser);

  const summary: OmiParseSummary = {
    kind: undefined, rowsRead: 0, accepted: 0, rejected: 0, latin1Lines: 0, utf8Lines: 0, encoding: 'ascii', bytesRead: 0,
  };
  let title: string | null = null;
  let readValori: ((r: string[]) => OmiValoriRow | string) | undefined;
  let readZone: ((r: string[]) => OmiZoneRow | string) | undefined;
  let headerSeen = false;

  try {
    for await (const entry of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const { record, info } = entry;
      const line = info.lines;
      if (!headerSeen) {
        const isBlank = record.every((f) => f.trim() === '');
        if (isBlank) continue;
        if (record.length === 1 && title === null && !/linkzona/i.test(record[0]!)) {
          title = record[0]!.trim();
          continue;
        }
        const columns = record.map((c) => c.trim());
        while (columns.length && columns[columns.length - 1] === '') columns.pop();
        const kind = checkHeader(columns);
        summary.kind = kind;
        if (kind === 'valori') readValori = makeValoriReader(columns);
        else readZone = makeZoneReader(columns);
        headerSeen = true;
        yield { type: 'meta', meta: { kind, title, semester: title ? semesterFromTitle(title) : undefined, columns } };
        continue;
      }
      if (record.every((f) => f.trim() === '')) continue;
      summary.rowsRead++;
      if (readValori) {
        const row = readValori(record);
        if (typeof row === 'string') {
          summary.rejected++;
          yield { type: 'rejected', line, reason: row };
        } else {
          summary.accepted++;
          yield { type: 'valori', line, row };
        }
      } else {
        const row = readZone!(record);
        if (typeof row === 'string') {
          summary.rejected++;
          yield { type: 'rejected', line, reason: row };
        } else {
          summary.accepted++;
          yield { type: 'zone', line, row };
        }
      }
    }
  } finally {
    if (!parser.destroyed) parser.destroy();
    input.unpipe?.();
    if (!input.destroyed) input.destroy();
  }
  if (!headerSeen) throw new OmiFormatError('Il file è vuoto o non contiene l\'intestazione dei campi OMI');
  summary.latin1Lines = decoder.latin1Lines;
  summary.utf8Lines = decoder.utf8Lines;
  summary.bytesRead = decoder.bytesRead;
  summary.encoding =
    decoder.latin1Lines && decoder.utf8Lines ? 'mixed' : decoder.latin1Lines ? 'latin1' : decoder.utf8Lines ? 'utf8' : 'ascii';
  return summary;
}

/** Whole-file convenience (tests, small files): every event collected, plus the summary. */
export async function parseOmiFile(source: Source | Buffer | string): Promise<{
  meta: OmiFileMeta;
  valori: { line: number; row: OmiValoriRow }[];
  zones: { line: number; row: OmiZoneRow }[];
  rejected: { line: number; reason: string }[];
  summary: OmiParseSummary;
}> {
  const src: Source = typeof source === 'string' || Buffer.isBuffer(source) ? Readable.from([Buffer.from(source)]) : source;
  const gen = parseOmiCsv(src);
  let meta: OmiFileMeta | undefined;
  const valori: { line: number; row: OmiValoriRow }[] = [];
  const zones: { line: number; row: OmiZoneRow }[] = [];
  const rejected: { line: number; reason: string }[] = [];
  for (;;) {
    const next = await gen.next();
    if (next.done) return { meta: meta!, valori, zones, rejected, summary: next.value };
    const ev = next.value;
    if (ev.type === 'meta') meta = ev.meta;
    else if (ev.type === 'valori') valori.push({ line: ev.line, row: ev.row });
    else if (ev.type === 'zone') zones.push({ line: ev.line, row: ev.row });
    else rejected.push({ line: ev.line, reason: ev.reason });
  }
}
