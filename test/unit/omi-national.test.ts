/**
 * The whole national 2017/2 files of the Agenzia Entrate (test/fixtures/omi): every real
 * row is kept, and what the parser reads equals an independent, naive reading of the file.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseOmiFile } from '../../functions/omi/parse-omi';
import type { OmiValoriRow, OmiZoneRow } from '../../functions/domain/omi/types';
import { nationalSample } from '../support/omi-samples';

type Parsed<R> = { line: number; row: R; warning?: string }[];
let valori: Parsed<OmiValoriRow>;
let zones: Parsed<OmiZoneRow>;
let valoriLines: string[];
let zoneLines: string[];
const summaries: Record<string, unknown> = {};

beforeAll(async () => {
  const files = nationalSample();
  const v = await parseOmiFile(createReadStream(files.valori));
  const z = await parseOmiFile(createReadStream(files.zone));
  valori = v.valori;
  zones = z.zones;
  summaries.valori = { ...v.summary, rejectedReasons: v.rejected.slice(0, 5) };
  summaries.zone = { ...z.summary, rejectedReasons: z.rejected.slice(0, 5) };
  valoriLines = readFileSync(files.valori, 'latin1').split(/\r?\n/);
  zoneLines = readFileSync(files.zone, 'latin1').split(/\r?\n/);
}, 60_000);

/** The naive reading: split on `;`, a comma is the decimal point, `0` or nothing is no value. */
const naive = (text: string) => {
  const t = text.trim();
  if (t === '' || Number(t.replace(',', '.')) === 0) return null;
  return Number((t.startsWith(',') ? `0${t}` : t).replace(',', '.'));
};

function expectedRow(line: string) {
  const f = line.split(';');
  return {
    prov: f[2], comuneDescrizione: f[7], zona: f[9], linkZona: f[10], codTip: Number(f[11]), stato: f[13] || null,
    comprMin: naive(f[15]!), comprMax: naive(f[16]!), locMin: naive(f[18]!), locMax: naive(f[19]!),
  };
}

describe('national OMI files, 2017/2', () => {
  it('keeps all 162,080 VALORI rows and all 27,356 ZONE rows, rejecting none', () => {
    expect(summaries.valori).toMatchObject({ kind: 'valori', rowsRead: 162_080, accepted: 162_080, rejected: 0, warnings: 0, rejectedReasons: [] });
    expect(summaries.zone).toMatchObject({ kind: 'zone', rowsRead: 27_356, accepted: 27_356, rejected: 0, rejectedReasons: [] });
    expect(valori).toHaveLength(162_080);
    expect(zones).toHaveLength(27_356);
  });

  it('reads the 7,431 rows whose rents have a leading comma (",9" = 0.9)', () => {
    const withLeadingComma = valori.filter(({ line }) => {
      const f = valoriLines[line - 1]!.split(';');
      return f[18]!.startsWith(',') || f[19]!.startsWith(',');
    });
    expect(withLeadingComma).toHaveLength(7431);
    for (const { line, row } of withLeadingComma) {
      const e = expectedRow(valoriLines[line - 1]!);
      expect([row.locMin, row.locMax]).toEqual([e.locMin, e.locMax]);
      expect(row.locMin === null || row.locMin > 0).toBe(true);
    }
    // the first one in the file: Alessandria, Posti auto coperti, rents ,9 - 1,3
    const first = valori.find(({ row }) => row.linkZona === 'AL00004456' && row.codTip === 14)!;
    expect(first.row).toMatchObject({ comuneDescrizione: 'ALESSANDRIA', comprMin: 215, comprMax: 320, locMin: 0.9, locMax: 1.3 });
  });

  it.each([
    ['AQ', 'L`AQUILA'],
    ['FO', 'FORLI`'],
    ['LE', 'NARDO`'],
    ['AP', 'SANT`ELPIDIO A MARE'],
    ['RM', 'ROMA'],
    ['NA', 'NAPOLI'],
  ])('%s %s: every row equals the naive reading of its line', (prov, comune) => {
    const fromFile = valoriLines
      .slice(2)
      .filter((l) => l.split(';')[2] === prov && l.split(';')[7] === comune)
      .map(expectedRow);
    const parsed = valori
      .filter(({ row }) => row.prov === prov && row.comuneDescrizione === comune)
      .map(({ row }) => ({
        prov: row.prov, comuneDescrizione: row.comuneDescrizione, zona: row.zona, linkZona: row.linkZona, codTip: row.codTip, stato: row.stato,
        comprMin: row.comprMin, comprMax: row.comprMax, locMin: row.locMin, locMax: row.locMax,
      }));
    expect(fromFile.length).toBeGreaterThan(50);
    expect(parsed).toEqual(fromFile);
    const zonesOfComune = zones.filter(({ row }) => row.prov === prov && row.comuneDescrizione === comune).map(({ row }) => row.linkZona);
    const zonesInFile = zoneLines.slice(2).filter((l) => l.split(';')[2] === prov && l.split(';')[7] === comune).map((l) => l.split(';')[11]);
    expect(zonesOfComune).toEqual(zonesInFile);
    // every quotation's zone is described in the ZONE file
    expect(new Set(parsed.map((p) => p.linkZona))).toEqual(new Set(parsed.map((p) => p.linkZona).filter((z) => zonesOfComune.includes(z))));
  });
});
