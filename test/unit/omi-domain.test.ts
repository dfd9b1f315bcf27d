import { describe, expect, it } from 'vitest';
import { compareSemestersDesc, isSemester, semesterFromFileName, semesterFromTitle } from '../../functions/domain/omi/semester';
import {
  codTipForCategory,
  descrTipologia,
  OMI_CATEGORIES,
  parseTipologia,
  statoForCondition,
} from '../../functions/domain/omi/tipologia';
import { comuneSearchKey, normalizeWords } from '../../functions/domain/omi/names';
import { matchZones } from '../../functions/domain/omi/zone-match';

describe('OMI semesters', () => {
  it('reads the semester from real file names, skipping the request id', () => {
    expect(semesterFromFileName('QI_1292013_1_20251_VALORI.csv')).toBe('2025-S1');
    expect(semesterFromFileName('QI_1292023_1_20242_VALORI.csv')).toBe('2024-S2');
    expect(semesterFromFileName('C:\\dati\\QI_1292013_1_20251_ZONE.csv')).toBe('2025-S1');
    expect(semesterFromFileName('valori-20192.csv')).toBe('2019-S2');
  });

  it('gives nothing when the name has no year + half', () => {
    expect(semesterFromFileName('quotazioni.csv')).toBeUndefined();
    expect(semesterFromFileName('QI_1292013.csv')).toBeUndefined(); // 7 digits: no standalone 5-digit group
    expect(semesterFromFileName('dati_20253.csv')).toBeUndefined(); // half 3 does not exist
    expect(semesterFromFileName('dati_18001.csv')).toBeUndefined(); // implausible year
  });

  it('reads the title line', () => {
    expect(semesterFromTitle('Quotazioni Immobiliari : Valori di Mercato - Semestre 2025/1 - elaborazione del 23-NOV-25')).toBe('2025-S1');
    expect(semesterFromTitle('Quotazioni Immobiliari : Informazioni di Zona OMI - Semestre 2024/2 - elaborazione')).toBe('2024-S2');
    expect(semesterFromTitle('Quotazioni Immobiliari')).toBeUndefined();
  });

  it('validates YEAR-S1 / YEAR-S2 and sorts newest first', () => {
    expect(isSemester('2024-S2')).toBe(true);
    expect(isSemester('2024-S3')).toBe(false);
    expect(isSemester('2024S2')).toBe(false);
    expect(isSemester('24-S1')).toBe(false);
    expect(['2024-S1', '2025-S1', '2024-S2'].sort(compareSemestersDesc)).toEqual(['2025-S1', '2024-S2', '2024-S1']);
  });
});

describe('OMI types and categories', () => {
  it('maps every wizard category to its Cod_Tip; land has none', () => {
    const expected: Record<string, number | null> = {
      abitazioni_civili: 20, abitazioni_signorili: 19, abitazioni_economiche: 21, ville_villini: 1, negozi: 5, uffici: 6,
      magazzini: 9, box_posti_auto: 13, laboratori: 10, capannoni_industriali: 8, capannoni_tipici: 7,
      terreni_agricoli: null, terreni_edificabili: null,
    };
    for (const c of OMI_CATEGORIES) expect(codTipForCategory(c)).toBe(expected[c]);
    expect(descrTipologia(21)).toBe('Abitazioni di tipo economico');
    expect(descrTipologia(13)).toBe('Box');
  });

  it('maps the condition to the OMI state (else the prevalent row)', () => {
    expect(statoForCondition('nuovo')).toBe('OTTIMO');
    expect(statoForCondition('ottimo')).toBe('OTTIMO');
    expect(statoForCondition('buono')).toBe('NORMALE');
    expect(statoForCondition('da_ristrutturare')).toBe('SCADENTE');
    expect(statoForCondition('abitabile')).toBeUndefined();
    expect(statoForCondition(null)).toBeUndefined();
  });

  it('reads the data page Tipologia filter as code, label or description', () => {
    expect(parseTipologia('20')).toBe(20);
    expect(parseTipologia('Abitazioni economiche')).toBe(21);
    expect(parseTipologia('abitazioni di tipo economico')).toBe(21);
    expect(parseTipologia('Ville e Villini')).toBe(1);
    expect(parseTipologia('99')).toBeUndefined();
    expect(parseTipologia('castelli')).toBeUndefined();
  });
});

