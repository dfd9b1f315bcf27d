import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { decodeWin1252 } from '../../functions/omi/win1252';
import { MILANO } from '../support/omi-samples';
import { formatValoriLine, formatZoneLine, OmiFormatError, parseOmiCsv, parseOmiFile, readValoriLine, readZoneLine } from '../../functions/omi/parse-omi';
import { readValoriLineOfType } from '../../functions/domain/omi/lines';

const S2025 = MILANO.valori2025;
const S2024 = MILANO.valori2024;
const ZONE = MILANO.zone2025;

const TITLE = 'Quotazioni Immobiliari : Valori di Mercato - Semestre 2025/1 - elaborazione del 23-NOV-25';
const HEADER =
  'Area_territoriale;Regione;Prov;Comune_ISTAT;Comune_cat;Sez;Comune_amm;Comune_descrizione;Fascia;Zona;LinkZona;Cod_Tip;Descr_Tipologia;Stato;Stato_prev;Compr_min;Compr_max;Sup_NL_compr;Loc_min;Loc_max;Sup_NL_loc;';

/** Feeds a buffer in small chunks so lines straddle chunk boundaries, as from S3. */
function chunked(buf: Buffer, size = 97): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) parts.push(buf.subarray(i, i + size));
  return Readable.from(parts);
}

describe('OMI parser on the real Milano files', () => {
  it('reads all 446 rows of 2025/1 with the title semester, decimal commas and states', async () => {
    const r = await parseOmiFile(createReadStream(S2025));
    expect(r.meta.kind).toBe('valori');
    expect(r.meta.semester).toBe('2025-S1');
    expect(r.summary).toMatchObject({ rowsRead: 446, accepted: 446, rejected: 0, encoding: 'ascii' });
    expect(r.valori).toHaveLength(446);
    expect(r.rejected).toEqual([]);
    // line 3: ...;MI00003228;20;Abitazioni civili;NORMALE;P;8700;11000;L;25;35;L;
    expect(r.valori[0]).toEqual({
      line: 3,
      row: {
        areaTerritoriale: 'NORD-OVEST', regione: 'LOMBARDIA', prov: 'MI', comuneIstat: '3015146', comuneCat: 'C1AA', sez: '',
        comuneAmm: 'F205', comuneDescrizione: 'MILANO', fascia: 'B', zona: 'B12', linkZona: 'MI00003228', codTip: 20,
        descrTipologia: 'Abitazioni civili', stato: 'NORMALE', statoPrev: true, comprMin: 8700, comprMax: 11000,
        supNlCompr: 'L', locMin: 25, locMax: 35, supNlLoc: 'L',
      },
    });
    // line 4: ...;OTTIMO; ;11100;15300;L;35,1;50;L;  (Stato_prev a single space, decimal comma)
    expect(r.valori[1]!.row).toMatchObject({ stato: 'OTTIMO', statoPrev: false, comprMin: 11100, locMin: 35.1, locMax: 50 });
    // last line 448: ...;E8;MI00004787;10;Laboratori;NORMALE;P;600;1000;L;3,7;5,8;L;
    expect(r.valori[445]).toMatchObject({ line: 448, row: { zona: 'E8', codTip: 10, locMin: 3.7, locMax: 5.8 } });
    const states = r.valori.map((v) => `${v.row.stato}${v.row.statoPrev ? 'P' : ''}`);
    expect(states.filter((s) => s === 'NORMALEP')).toHaveLength(249);
    expect(states.filter((s) => s === 'NORMALE')).toHaveLength(11);
    expect(states.filter((s) => s === 'OTTIMOP')).toHaveLength(98);
    expect(states.filter((s) => s === 'OTTIMO')).toHaveLength(88);
    expect(new Set(r.valori.map((v) => v.row.linkZona)).size).toBe(42);
    // record identity (LinkZona, Cod_Tip, Stato) is unique within the file
    expect(new Set(r.valori.map((v) => `${v.row.linkZona}|${v.row.codTip}|${v.row.stato}`)).size).toBe(446);
  });

  it('reads all 446 rows of 2024/2', async () => {
    const r = await parseOmiFile(chunked(readFileSync(S2024)));
    expect(r.meta.semester).toBe('2024-S2');
    expect(r.summary).toMatchObject({ rowsRead: 446, accepted: 446, rejected: 0 });
    expect(r.valori.filter((v) => v.row.statoPrev)).toHaveLength(248 + 99);
  });

  it('reads the ZONE file: 43 zones, quotes stripped, backtick kept', async () => {
    const r = await parseOmiFile(createReadStream(ZONE));
    expect(r.meta.kind).toBe('zone');
    expect(r.meta.semester).toBe('2025-S1');
    expect(r.summary).toMatchObject({ rowsRead: 43, accepted: 43, rejected: 0 });
    expect(r.zones[3]!.row).toMatchObject({ linkZona: 'MI00003545', zona: 'B16', zonaDescr: 'CENTRO STORICO -SANT`AMBROGIO, CADORNA, VIA DANTE' });
    expect(r.zones[42]!.row).toMatchObject({ zona: 'R2', codTipPrev: null, descrTipPrev: 'Non presente' });
  });
});

