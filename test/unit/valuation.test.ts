import { createReadStream } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseOmiFile } from '../../functions/omi/parse-omi';
import { MILANO } from '../support/omi-samples';
import {
  applyPercent,
  correctionLines,
  evaluatePropertySchema,
  evaluateProperty,
  selectQuotation,
  type ValuationAvailable,
  type ValuationInput,
  type ValuationResult,
} from '../../functions/domain/valuation';
import type { OmiQuotation, OmiZoneInfo } from '../../functions/domain/omi/types';

async function quotations(file: string, semester: string): Promise<OmiQuotation[]> {
  const r = await parseOmiFile(createReadStream(file));
  return r.valori.map(({ row }) => ({ ...row, semester }));
}

let rows2025: OmiQuotation[];
let rows2024: OmiQuotation[];
let zones: OmiZoneInfo[];

beforeAll(async () => {
  rows2025 = await quotations(MILANO.valori2025, '2025-S1');
  rows2024 = await quotations(MILANO.valori2024, '2024-S2');
  const z = await parseOmiFile(createReadStream(MILANO.zone2025));
  zones = z.zones.map(({ row }) => ({ linkZona: row.linkZona, zona: row.zona, fascia: row.fascia, zonaDescr: row.zonaDescr, semester: '2025-S1' }));
});

const req = (input: ValuationInput) => evaluatePropertySchema.parse(input);
function ok(r: ValuationResult): ValuationAvailable {
  if (!r.available) throw new Error(`not available: ${r.reason}`);
  return r;
}