describe('comune names', () => {
  it('matches backtick spellings, accents, apostrophes and case alike', () => {
    const key = comuneSearchKey('SANT`ANATOLIA DI NARCO');
    expect(key).toBe('santanatoliadinarco');
    expect(comuneSearchKey("Sant'Anatolia di Narco")).toBe(key);
    expect(comuneSearchKey('sant anatolia di narco')).toBe(key);
    expect(comuneSearchKey('FORLI`')).toBe('forli');
    expect(comuneSearchKey('Forlì')).toBe('forli');
    expect(comuneSearchKey('CANTÙ')).toBe(comuneSearchKey('CANTU`'));
    expect(comuneSearchKey('Milano')).toBe(comuneSearchKey('MILANO'));
  });

  it('normalizes words for address matching', () => {
    expect(normalizeWords("Via Sant'Ambrogio, 5 - Milano")).toBe('via sant ambrogio 5 milano');
    expect(normalizeWords('SANT`AMBROGIO')).toBe('sant ambrogio');
    expect(normalizeWords('C.so Magenta')).toBe('c so magenta');
  });

  it("splits address words at apostrophes: Via dell'Indipendenza matches the zone 'INDIPENDENZA'", () => {
    expect(normalizeWords("Via dell'Indipendenza 12")).toBe('via dell indipendenza 12');
    const zones = [
      { linkZona: 'BO00000001', zonaDescr: 'INDIPENDENZA, MONTAGNOLA' },
      { linkZona: 'BO00000002', zonaDescr: 'SAN DONATO' },
    ];
    expect(matchZones("Via dell'Indipendenza 12", zones, 'Bologna').map((m) => m.linkZona)).toEqual(['BO00000001']);
    expect(matchZones('Via dell’Indipendenza 12', zones, 'Bologna').map((m) => m.linkZona)).toEqual(['BO00000001']);
  });
});

describe('zone matching', () => {
  // descriptions from QI_1292013_1_20251_ZONE.csv
  const zones = [
    { linkZona: 'MI00003544', zonaDescr: 'CENTRO STORICO - BRERA' },
    { linkZona: 'MI00003545', zonaDescr: 'CENTRO STORICO -SANT`AMBROGIO, CADORNA, VIA DANTE' },
    { linkZona: 'MI00004767', zonaDescr: 'PARCO SEMPIONE, ARCO DELLA PACE, CORSO MAGENTA' },
    { linkZona: 'MI00004768', zonaDescr: 'TURATI, MOSCOVA, CORSO VENEZIA' },
    { linkZona: 'MI00004769', zonaDescr: 'VENEZIA, PORTA VITTORIA, PORTA ROMANA' },
    { linkZona: 'MI00004772', zonaDescr: 'CENISIO, FARINI, SARPI' },
  ];

  it('finds the zone named in the address', () => {
    expect(matchZones('Via Brera 10, Milano', zones, 'Milano')[0]?.linkZona).toBe('MI00003544');
    expect(matchZones('Via Paolo Sarpi 3', zones)[0]?.linkZona).toBe('MI00004772');
    expect(matchZones("Piazza Sant'Ambrogio 1", zones)[0]?.linkZona).toBe('MI00003545');
    expect(matchZones('Via Dante 7', zones)[0]?.linkZona).toBe('MI00003545');
  });

  it('prefers the longest place name, and matches street names without the street word', () => {
    // "corso venezia" (12 letters) beats "venezia" (7)
    expect(matchZones('Corso Venezia 5, Milano', zones).map((m) => m.linkZona)).toEqual(['MI00004768', 'MI00004769']);
    expect(matchZones('C.so Magenta 12', zones)[0]?.linkZona).toBe('MI00004767');
  });

  it('ignores generic words and gives nothing when no zone matches', () => {
    expect(matchZones('Centro storico', zones)).toEqual([]);
    expect(matchZones('Via Roma 1, Milano', zones, 'Milano')).toEqual([]);
  });
});