describe('OMI parser on crafted bad files', () => {
  const lines = readFileSync(S2025, 'latin1').split('\n');

  it('refuses a header with missing columns, naming them', async () => {
    const header = HEADER.replace('Compr_min;', '').replace('Loc_max;', '').replace('LinkZona;', 'Link_Zona;');
    const file = [TITLE, header, lines[2], ''].join('\n');
    const err = await parseOmiFile(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OmiFormatError);
    expect((err as OmiFormatError).missingColumns).toEqual(['LinkZona', 'Compr_min', 'Loc_max']);
    expect((err as Error).message).toContain('mancano le colonne LinkZona, Compr_min, Loc_max');
  });

  it('refuses an empty file', async () => {
    await expect(parseOmiFile('')).rejects.toThrow(/vuoto/);
  });

  it('decodes every Windows-1252 byte as iconv-lite does', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(decodeWin1252(all)).toBe(iconv.decode(Buffer.from(all), 'win1252'));
    expect(decodeWin1252(Buffer.from([0x80, 0x92, 0xe0, 0xcc]))).toBe('€’àÌ');
  });

  it('reads Latin-1 bytes, backtick accents, 0 values, an empty Stato, CRLF and mixed encodings', async () => {
    const rows = [
      'CENTRO;UMBRIA;PG;10054047;I263; ;I263;SANT`ANATOLIA DI NARCO;R;R1;PG00001234;20;Abitazioni civili;NORMALE;P;500;750;L;2,1;3;L;',
      'NORD-EST;EMILIA-ROMAGNA;FC;8040012;D704; ;D704;FORLÌ;B;B1;FC00000001;20;Abitazioni civili;;P;0;0;L;0;0;L;',
      'NORD-EST;EMILIA-ROMAGNA;FC;8040012;D704; ;D704;FORLÌ;B;B1;FC00000001;5;Negozi;OTTIMO; ;1200;1800;L;6,5;9;N;',
    ];
    const latin1 = iconv.encode([TITLE, HEADER, ...rows].join('\r\n') + '\r\n', 'latin1');
    const r = await parseOmiFile(chunked(latin1, 50));
    expect(r.summary).toMatchObject({ rowsRead: 3, accepted: 3, rejected: 0, latin1Lines: 2, utf8Lines: 0, encoding: 'latin1' });
    expect(r.valori.map((v) => v.row.comuneDescrizione)).toEqual(['SANT`ANATOLIA DI NARCO', 'FORLÌ', 'FORLÌ']);
    expect(r.valori[1]!.row).toMatchObject({ stato: null, statoPrev: true, comprMin: null, comprMax: null, locMin: null, locMax: null });
    expect(r.valori[2]!.row).toMatchObject({ stato: 'OTTIMO', statoPrev: false, comprMin: 1200, locMin: 6.5, supNlLoc: 'N' });

    // one UTF-8 line among Latin-1 ones: each line is decoded on its own
    const mixed = Buffer.concat([
      iconv.encode(`${TITLE}\n${HEADER}\n${rows[1]}\n`, 'latin1'),
      Buffer.from(`${rows[2]}\n`, 'utf8'),
    ]);
    const m = await parseOmiFile(mixed);
    expect(m.summary).toMatchObject({ rowsRead: 2, accepted: 2, latin1Lines: 1, utf8Lines: 1, encoding: 'mixed' });
    expect(m.valori.map((v) => v.row.comuneDescrizione)).toEqual(['FORLÌ', 'FORLÌ']);

    // UTF-8 with a byte order mark
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([TITLE, HEADER, rows[1], ''].join('\n'), 'utf8')]);
    const b = await parseOmiFile(bom);
    expect(b.meta.semester).toBe('2025-S1');
    expect(b.summary).toMatchObject({ rowsRead: 1, accepted: 1, utf8Lines: 1, encoding: 'utf8' });
  });

  it('reports a truncated last line and keeps the other 445 rows', async () => {
    const full = readFileSync(S2025);
    // cut the last 8 bytes (";5,8;L;\n"): the last row ends "...;L;3,7", 19 of its 21 fields
    const cut = full.subarray(0, full.length - 8);
    const r = await parseOmiFile(chunked(cut, 1000));
    expect(r.summary).toMatchObject({ rowsRead: 446, accepted: 445, rejected: 1 });
    expect(r.rejected).toEqual([{ line: 448, reason: 'Numero di campi errato: 19 invece di 21 (riga troncata o malformata)' }]);
  });

  it('keeps rows with an unreadable value or surface flag (stored empty, with a warning) and rejects a wrong field count', async () => {
    const bad = [...lines];
    bad[9] = bad[9]!.replace(';9000;15000;', ';abc;15000;'); // line 10: Compr_min "abc"
    bad[19] = bad[19]!.replace(';38,1;55;', ';38,1;55x;'); // line 20: Loc_max "55x"
    bad[24] = bad[24]!.replace(/;L;([^;]*);([^;]*);L;$/, ';Q;$1;$2;L;'); // line 25: Sup_NL_compr "Q"
    bad[29] = bad[29]!.replace(';L;', ';L;extra;'); // line 30: one field too many
    bad[39] = ''; // line 40: blank line, not a row
    const r = await parseOmiFile(bad.join('\n'));
    expect(r.summary).toMatchObject({ rowsRead: 445, accepted: 444, rejected: 1, warnings: 3 });
    expect(r.rejected).toEqual([{ line: 30, reason: 'Numero di campi errato: 22 invece di 21 (riga troncata o malformata)' }]);
    const warned = r.valori.filter((v) => v.warning);
    expect(warned.map((v) => ({ line: v.line, warning: v.warning }))).toEqual([
      { line: 10, warning: 'Compr_min non numerico ("abc"), salvato vuoto' },
      { line: 20, warning: 'Loc_max non numerico ("55x"), salvato vuoto' },
      { line: 25, warning: 'Sup_NL_compr non valido ("Q"), salvato vuoto' },
    ]);
    expect(warned[0]!.row).toMatchObject({ comprMin: null, comprMax: 15000 });
    expect(warned[1]!.row).toMatchObject({ locMin: 38.1, locMax: null });
    expect(warned[2]!.row.supNlCompr).toBe('');
    expect(r.valori.at(-1)!.line).toBe(448);
  });

  it('reads numbers as AdE writes them and rejects only a row with no readable value', async () => {
    const row = lines[2]!; // ...;Compr_min;Compr_max;L;Loc_min;Loc_max;L;
    const withValues = (v: string) => row.replace(/;[^;]*;[^;]*;L;[^;]*;[^;]*;L;$/, `;${v};L;`);
    const file = [
      TITLE,
      HEADER,
      withValues('8700;9100;L;5,1;,9'),
      withValues('0;0;L;0;0'),
      withValues(';;L;;'),
      withValues('x;y;L;z;w'),
    ].join('\n');
    const r = await parseOmiFile(file);
    expect(r.summary).toMatchObject({ rowsRead: 4, accepted: 3, rejected: 1, warnings: 0 });
    expect(r.valori.map((v) => [v.row.comprMin, v.row.comprMax, v.row.locMin, v.row.locMax])).toEqual([
      [8700, 9100, 5.1, 0.9],
      [null, null, null, null],
      [null, null, null, null],
    ]);
    expect(r.rejected[0]!.reason).toMatch(/^Nessun valore leggibile: Compr_min non numerico \("x"\)/);
  });

  it('reports missing key fields and unknown states', async () => {
    const row = lines[2]!;
    const file = [
      TITLE,
      HEADER,
      row.replace(';MI00003228;', ';;'),
      row.replace(';NORMALE;P;', ';BUONO;P;'),
      row.replace(';20;Abitazioni civili;', ';x;Abitazioni civili;'),
      row,
    ].join('\n');
    const r = await parseOmiFile(file);
    expect(r.summary).toMatchObject({ rowsRead: 4, accepted: 1, rejected: 3 });
    expect(r.rejected.map((x) => x.reason)).toEqual(['LinkZona mancante', 'Stato non valido: "BUONO"', 'Cod_Tip non valido: "x"']);
  });
});