describe('valuation engine on the Milano samples (figures worked out by hand)', () => {
  it('Via Brera, 80 m², buono, 2nd floor with lift, no terrace: zone B15 by address, NORMALE, -5%', () => {
    const r = ok(
      evaluateProperty(
        req({ address: 'Via Brera 10', province: 'mi', city: 'Milano', omiCategory: 'abitazioni_civili', surfaceArea: 80, condition: 'buono', floor: '2', hasTerrace: false, features: ['Ascensore', 'Cantina'] }),
        { rows: [...rows2025, ...rows2024], zones },
      ),
    );
    // ZONE: B15 'CENTRO STORICO - BRERA'; VALORI 2025/1 line: B15;MI00003544;20;...;NORMALE;P;9000;11400
    expect(r.semester).toBe('2025-S1');
    expect(r.omiSource).toBe('Agenzia Entrate - OMI 2025-S1');
    expect(r.zone).toMatchObject({ linkZona: 'MI00003544', zona: 'B15', fascia: 'B', rule: 'address', zonaDescr: 'CENTRO STORICO - BRERA' });
    expect(r.stato).toMatchObject({ requested: 'NORMALE', used: 'NORMALE', prevalent: true });
    expect(r.omiDetails).toEqual({ zona: 'B15', stato: 'NORMALE', fascia: 'B', comprMin: 9000, comprMax: 11400 });
    // base: 80 x 9000 = 720,000; 80 x 11,400 = 912,000; 80 x (9000 + 11400) / 2 = 80 x 10,200 = 816,000
    expect(r.base).toEqual({ min: 720_000, max: 912_000, avg: 816_000 });
    // corrections: no terrace -> no balcony -5 (pre-checked); lift present; floor 2 -> none. Total -5
    expect(r.corrections).toEqual([{ code: 'noBalcony', label: 'Assenza di balcone', percent: -5 }]);
    expect(r.correctionTotalPercent).toBe(-5);
    // 720,000 x 0.95 = 684,000; 912,000 x 0.95 = 866,400; 816,000 x 0.95 = 775,200
    expect([r.propertyValueMin, r.propertyValueMax, r.propertyValueAvg]).toEqual([684_000, 866_400, 775_200]);
    // per m²: 9000 x 0.95 = 8550; 11,400 x 0.95 = 10,830
    expect([r.valueSqmMin, r.valueSqmMax]).toEqual([8550, 10_830]);
    // cautious discount -10 (default): 684,000 x 0.9 = 615,600; 866,400 x 0.9 = 779,760; 775,200 x 0.9 = 697,680
    expect(r.cautiousDiscount).toBe(-10);
    expect([r.adjustedMin, r.adjustedMax, r.adjustedAvg]).toEqual([615_600, 779_760, 697_680]);
    // history of B15 / Abitazioni civili / NORMALE: 2025/1 9000-11400, 2024/2 8000-10400
    expect(r.history).toEqual([
      { semester: '2025-S1', stato: 'NORMALE', comprMin: 9000, comprMax: 11_400 },
      { semester: '2024-S2', stato: 'NORMALE', comprMin: 8000, comprMax: 10_400 },
    ]);
    // rows considered: the 82 type-20 rows of 2025/1, one of them used
    expect(r.rowsConsidered).toHaveLength(82);
    expect(r.rowsConsidered.filter((x) => x.used)).toEqual([
      { linkZona: 'MI00003544', zona: 'B15', fascia: 'B', stato: 'NORMALE', statoPrev: true, comprMin: 9000, comprMax: 11_400, used: true },
    ]);
    expect(r.zones).toHaveLength(42);
    expect(r.notes).toEqual(['Ascensore', 'Cantina']);
    expect(r.explanation.join('\n')).toContain('Assenza di balcone: -5%');
  });

  it('values the selection it is given (the use case selects once, to load the zone history, and passes it on)', () => {
    const input = req({ address: 'Via Brera 10', province: 'MI', city: 'Milano', surfaceArea: 80, condition: 'buono' });
    const data = { rows: [...rows2025, ...rows2024], zones };
    const selection = selectQuotation(input, data.rows, data.zones);
    expect(selection).toMatchObject({ ok: true, zone: { linkZona: 'MI00003544', rule: 'address' } });
    expect(evaluateProperty(input, data, selection)).toEqual(evaluateProperty(input, data));
    // the figures come from the selection passed in, not from a second selection
    const median = selectQuotation({ ...input, address: '' }, data.rows);
    expect(ok(evaluateProperty(input, data, median)).zone.rule).toBe('median');
  });

  it('no zone descriptions: the median zone D24 by mid value, OTTIMO, terrace +5%', () => {
    // For 'ottimo' each of the 42 zones contributes its OTTIMO row (or its P row). Sorted by
    // (Compr_min + Compr_max) / 2: E7 2775, E8 3250, ..., D20 5050 (20th), D24 5250 (21st),
    // D16 5450 (22nd), ..., B15 13750 (42nd). Lower median = position floor(41 / 2) + 1 = 21 -> D24.
    // VALORI 2025/1: D24;MI00000331;20;...;OTTIMO; ;4300;6200
    const r = ok(
      evaluateProperty(
        req({ address: 'Via Roma 1', province: 'MI', city: 'MILANO', surfaceArea: 100, condition: 'ottimo', floor: '1', hasTerrace: true, features: ['Ascensore', 'Balcone', 'Cantina', 'Soffitta', 'Allarme'] }),
        { rows: rows2025 },
      ),
    );
    expect(r.zone).toMatchObject({ linkZona: 'MI00000331', zona: 'D24', rule: 'median', zonaDescr: null });
    expect(r.zone.reason).toContain('posizione 21 di 42');
    expect(r.stato).toMatchObject({ requested: 'OTTIMO', used: 'OTTIMO', prevalent: false });
    // terrace: +5; terrace means a balcony (no -5); lift present. Total +5
    expect(r.corrections).toEqual([{ code: 'terrace', label: 'Terrazzo', percent: 5 }]);
    // base 100 x 4300 = 430,000; 100 x 6200 = 620,000; 100 x 5250 = 525,000
    // x 1.05 = 451,500; 651,000; 551,250
    expect([r.propertyValueMin, r.propertyValueMax, r.propertyValueAvg]).toEqual([451_500, 651_000, 551_250]);
    // per m²: 4300 x 1.05 = 4515; 6200 x 1.05 = 6510
    expect([r.valueSqmMin, r.valueSqmMax]).toEqual([4515, 6510]);
    // -10%: 406,350; 585,900; 496,125
    expect([r.adjustedMin, r.adjustedMax, r.adjustedAvg]).toEqual([406_350, 585_900, 496_125]);
    // notes: the first 4 features, then the terrace
    expect(r.notes).toEqual(['Ascensore', 'Balcone', 'Cantina', 'Soffitta', 'Terrazzo: +5%']);
    expect(r.history).toEqual([{ semester: '2025-S1', stato: 'OTTIMO', comprMin: 4300, comprMax: 6200 }]);
  });

  it("admin's zone E8, ground floor, no lift, terrace, da_ristrutturare -> prevalent NORMALE, discount -20", () => {
    // SCADENTE is not quoted in E8: the P row is used. VALORI 2025/1: E8;MI00004787;20;...;NORMALE;P;1900;2650
    const r = ok(
      evaluateProperty(
        req({
          address: 'Via Brera 10', province: 'MI', city: 'Milano', surfaceArea: 65, condition: 'da_ristrutturare', floor: 'terra',
          hasTerrace: true, features: [], cautiousDiscount: -20, linkZona: 'MI00004787',
        }),
        { rows: rows2025, zones, history: rows2024.filter((x) => x.linkZona === 'MI00004787') },
      ),
    );
    expect(r.zone).toMatchObject({ zona: 'E8', rule: 'admin' });
    expect(r.stato).toMatchObject({ requested: 'SCADENTE', used: 'NORMALE', prevalent: true });
    expect(r.stato.reason).toContain('non quotato');
    // corrections: ground floor -7, no lift -7, terrace +5 (no -5: it has a terrace) = -9
    expect(r.corrections.map((c) => [c.code, c.percent])).toEqual([['groundFloor', -7], ['noElevator', -7], ['terrace', 5]]);
    expect(r.correctionTotalPercent).toBe(-9);
    // base 65 x 1900 = 123,500; 65 x 2650 = 172,250; 65 x 2275 = 147,875
    // x 0.91: 112,385; 156,747.5 -> 156,748; 134,566.25 -> 134,566
    expect([r.propertyValueMin, r.propertyValueMax, r.propertyValueAvg]).toEqual([112_385, 156_748, 134_566]);
    // per m²: 1900 x 0.91 = 1729; 2650 x 0.91 = 2411.5 -> 2412
    expect([r.valueSqmMin, r.valueSqmMax]).toEqual([1729, 2412]);
    // -20% on the rounded values: 112,385 x 0.8 = 89,908; 156,748 x 0.8 = 125,398.4 -> 125,398; 134,566 x 0.8 = 107,652.8 -> 107,653
    expect([r.adjustedMin, r.adjustedMax, r.adjustedAvg]).toEqual([89_908, 125_398, 107_653]);
    // 2024/2: E8;MI00004787;20;...;NORMALE;P;1850;2550
    expect(r.history).toEqual([
      { semester: '2025-S1', stato: 'NORMALE', comprMin: 1900, comprMax: 2650 },
      { semester: '2024-S2', stato: 'NORMALE', comprMin: 1850, comprMax: 2550 },
    ]);
  });

  it('corrections switched off by the admin, custom values, and Corso Venezia -> B18 OTTIMO', () => {
    // B18 'TURATI, MOSCOVA, CORSO VENEZIA' (12 letters) beats B19 'VENEZIA, ...' (7).
    // VALORI 2025/1: B18;MI00004768;20;...;OTTIMO; ;8800;13000
    const r = ok(
      evaluateProperty(
        req({
          address: 'Corso Venezia 5, Milano', province: 'MI', city: 'Milano', surfaceArea: 120.5, condition: 'nuovo', floor: '0',
          hasTerrace: false, features: ['ascensore'], applyGroundFloorCorrection: true, groundFloorCorrection: -3,
          applyNoBalconyCorrection: false, applyNoElevatorCorrection: false, cautiousDiscount: 0,
        }),
        { rows: rows2025, zones },
      ),
    );
    expect(r.zone).toMatchObject({ zona: 'B18', rule: 'address' });
    expect(r.omiDetails).toMatchObject({ stato: 'OTTIMO', comprMin: 8800, comprMax: 13_000 });
    expect(r.corrections).toEqual([{ code: 'groundFloor', label: 'Piano terra', percent: -3 }]);
    // base 120.5 x 8800 = 1,060,400; 120.5 x 13,000 = 1,566,500; 120.5 x 10,900 = 1,313,450
    // x 0.97: 1,028,588; 1,519,505; 1,274,046.5 -> 1,274,047
    expect([r.propertyValueMin, r.propertyValueMax, r.propertyValueAvg]).toEqual([1_028_588, 1_519_505, 1_274_047]);
    // discount 0: adjusted = rounded values
    expect([r.adjustedMin, r.adjustedMax, r.adjustedAvg]).toEqual([1_028_588, 1_519_505, 1_274_047]);
  });

  it('uses the newest semester that has values and says so', () => {
    // 2025/1 rows of E8 type 20 with 0;0 (missing), the 2024/2 rows intact
    const zeroed = rows2025.filter((x) => x.codTip === 20).map((x) => ({ ...x, comprMin: null, comprMax: null }));
    const r = ok(
      evaluateProperty(req({ address: '', province: 'MI', city: 'Milano', surfaceArea: 50, linkZona: 'MI00004787', floor: '3', hasTerrace: true, features: ['Ascensore'] }), {
        rows: [...zeroed, ...rows2024],
      }),
    );
    expect(r.semester).toBe('2024-S2');
    expect(r.explanation.join(' ')).toContain('Il semestre 2025-S1 non riporta valori');
    // condition not given -> the P row: 2024/2 E8 NORMALE P 1850-2550; terrace +5
    // 50 x 1850 = 92,500 x 1.05 = 97,125; 50 x 2550 = 127,500 x 1.05 = 133,875; 50 x 2200 = 110,000 x 1.05 = 115,500
    expect([r.propertyValueMin, r.propertyValueMax, r.propertyValueAvg]).toEqual([97_125, 133_875, 115_500]);
  });
});

