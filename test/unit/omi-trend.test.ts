import { describe, expect, it } from 'vitest';
import {
  descriptionSimilarity,
  formatPercentChange,
  isRedrawn,
  priceTrend,
  semesterYearBefore,
  type TrendInputPoint,
  type TrendZoneInfo,
} from '../../functions/domain/omi/trend';
import { evaluateProperty, evaluatePropertySchema } from '../../functions/domain/valuation';
import type { OmiQuotation } from '../../functions/domain/omi/types';
import { renderEstimateEmail } from '../../functions/domain/review/estimate-email';
import { buildChunk, selectPage } from '../../functions/domain/omi/listing-index';
import { zoneHistory } from '../../functions/domain/omi/zone-history';

const p = (semester: string, comprMin: number | null, comprMax: number | null): TrendInputPoint => ({ semester, comprMin, comprMax });
const zone = (semester: string, zona: string, zonaDescr: string, fascia = 'B'): TrendZoneInfo => ({ semester, zona, fascia, zonaDescr });

const DUOMO = 'CENTRO STORICO -DUOMO, SANBABILA, MONTENAPOLEONE, MISSORI, CAIROLI';

describe('priceTrend: band and changes', () => {
  it('orders the semesters oldest first, one point each, with the mid value', () => {
    const t = priceTrend([p('2025-S1', 8700, 11000), p('2024-S1', 8000, 10000), p('2024-S2', 8500, 10500), p('2025-S1', 1, 2)]);
    expect(t.points.map((x) => x.semester)).toEqual(['2024-S1', '2024-S2', '2025-S1']);
    expect(t.points[2]).toEqual({ semester: '2025-S1', min: 8700, max: 11000, mid: 9850 });
  });

  it('one year back is the same semester of the year before (2 semesters back), on the mid value', () => {
    const t = priceTrend([p('2024-S1', 8000, 10000), p('2024-S2', 8500, 10500), p('2025-S1', 8700, 11000)]);
    // 9000 -> 9850: +9,444..% -> 9,4
    expect(t.yearChange).toEqual({ from: '2024-S1', to: '2025-S1', fromMid: 9000, toMid: 9850, percent: 9.4 });
    expect(t.sinceFirst).toEqual(t.yearChange);
    expect(t.summary[0]).toBe('In un anno (dal 2024-S1 al 2025-S1) il valore medio al m² è salito del 9,4%: da 9.000 €/m² a 9.850 €/m².');
    expect(t.summary[1]).toContain('Dal primo semestre disponibile (dal 2024-S1 al 2025-S1)');
  });

  it('since the first semester spans the whole history; a gap is not taken for one year', () => {
    const t = priceTrend([p('2020-S2', 2000, 3000), p('2024-S2', 2400, 3200), p('2025-S1', 2300, 3100)]);
    expect(t.sinceFirst).toMatchObject({ from: '2020-S2', to: '2025-S1', percent: 8 });
    expect(t.yearChange).toBeNull();
    expect(t.summary[0]).toBe('Variazione in un anno non disponibile: manca il semestre 2024-S1 con valori.');
  });

  it('a fall and no change are said in words', () => {
    const down = priceTrend([p('2024-S1', 2000, 2000), p('2025-S1', 1900, 1900)]);
    expect(down.yearChange?.percent).toBe(-5);
    expect(down.summary[0]).toContain('è sceso del 5,0%');
    const flat = priceTrend([p('2024-S1', 2000, 2000), p('2025-S1', 2000, 2000)]);
    expect(flat.summary[0]).toContain('è rimasto invariato');
  });

  it('a semester without values (0 in the file) stays as a gap and is skipped by the changes', () => {
    const t = priceTrend([p('2024-S1', 2000, 3000), p('2024-S2', null, null), p('2025-S1', 0, 0)]);
    expect(t.points.map((x) => x.mid)).toEqual([2500, null, null]);
    expect(t.points[2]).toMatchObject({ min: null, max: null });
    expect(t.yearChange).toBeNull();
    expect(t.sinceFirst).toBeNull();
    expect(t.summary[1]).toBe('Un solo semestre con valori (2024-S1): nessuna variazione da mostrare.');
  });

  it('no history: nothing to draw, said so', () => {
    expect(priceTrend([])).toMatchObject({ points: [], yearChange: null, sinceFirst: null, summary: ['Nessun semestre con valori pubblicati.'] });
  });

  it('formats it-IT percentages with the sign', () => {
    expect(formatPercentChange(3.25)).toBe('+3,3%');
    expect(formatPercentChange(-1)).toBe('-1,0%');
    expect(formatPercentChange(0)).toBe('0,0%');
    expect(semesterYearBefore('2025-S1')).toBe('2024-S1');
    expect(semesterYearBefore('2024/1')).toBeUndefined();
  });
});