describe('OMI parser engines', () => {
  it('split (default) and csv-parse read the same rows, rejections and line numbers', async () => {
    const lines = readFileSync(S2025, 'latin1').split('\n');
    lines[9] = lines[9]!.replace(';9000;15000;', ';abc;15000;');
    lines[29] = lines[29]!.replace(';L;', ';L;extra;');
    lines[39] = '';
    const crafted = Buffer.from(lines.join('\r\n').slice(0, -40), 'latin1');
    for (const file of [readFileSync(S2025), readFileSync(S2024), readFileSync(ZONE), crafted]) {
      const a = await parseOmiFile(chunked(file, 4096), 'split');
      const b = await parseOmiFile(chunked(file, 4096), 'csv-parse');
      expect(a).toEqual(b);
    }
    const crafty = await parseOmiFile(crafted);
    expect(crafty.summary).toMatchObject({ rowsRead: 445, accepted: 443, rejected: 2, warnings: 1 }); // warned 10; rejected 30 and the cut line 448
  });
});

describe('stored row lines', () => {
  it('write every row as the published line and read it back unchanged', async () => {
    const text = readFileSync(S2025, 'latin1').split('\n');
    const r = await parseOmiFile(createReadStream(S2025));
    for (const { line, row } of r.valori) {
      expect(formatValoriLine(row)).toBe(text[line - 1]); // byte for byte the file's line
      expect(readValoriLine(formatValoriLine(row))).toEqual(row);
    }
    const z = await parseOmiFile(createReadStream(ZONE));
    for (const { row } of z.zones) expect(readZoneLine(formatZoneLine(row))).toEqual({ ...row, codTipPrev: row.codTipPrev });
    const missing = { ...r.valori[0]!.row, stato: null, comprMin: null, comprMax: null, locMin: 5.1, locMax: null };
    expect(formatValoriLine(missing)).toBe(
      'NORD-OVEST;LOMBARDIA;MI;3015146;C1AA; ;F205;MILANO;B;B12;MI00003228;20;Abitazioni civili;;P;0;0;L;5,1;0;L;',
    );
    expect(readValoriLine(formatValoriLine(missing))).toEqual(missing);
  });

  it('read one type only: the same row for a line of that type, nothing for another type', async () => {
    const r = await parseOmiFile(createReadStream(S2025));
    const types = new Set(r.valori.map((v) => v.row.codTip));
    expect(types.size).toBeGreaterThan(3);
    for (const { row } of r.valori) {
      for (const codTip of types) expect(readValoriLineOfType(formatValoriLine(row), codTip)).toEqual(codTip === row.codTip ? row : undefined);
    }
  });
});


describe('bytes and line feeds as they enter the parser', () => {
  it('reports both at the same point, whatever the chunking (the import expects the rows from their ratio)', async () => {
    const bytes = readFileSync(S2025);
    const seen: [number, number][] = [];
    const chunks = [bytes.subarray(0, 1000), bytes.subarray(1000, 1001), bytes.subarray(1001, 30_000), bytes.subarray(30_000)];
    const events = parseOmiCsv(Readable.from(chunks), { onBytes: (n, lineFeeds) => seen.push([n, lineFeeds]) });
    let rows = 0;
    for await (const batch of events) rows += batch.filter((e) => e.type === 'valori').length;
    const feeds = (b: Buffer) => b.toString('latin1').split('\n').length - 1;
    expect(seen).toEqual(chunks.map((_, i) => [Buffer.concat(chunks.slice(0, i + 1)).length, feeds(Buffer.concat(chunks.slice(0, i + 1)))]));
    // title + header + 446 rows, each ended by a line feed
    expect(rows).toBe(446);
    expect(seen.at(-1)).toEqual([bytes.length, 448]);
  });
});