describe('valuation not available', () => {
  it('for land (no OMI type)', () => {
    const r = evaluateProperty(req({ address: 'x', province: 'MI', city: 'Milano', omiCategory: 'terreni_agricoli', surfaceArea: 1000 }), { rows: rows2025 });
    expect(r).toMatchObject({ available: false, codTip: null, omiSource: null });
    expect(!r.available && r.reason).toContain('Terreni agricoli');
  });

  it('for a comune or type with no quotation', () => {
    const r = evaluateProperty(req({ address: 'x', province: 'PG', city: 'Perugia', surfaceArea: 90 }), { rows: [] });
    expect(r).toMatchObject({ available: false, codTip: 20, descrTipologia: 'Abitazioni civili', semester: null });
    expect(!r.available && r.reason).toBe('Nessuna quotazione OMI per Perugia (PG) e la tipologia "Abitazioni civili": valutazione non disponibile.');
    // Milano has no "Capannoni tipici" (7) rows
    const c = evaluateProperty(req({ address: 'x', province: 'MI', city: 'Milano', omiCategory: 'capannoni_tipici', surfaceArea: 900 }), { rows: rows2025 });
    expect(c.available).toBe(false);
  });

  it('when every value is 0 (missing), never inventing a number', () => {
    const zeroed = rows2025.map((x) => ({ ...x, comprMin: null, comprMax: null }));
    const r = evaluateProperty(req({ address: 'x', province: 'MI', city: 'Milano', surfaceArea: 90 }), { rows: zeroed });
    expect(r).toMatchObject({ available: false, semester: '2025-S1' });
    expect(!r.available && r.reason).toContain('non riportano valori');
    expect(r).not.toHaveProperty('propertyValueAvg');
  });
});

