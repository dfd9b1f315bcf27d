/**
 * The whole national 2017/2 files of the Agenzia Entrate (test/fixtures/omi): every real
 * row is kept, and what the parser reads equals an independent, naive reading of the file.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseOmiFile } from '../../functions/omi/parse-omi';
import type { OmiValoriRow, OmiZoneRow } from '../../functions/domain/omi/types';
import { cadastralCodeOf, comuneIdsOf, matchOmiComune, omiComuneId } from '../../functions/domain/omi/comune-match';
import { comuneSearchKey } from '../../functions/domain/omi/names';
import { comuniOf, findComune } from '../../functions/domain/places/comuni';
import { PROVINCES } from '../../functions/domain/places/provinces';
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

/**
 * Every comune the form offers (the ISTAT list, 7,896) that the file quotes is tied to its
 * rows. "Quotes" is decided independently of the matcher: a row's `Comune_amm` is the
 * comune's cadastral code. Before rows were tied by identity, the valuation looked comuni
 * up by (province, name) and 606 of the 7,896 (7.7 %) found nothing in this file.
 */
describe('national OMI files, 2017/2: comuni of the form', () => {
  const formComuni = () => PROVINCES.flatMap((p) => comuniOf(p.code));
  const fileComuni = () => {
    const out = new Map<string, OmiValoriRow>();
    for (const { row } of valori) out.set(`${row.comuneIstat}|${row.comuneAmm}|${row.comuneDescrizione}`, row);
    return [...out.values()];
  };

  it('ties every comune of the form that the file quotes to its rows, and lists the file comuni left over', () => {
    const quoted = new Set(fileComuni().map((r) => r.comuneAmm));
    const tied = new Set<string>();
    const unmatched: OmiValoriRow[] = [];
    const by: Record<string, number> = {};
    for (const r of fileComuni()) {
      const m = matchOmiComune(r);
      if (!m) unmatched.push(r);
      else {
        tied.add(m.comune.istat);
        by[m.by] = (by[m.by] ?? 0) + 1;
      }
    }
    const form = formComuni();
    const inFile = form.filter((c) => quoted.has(cadastralCodeOf(c.istat)!));
    const bySpelling = new Set(fileComuni().map((r) => `${r.prov}|${comuneSearchKey(r.comuneDescrizione)}`));
    const before = form.filter((c) => bySpelling.has(`${c.province}|${comuneSearchKey(c.name)}`));
    const missing = inFile.filter((c) => !tied.has(c.istat));
    console.info(
      `comuni of the form: ${form.length}; quoted in the file: ${inFile.length}; tied: ${inFile.length - missing.length} ` +
        `(by (province, name) before: ${before.length}); rules: ${JSON.stringify(by)}; file comuni left over: ${unmatched.length}`,
    );
    expect(form).toHaveLength(7896);
    expect(inFile.length).toBe(7820);
    expect(missing.map((c) => `${c.province} ${c.name}`)).toEqual([]);
    expect(before.length).toBe(7290);
    // what is left over are comuni that no longer exist (merged or suppressed since 2017):
    // their cadastral code is no current comune's, and the import report lists them
    expect(unmatched.length).toBe(163);
    for (const r of unmatched) expect(cadastralComune(r.comuneAmm), `${r.prov} ${r.comuneDescrizione}`).toBeUndefined();
    expect(unmatched.map((r) => r.comuneDescrizione)).toEqual(expect.arrayContaining(['PIOVERA', 'UGGIATE-TREVANO', 'VERMEZZO']));
  });

  it.each([
    ['MI', 'MONZA', 'MB', 'Monza'],
    ['BA', 'BARLETTA', 'BT', 'Barletta'],
    ['FO', 'FORLI`', 'FC', 'Forlì'],
    ['FO', 'CESENA', 'FC', 'Cesena'],
    ['PS', 'PESARO', 'PU', 'Pesaro'],
    ['CA', 'CARBONIA', 'SU', 'Carbonia'],
    ['AP', 'FERMO', 'FM', 'Fermo'],
    ['AP', 'S BENEDETTO DEL TRONTO', 'AP', 'San Benedetto del Tronto'],
    ['BG', 'CASTIONE D PRESOLANA', 'BG', 'Castione della Presolana'],
    ['BZ', 'BOLZANO .BOZEN.', 'BZ', 'Bolzano/Bozen'],
    ['BZ', 'ORTISEI .SANKT ULRICH.', 'BZ', 'Ortisei/St. Ulrich'],
  ])('%s %s is the form comune %s %s', (prov, name, formProv, formName) => {
    const row = fileComuni().find((r) => r.prov === prov && r.comuneDescrizione === name);
    expect(row, `${prov} ${name} in the file`).toBeDefined();
    const m = matchOmiComune(row!);
    expect(m?.comune).toEqual(findComune(formProv, formName));
    expect(comuneIdsOf(formProv, formName)[0]).toBe(omiComuneId(row!));
  });

  it('ties every ZONE row to the same comune as its quotations', () => {
    const byLink = new Map(valori.map(({ row }) => [row.linkZona, omiComuneId(row)]));
    let compared = 0;
    for (const { row } of zones) {
      const q = byLink.get(row.linkZona);
      if (q === undefined) continue;
      compared++;
      expect(omiComuneId(row), `${row.prov} ${row.comuneDescrizione} ${row.linkZona}`).toBe(q);
    }
    expect(compared).toBeGreaterThan(24_000);
  });
});

const cadastralComune = (code: string) => formComuniByCadastral().get(code);
let cadastralIndex: Map<string, string> | undefined;
function formComuniByCadastral(): Map<string, string> {
  cadastralIndex ??= new Map(PROVINCES.flatMap((p) => comuniOf(p.code)).map((c) => [cadastralCodeOf(c.istat)!, c.istat]));
  return cadastralIndex;
}