describe('priceTrend: zone redraws', () => {
  it('a small rewording of the description is not a redraw', () => {
    expect(descriptionSimilarity(DUOMO, 'CENTRO STORICO - DUOMO, SAN BABILA, MONTENAPOLEONE, MISSORI, CAIROLI')).toBeGreaterThan(0.5);
    expect(isRedrawn(zone('2024-S2', 'B12', DUOMO), zone('2025-S1', 'B12', 'Centro storico: Duomo, San Babila, Montenapoleone, Missori, Cairoli'))).toBe(false);
  });

  it('another Zona code, Fascia or area is a redraw', () => {
    expect(isRedrawn(zone('a', 'B12', DUOMO), zone('b', 'B13', DUOMO))).toBe(true);
    expect(isRedrawn(zone('a', 'B12', DUOMO), zone('b', 'B12', DUOMO, 'C'))).toBe(true);
    expect(isRedrawn(zone('a', 'B12', DUOMO), zone('b', 'B12', 'PERIFERIA/QUARTO OGGIARO, VIALBA, ROSERIO'))).toBe(true);
  });

  it('cuts the history at the newest redraw and says so', () => {
    const history = [p('2013-S1', 1000, 1500), p('2013-S2', 1000, 1400), p('2014-S1', 3000, 4000), p('2014-S2', 3100, 4100), p('2015-S1', 3200, 4200)];
    const zones = [
      zone('2013-S1', 'C5', 'SECONDIGLIANO, SCAMPIA', 'C'),
      zone('2013-S2', 'C5', 'SECONDIGLIANO,SCAMPIA', 'C'),
      zone('2014-S1', 'B7', 'CHIAIA, RIVIERA, MERGELLINA'),
      zone('2014-S2', 'B7', 'CHIAIA - RIVIERA - MERGELLINA'),
      zone('2015-S1', 'B7', 'CHIAIA, RIVIERA DI CHIAIA, MERGELLINA'),
    ];
    const t = priceTrend(history, zones);
    expect(t.points.map((x) => x.semester)).toEqual(['2014-S1', '2014-S2', '2015-S1']);
    expect(t.redraw).toMatchObject({ semester: '2014-S1', dropped: 2, previous: { semester: '2013-S2', zona: 'C5' }, current: { zona: 'B7' } });
    expect(t.notes[0]).toBe(
      "Zone OMI ridisegnate dall'Agenzia delle Entrate nel semestre 2014-S1: fino al 2013-S2 lo stesso codice indicava un'altra area (C5, fascia C: «SECONDIGLIANO,SCAMPIA»). Lo storico parte dal 2014-S1.",
    );
    // the changes never join the two areas
    expect(t.sinceFirst).toMatchObject({ from: '2014-S1', to: '2015-S1' });
    expect(t.yearChange).toMatchObject({ from: '2014-S1', to: '2015-S1' });
  });

  it('a semester without a ZONE item keeps its point (cannot tell) and is named in a note', () => {
    const history = [p('2024-S1', 2000, 3000), p('2024-S2', 2100, 3100), p('2025-S1', 2200, 3200)];
    const t = priceTrend(history, [zone('2024-S2', 'B12', DUOMO), zone('2025-S1', 'B12', DUOMO)]);
    expect(t.points).toHaveLength(3);
    expect(t.redraw).toBeNull();
    expect(t.notes).toEqual(['Manca la descrizione della zona (file ZONE) del semestre 2024-S1: per quel semestre non si può verificare se la zona è stata ridisegnata.']);
    const two = priceTrend([...history, p('2023-S2', 1900, 2900)], [zone('2025-S1', 'B12', DUOMO)]);
    expect(two.notes).toEqual(['Mancano le descrizioni della zona (file ZONE) di 3 semestri (2023-S2, 2024-S1, 2024-S2): per quei semestri non si può verificare se la zona è stata ridisegnata.']);
  });

  it('without any ZONE item, or without the descriptions read, the history is kept whole and the note says it was not checked', () => {
    const history = [p('2024-S1', 2000, 3000), p('2025-S1', 2200, 3200)];
    expect(priceTrend(history, []).notes[0]).toContain('non si può verificare');
    expect(priceTrend(history).notes[0]).toContain('non si può verificare');
    expect(priceTrend(history).points).toHaveLength(2);
  });
});