describe('valuation rules', () => {
  it('pre-checks corrections from the property as the spec says', () => {
    const lines = (x: ValuationInput) => correctionLines(req(x)).map((l) => `${l.code}${l.percent}`);
    const base = { address: '', province: 'MI', city: 'Milano', surfaceArea: 50 };
    expect(lines({ ...base, floor: 'terra', hasTerrace: false, features: [] })).toEqual(['groundFloor-7', 'noBalcony-5', 'noElevator-7']);
    expect(lines({ ...base, floor: 0, hasTerrace: true, features: ['Ascensore'] })).toEqual(['groundFloor-7', 'terrace5']);
    expect(lines({ ...base, floor: '3', hasTerrace: true, features: ['ASCENSORE condominiale'] })).toEqual(['terrace5']);
    expect(lines({ ...base, floor: '3', hasTerrace: false, features: ['Ascensore'], noBalconyCorrection: -2 })).toEqual(['noBalcony-2']);
  });

  it('rounds the adjusted value from the rounded value', () => {
    expect(applyPercent(156_748, -20)).toBe(125_398); // 125,398.4
    expect(applyPercent(100_001, -10)).toBe(90_001); // 90,000.9
    expect(applyPercent(450_000, -10)).toBe(405_000);
  });

  it('validates the body with Italian messages', () => {
    const bad = evaluatePropertySchema.safeParse({ address: 'x', province: 'Milano', city: '', surfaceArea: -1, cautiousDiscount: -60, groundFloorCorrection: 3 });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'La provincia deve essere la sigla di 2 lettere (es. MI)',
        'Inserisci il comune',
        'La superficie deve essere maggiore di zero',
        'Il ribasso prudenziale deve essere tra -50 e 0',
        'Correzione piano terra: la correzione non può essere positiva',
      ]),
    );
    const fractions = evaluatePropertySchema.safeParse({ province: 'MI', city: 'Milano', surfaceArea: 80, cautiousDiscount: -7.5, noElevatorCorrection: -6.5 });
    expect(fractions.error?.issues.map((i) => i.message)).toEqual(['Correzione assenza ascensore: inserisci un numero intero', 'Il ribasso prudenziale deve essere un numero intero']);
    expect(evaluatePropertySchema.parse({ province: 'mi', city: 'Milano', surfaceArea: '80' })).toMatchObject({
      province: 'MI', surfaceArea: 80, omiCategory: 'abitazioni_civili', address: '',
    });
  });
});