describe('the valuation carries the trend of its history', () => {
  const q = (semester: string, zona: string, min: number, max: number): OmiQuotation => ({
    semester, prov: 'MI', comuneDescrizione: 'MILANO', fascia: 'B', zona, linkZona: 'MI00003228', codTip: 20,
    descrTipologia: 'Abitazioni civili', stato: 'NORMALE', statoPrev: true, comprMin: min, comprMax: max,
  });
  const req = evaluatePropertySchema.parse({ province: 'MI', city: 'Milano', surfaceArea: 80, condition: 'buono' });

  it('from the chosen zone and state, cut at the redraw the ZONE items show', () => {
    const rows = [q('2025-S1', 'B12', 8700, 11000)];
    const history = [q('2024-S1', 'B12', 3000, 4000), q('2024-S2', 'B12', 8500, 10500)];
    const historyZones = [
      { linkZona: 'MI00003228', zona: 'D10', fascia: 'D', zonaDescr: 'PERIFERIA/BAGGIO', semester: '2024-S1' },
      { linkZona: 'MI00003228', zona: 'B12', fascia: 'B', zonaDescr: DUOMO, semester: '2024-S2' },
      { linkZona: 'MI00003228', zona: 'B12', fascia: 'B', zonaDescr: DUOMO, semester: '2025-S1' },
    ];
    const res = evaluateProperty(req, { rows, history, historyZones });
    if (!res.available) throw new Error(res.reason);
    expect(res.history.map((h) => h.semester)).toEqual(['2025-S1', '2024-S2', '2024-S1']);
    expect(res.trend?.points.map((x) => x.semester)).toEqual(['2024-S2', '2025-S1']);
    expect(res.trend?.redraw?.semester).toBe('2024-S2');
  });
});

describe('the trend in the estimate e-mail', () => {
  const trend = priceTrend(
    [p('2024-S1', 8000, 10000), p('2024-S2', null, null), p('2025-S1', 8700, 11000)],
    [zone('2024-S1', 'B12', 'VECCHIA <AREA>'), zone('2025-S1', 'B12', DUOMO)],
  );
  const base = {
    customerName: 'Giulia', propertyAddress: 'Via Verdi 12', propertyCity: 'Milano', valuationMin: 684_000, valuationMax: 866_400,
    valuationAvg: 775_200, cautiousDiscount: -10, adjustedAvg: 697_680, registrationToken: 'abc_DEF-123456789012345', appUrl: 'https://app.example.it',
  };

  it('HTML without script or SVG: a table row per semester with a bar as wide as the band, the changes and notes in words, all escaped', () => {
    const t = priceTrend([p('2024-S1', 8000, 10000), p('2024-S2', null, null), p('2025-S1', 8700, 11000)]);
    const m = renderEstimateEmail({ ...base, trend: { trend: t, zoneLabel: 'B12 <i>x</i>, Abitazioni civili, stato NORMALE' } });
    expect(m.html).not.toMatch(/<script|<svg/i);
    expect(m.html).toContain('Andamento dei prezzi nella zona OMI (B12 &lt;i&gt;x&lt;/i&gt;, Abitazioni civili, stato NORMALE)');
    expect(m.html.match(/<th scope="row"[^>]*>20\d\d-S\d<\/th>/g)).toHaveLength(3);
    expect(m.html).toContain('bgcolor="#223d73"');
    expect(m.html).toContain('8.700 - 11.000 €/m²');
    expect(m.html).toContain('nessun valore pubblicato');
    expect(m.html).toContain('è salito del 9,4%');
    // scale: 7.200 (0,9 x the lowest min) .. 11.000: 2025-S1 starts at 39,5% and reaches the end
    expect(m.html).toMatch(/width="39.5%"[^>]*>&nbsp;<\/td><td width="60.5%" bgcolor/);
    expect(m.text).toContain('- 2024-S2: nessun valore pubblicato');
    expect(m.text).toContain('- 2025-S1: 8.700 - 11.000 €/m²');
    expect(m.text).toContain('In un anno (dal 2024-S1 al 2025-S1) il valore medio al m² è salito del 9,4%');
  });

  it('the redraw note reaches the mail escaped; no trend, no section', () => {
    const m = renderEstimateEmail({ ...base, trend: { trend, zoneLabel: 'B12' } });
    expect(m.html).toContain('«VECCHIA &lt;AREA&gt;»');
    expect(m.html).not.toContain('<AREA>');
    expect(m.text).toContain('Zone OMI ridisegnate');
    expect(renderEstimateEmail(base).html).not.toContain('Andamento dei prezzi');
  });
});

describe('the Dati OMI zone filter and history', () => {
  const entry = (comune: string, linkZona: string, zona: string, codTip = 20, stato: 'NORMALE' | 'OTTIMO' = 'NORMALE') => ({
    comune, comuneKey: comune.toLowerCase(), linkZona, zona, codTip, stato,
  });
  const chunk = buildChunk('2025-S1', 'MI', [
    entry('MILANO', 'MI00003228', 'B12'), entry('MILANO', 'MI00003228', 'B12', 20, 'OTTIMO'), entry('MILANO', 'MI00003232', 'B13'),
    entry('RHO', 'MI00009999', 'B12'),
  ]);

  it('matches a LinkZona or a Zona code, within the comune filter, and lists the zones matched', () => {
    expect(selectPage([chunk], { zona: 'MI00003232' }, 0, 50)).toMatchObject({ total: 1, zones: [{ linkZona: 'MI00003232', zona: 'B13', comune: 'MILANO' }] });
    expect(selectPage([chunk], { zona: 'B12' }, 0, 50).zones?.map((z) => z.linkZona)).toEqual(['MI00003228', 'MI00009999']);
    expect(selectPage([chunk], { zona: 'B12', comuneKey: 'milano' }, 0, 50)).toMatchObject({ total: 2, zones: [{ linkZona: 'MI00003228' }] });
    expect(selectPage([chunk], { zona: 'X1' }, 0, 50)).toEqual({ total: 0, hits: [], zones: [] });
    expect(selectPage([chunk], {}, 0, 50).zones).toBeUndefined();
  });

  const rec = (semester: string, codTip: number, stato: 'NORMALE' | 'OTTIMO', statoPrev: boolean, min: number, max: number): OmiQuotation => ({
    semester, prov: 'MI', comuneDescrizione: 'MILANO', fascia: 'B', zona: 'B12', linkZona: 'MI00003228', codTip,
    descrTipologia: '', stato, statoPrev, comprMin: min, comprMax: max,
  });

  it('draws Abitazioni civili in the prevalent state of the newest semester unless the filters say otherwise', () => {
    const records = [
      rec('2024-S2', 20, 'NORMALE', true, 8000, 10000), rec('2024-S2', 20, 'OTTIMO', false, 10000, 12000),
      rec('2025-S1', 20, 'OTTIMO', true, 10500, 12500), rec('2025-S1', 20, 'NORMALE', false, 8200, 10200), rec('2025-S1', 1, 'NORMALE', true, 9000, 9500),
    ];
    const h = zoneHistory(records, [], {})!;
    expect(h).toMatchObject({ codTip: 20, descrTipologia: 'Abitazioni civili', stato: 'OTTIMO', zona: 'B12' });
    expect(h.basis).toBe("Mostrati: tipologia Abitazioni civili (scegli una tipologia per vederne un'altra); stato OTTIMO, prevalente nel semestre più recente.");
    expect(h.trend.points.map((x) => [x.semester, x.min])).toEqual([['2024-S2', 10000], ['2025-S1', 10500]]);
    expect(zoneHistory(records, [], { codTip: 20, stato: 'NORMALE' })).toMatchObject({ stato: 'NORMALE', basis: '' });
    expect(zoneHistory(records, [], { codTip: 13 })).toBeUndefined();
    expect(zoneHistory([], [], {})).toBeUndefined();
  });
});
