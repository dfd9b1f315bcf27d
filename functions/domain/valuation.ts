/**
 * The valuation engine (evaluate-property), pure: spec 001 sections 5, 7 and 9 and
 * docs/architecture.md (decisioni). The store hands it the OMI quotations of the property's comune
 * and type (every semester it has) and, when known, the comune's zone descriptions and the
 * chosen zone's history; it returns the value and why.
 *
 * Rules, in order:
 * 1. The wizard's OMI category gives the Cod_Tip (land has none: not available).
 * 2. Semester: the newest one with at least one usable row (both Compr_min and Compr_max
 *    present: `0` means missing). Only `0` everywhere, or no row: not available.
 * 3. Zone, among the zones with a usable row in that semester:
 *    a. the zone the admin chose (`linkZona`), when it is one of them;
 *    b. else the zone whose description (ZONE file) matches the address, best match first;
 *    c. else the only zone, when there is one;
 *    d. else the MEDIAN zone: each zone's row (rule 4) ranked by mid value
 *       (Compr_min + Compr_max) / 2, lowest first; the lower median (position
 *       floor((n - 1) / 2)) is taken. Neither the dearest nor the cheapest zone decides.
 * 4. Row within the zone: the condition's Stato (nuovo/ottimo -> OTTIMO, buono -> NORMALE,
 *    da_ristrutturare -> SCADENTE) when the zone quotes it; else the prevalent (`P`) row;
 *    else the first usable of NORMALE, OTTIMO, SCADENTE, no state.
 * 5. Values: surface x Compr_min / Compr_max / their mean (euro/m²), then the corrections,
 *    which ADD UP and are applied once: ground floor (default -7%), no balcony (-5%), no
 *    elevator (-7%), each only when its flag is on (flags default to the spec's pre-checks:
 *    floor 'terra' or '0'; no terrace; no feature containing 'ascensore'), and terrace +5%
 *    when the property has one. value = round(surface x euro/m² x (100 + total) / 100).
 *    valueSqmMin/Max are the corrected euro/m² (round(Compr x (100 + total) / 100)); the raw
 *    OMI figures are in omiDetails.
 * 6. Cautious discount (default -10, from -50 to 0): adjusted = round(rounded value x
 *    (100 + discount) / 100), i.e. rounded value x (1 + discount/100) to the euro.
 */
import * as z from 'zod';
import { compareNatural, formatEuro, formatNumber } from './format';
import { compareSemestersDesc } from './omi/semester';
import {
  CATEGORY_LABEL,
  codTipForCategory,
  descrTipologia,
  FASCE,
  OMI_CATEGORIES,
  statoForCondition,
  type OmiCategory,
  type Stato,
} from './omi/tipologia';
import type { OmiQuotation, OmiZoneInfo } from './omi/types';
import { priceTrend, type PriceTrend } from './omi/trend';
import { matchZones } from './omi/zone-match';

const DEFAULT_CAUTIOUS_DISCOUNT = -10;
const MIN_CAUTIOUS_DISCOUNT = -50;
const DEFAULT_CORRECTIONS = { groundFloor: -7, noBalcony: -5, noElevator: -7 } as const;
const TERRACE_BONUS = 5;
const MIN_CORRECTION = -100;
/** Notes list the first 4 features (spec 001 section 9). */
const NOTES_FEATURES = 4;

// whole percentages: the estimate, its e-mail and the page show them as such
const correction = (label: string) =>
  z
    .number({ error: `${label}: inserisci un numero` })
    .int(`${label}: inserisci un numero intero`)
    .min(MIN_CORRECTION, `${label}: il valore minimo è ${MIN_CORRECTION}`)
    .max(0, `${label}: la correzione non può essere positiva`);

/** The evaluate-property body (spec 001 section 7), with Italian messages. */
export const evaluatePropertySchema = z.object({
  address: z.string({ error: "Inserisci l'indirizzo" }).trim().max(300, 'Indirizzo troppo lungo').default(''),
  province: z
    .string({ error: 'Inserisci la provincia' })
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{2}$/, 'La provincia deve essere la sigla di 2 lettere (es. MI)')),
  city: z.string({ error: 'Inserisci il comune' }).trim().min(1, 'Inserisci il comune').max(120, 'Nome del comune troppo lungo'),
  omiCategory: z.enum(OMI_CATEGORIES, { error: 'Categoria OMI non valida' }).default('abitazioni_civili'),
  surfaceArea: z.coerce
    .number({ error: 'Inserisci la superficie in m²' })
    .positive('La superficie deve essere maggiore di zero')
    .max(100_000, 'Superficie non plausibile'),
  condition: z.string().trim().max(50).nullish(),
  floor: z.union([z.string(), z.number()]).transform((v) => String(v)).nullish(),
  hasTerrace: z.boolean().nullish(),
  features: z.array(z.string().max(200)).max(100, 'Troppe caratteristiche').nullish(),
  applyGroundFloorCorrection: z.boolean().nullish(),
  applyNoBalconyCorrection: z.boolean().nullish(),
  applyNoElevatorCorrection: z.boolean().nullish(),
  groundFloorCorrection: correction('Correzione piano terra').nullish(),
  noBalconyCorrection: correction('Correzione assenza balcone').nullish(),
  noElevatorCorrection: correction('Correzione assenza ascensore').nullish(),
  cautiousDiscount: z
    .number({ error: 'Il ribasso prudenziale deve essere un numero' })
    .int('Il ribasso prudenziale deve essere un numero intero')
    .min(MIN_CAUTIOUS_DISCOUNT, 'Il ribasso prudenziale deve essere tra -50 e 0')
    .max(0, 'Il ribasso prudenziale deve essere tra -50 e 0')
    .nullish(),
  /** the admin's choice of another zone of the comune (LinkZona) */
  linkZona: z.string().trim().regex(/^[A-Za-z0-9]{1,20}$/, 'Zona OMI non valida').nullish(),
});

export type ValuationInput = z.input<typeof evaluatePropertySchema>;
export type ValuationRequest = z.output<typeof evaluatePropertySchema>;

type CorrectionCode = 'groundFloor' | 'noBalcony' | 'noElevator' | 'terrace';

export interface CorrectionLine {
  code: CorrectionCode;
  label: string;
  percent: number;
}

export type ZoneRule = 'admin' | 'address' | 'single' | 'median';

export interface ConsideredRow {
  linkZona: string;
  zona: string;
  fascia: string;
  stato: Stato | null;
  statoPrev: boolean;
  comprMin: number | null;
  comprMax: number | null;
  used: boolean;
}

export interface HistoryPoint {
  semester: string;
  stato: Stato | null;
  comprMin: number | null;
  comprMax: number | null;
}

export interface ValuationAvailable {
  available: true;
  propertyValueMin: number;
  propertyValueMax: number;
  propertyValueAvg: number;
  valueSqmMin: number;
  valueSqmMax: number;
  omiSource: string;
  omiDetails: { zona: string; stato: string; fascia: string; comprMin: number; comprMax: number };
  semester: string;
  comune: string;
  provincia: string;
  codTip: number;
  descrTipologia: string;
  surfaceArea: number;
  zone: { linkZona: string; zona: string; fascia: string; fasciaDescr: string; zonaDescr: string | null; rule: ZoneRule; reason: string };
  stato: { requested: Stato | null; used: Stato | null; prevalent: boolean; reason: string };
  rowsConsidered: ConsideredRow[];
  /** every zone quoted for this type in the semester, for the admin to choose another */
  zones: { linkZona: string; zona: string; fascia: string; zonaDescr: string | null }[];
  base: { min: number; max: number; avg: number };
  corrections: CorrectionLine[];
  correctionTotalPercent: number;
  cautiousDiscount: number;
  adjustedMin: number;
  adjustedMax: number;
  adjustedAvg: number;
  /** the zone's quotations of this type and state, newest semester first */
  history: HistoryPoint[];
  /**
   * the history drawn: min-max band per semester, oldest first, changes, zone redraw
   * (absent on valuations saved before it existed)
   */
  trend?: PriceTrend;
  /** the spec's valuation notes: first 4 features, terrace as +5% */
  notes: string[];
  /** the reasoning, line by line, in Italian */
  explanation: string[];
}

export interface ValuationUnavailable {
  available: false;
  reason: string;
  comune: string;
  provincia: string;
  codTip: number | null;
  descrTipologia: string | null;
  semester: string | null;
  omiSource: null;
}

export type ValuationResult = ValuationAvailable | ValuationUnavailable;

function omiSource(semester: string): string {
  return `Agenzia Entrate - OMI ${semester}`;
}

const usable = (r: OmiQuotation): r is OmiQuotation & { comprMin: number; comprMax: number } =>
  r.comprMin !== null && r.comprMax !== null && r.comprMin > 0 && r.comprMax > 0;

const STATE_FALLBACK_ORDER: (Stato | null)[] = ['NORMALE', 'OTTIMO', 'SCADENTE', null];

/** Rule 4: the row of a zone for the requested state, else the prevalent one, else a fixed order. */
export function pickRow(
  zoneRows: readonly OmiQuotation[],
  requested: Stato | undefined,
): { row: OmiQuotation & { comprMin: number; comprMax: number }; reason: string } | undefined {
  const rows = zoneRows.filter(usable);
  if (!rows.length) return undefined;
  if (requested) {
    const exact = rows.find((r) => r.stato === requested);
    if (exact) return { row: exact, reason: `stato ${requested}, corrispondente alle condizioni dell'immobile` };
  }
  const prevalent = rows.find((r) => r.statoPrev);
  if (prevalent) {
    const label = prevalent.stato ?? 'senza indicazione';
    return {
      row: prevalent,
      reason: requested
        ? `stato ${requested} non quotato in questa zona: usato lo stato prevalente (${label})`
        : `condizioni non indicate: usato lo stato prevalente della zona (${label})`,
    };
  }
  for (const s of STATE_FALLBACK_ORDER) {
    const r = rows.find((x) => x.stato === s);
    if (r) {
      return {
        row: r,
        reason: `${requested ? `stato ${requested} non quotato e ` : ''}nessuno stato prevalente indicato: usato ${s ?? 'il valore senza stato'}`,
      };
    }
  }
  return undefined;
}

function isGroundFloor(floor: string | null | undefined): boolean {
  const f = (floor ?? '').trim().toLowerCase();
  return f === 'terra' || f === '0' || f === 'piano terra' || f === 'pt';
}

function hasElevator(features: readonly string[] | null | undefined): boolean {
  return (features ?? []).some((f) => f.toLowerCase().includes('ascensore'));
}

/** The correction lines applied (spec 001 sections 5 and 9). */
export function correctionLines(req: ValuationRequest): CorrectionLine[] {
  const lines: CorrectionLine[] = [];
  const ground = req.applyGroundFloorCorrection ?? isGroundFloor(req.floor);
  const noBalcony = req.applyNoBalconyCorrection ?? !req.hasTerrace;
  const noElevator = req.applyNoElevatorCorrection ?? !hasElevator(req.features);
  if (ground) lines.push({ code: 'groundFloor', label: 'Piano terra', percent: req.groundFloorCorrection ?? DEFAULT_CORRECTIONS.groundFloor });
  if (noBalcony) lines.push({ code: 'noBalcony', label: 'Assenza di balcone', percent: req.noBalconyCorrection ?? DEFAULT_CORRECTIONS.noBalcony });
  if (noElevator) lines.push({ code: 'noElevator', label: 'Assenza di ascensore', percent: req.noElevatorCorrection ?? DEFAULT_CORRECTIONS.noElevator });
  if (req.hasTerrace) lines.push({ code: 'terrace', label: 'Terrazzo', percent: TERRACE_BONUS });
  return lines;
}

/** x * (100 + percent) / 100, rounded to the euro; integer arithmetic first so 0.93 never drifts. */
export function applyPercent(value: number, percent: number): number {
  return Math.round((value * (100 + percent)) / 100);
}

interface ZoneChoice {
  semester: string;
  linkZona: string;
  rule: ZoneRule;
  reason: string;
  zonaDescr: string | null;
}

function describeZones(zones: readonly OmiZoneInfo[] | undefined, semester: string): Map<string, string> {
  // the description of the valuation's semester when present, else the newest one
  const out = new Map<string, { descr: string; semester: string }>();
  for (const z of zones ?? []) {
    const prev = out.get(z.linkZona);
    const better =
      !prev || (prev.semester !== semester && (z.semester === semester || compareSemestersDesc(z.semester, prev.semester) < 0));
    if (better) out.set(z.linkZona, { descr: z.zonaDescr, semester: z.semester });
  }
  return new Map([...out].map(([k, v]) => [k, v.descr]));
}

/** What rules 1 to 4 chose, computed once per evaluation and passed on to the figures. */
interface QuotationSelection {
  ok: true;
  codTip: number;
  semester: string;
  semesterRows: OmiQuotation[];
  zone: ZoneChoice;
  row: OmiQuotation & { comprMin: number; comprMax: number };
  stateReason: string;
  requested: Stato | undefined;
  /** every zone quoted for this type in the semester, for the admin to choose another */
  zones: ValuationAvailable['zones'];
  /** the chosen zone's quotations of this type, every semester the comune's rows have */
  zoneRows: OmiQuotation[];
  notes: string[];
}

type Selection = { ok: false; result: ValuationUnavailable } | QuotationSelection;

function unavailable(req: ValuationRequest, codTip: number | null, reason: string, semester: string | null = null): Selection {
  return {
    ok: false,
    result: {
      available: false,
      reason,
      comune: req.city,
      provincia: req.province,
      codTip,
      descrTipologia: codTip === null ? null : descrTipologia(codTip),
      semester,
      omiSource: null,
    },
  };
}

/** Rules 1 to 4: which semester, zone and row the valuation uses (or why there is none). */
export function selectQuotation(
  req: ValuationRequest,
  rows: readonly OmiQuotation[],
  zones?: readonly OmiZoneInfo[],
): Selection {
  const category = req.omiCategory as OmiCategory;
  const codTip = codTipForCategory(category);
  if (codTip === null) {
    return unavailable(req, null, `Per la categoria "${CATEGORY_LABEL[category]}" l'OMI non pubblica quotazioni: valutazione non disponibile.`);
  }
  const typed = rows.filter((r) => r.codTip === codTip);
  const where = `${req.city} (${req.province})`;
  if (!typed.length) {
    return unavailable(req, codTip, `Nessuna quotazione OMI per ${where} e la tipologia "${descrTipologia(codTip)}": valutazione non disponibile.`);
  }
  const semesters = [...new Set(typed.map((r) => r.semester))].sort(compareSemestersDesc);
  const semester = semesters.find((s) => typed.some((r) => r.semester === s && usable(r)));
  if (!semester) {
    return unavailable(
      req,
      codTip,
      `Le quotazioni OMI di ${where} per "${descrTipologia(codTip)}" non riportano valori (0 = dato mancante): valutazione non disponibile.`,
      semesters[0] ?? null,
    );
  }
  const notes: string[] = [];
  if (semester !== semesters[0]) {
    notes.push(`Il semestre ${semesters[0]} non riporta valori per questa tipologia: usato il semestre ${semester}.`);
  }
  const semesterRows = typed.filter((r) => r.semester === semester);
  const byZone = new Map<string, OmiQuotation[]>();
  for (const r of semesterRows) {
    const list = byZone.get(r.linkZona) ?? [];
    list.push(r);
    byZone.set(r.linkZona, list);
  }
  const requested = statoForCondition(req.condition);
  const candidates = new Map<string, NonNullable<ReturnType<typeof pickRow>>>();
  for (const [lz, zr] of byZone) {
    const pick = pickRow(zr, requested);
    if (pick) candidates.set(lz, pick);
  }
  const descriptions = describeZones(zones, semester);
  const descrOf = (lz: string) => descriptions.get(lz) ?? null;
  const zoneLabel = (lz: string) => {
    const r = byZone.get(lz)![0]!;
    return `${r.zona} (${FASCE[r.fascia] ?? r.fascia})`;
  };

  let choice: ZoneChoice | undefined;
  if (req.linkZona) {
    const wanted = req.linkZona.toUpperCase();
    if (candidates.has(wanted)) {
      choice = { semester, linkZona: wanted, rule: 'admin', reason: `Zona ${zoneLabel(wanted)} scelta dall'amministratore.`, zonaDescr: descrOf(wanted) };
    } else {
      notes.push(`La zona ${wanted} non ha quotazioni utilizzabili per questa tipologia nel semestre ${semester}: zona scelta automaticamente.`);
    }
  }
  if (!choice && req.address) {
    const matches = matchZones(
      req.address,
      [...candidates.keys()].filter((lz) => descriptions.has(lz)).map((lz) => ({ linkZona: lz, zonaDescr: descriptions.get(lz)! })),
      req.city,
    );
    const best = matches[0];
    if (best) {
      const tie = matches.filter((m) => m.score === best.score).length > 1;
      choice = {
        semester,
        linkZona: best.linkZona,
        rule: 'address',
        reason:
          `L'indirizzo corrisponde alla descrizione della zona ${zoneLabel(best.linkZona)} ('${descrOf(best.linkZona)}'): "${best.matched}".` +
          (tie ? ' Anche altre zone corrispondono allo stesso modo: scelta la prima per codice.' : ''),
        zonaDescr: descrOf(best.linkZona),
      };
    }
  }
  if (!choice && candidates.size === 1) {
    const lz = [...candidates.keys()][0]!;
    choice = { semester, linkZona: lz, rule: 'single', reason: `Il comune ha una sola zona OMI quotata per questa tipologia: ${zoneLabel(lz)}.`, zonaDescr: descrOf(lz) };
  }
  if (!choice) {
    const ranked = [...candidates.entries()]
      .map(([lz, p]) => ({ lz, mid: (p.row.comprMin + p.row.comprMax) / 2 }))
      .sort((a, b) => a.mid - b.mid || a.lz.localeCompare(b.lz));
    const pos = Math.floor((ranked.length - 1) / 2);
    const median = ranked[pos]!;
    const why = descriptions.size
      ? "Nessuna descrizione di zona corrisponde all'indirizzo"
      : 'Descrizioni delle zone non disponibili (file ZONE non importato)';
    choice = {
      semester,
      linkZona: median.lz,
      rule: 'median',
      reason:
        `${why}: scelta la zona mediana ${zoneLabel(median.lz)}, posizione ${pos + 1} di ${ranked.length} ` +
        `per valore medio (${formatNumber(median.mid)} €/m²) tra le zone quotate del comune. Si può scegliere un'altra zona.`,
      zonaDescr: descrOf(median.lz),
    };
  }
  const pick = candidates.get(choice.linkZona)!;
  const zoneList = [...byZone.entries()]
    .map(([linkZona, [r]]) => ({ linkZona, zona: r!.zona, fascia: r!.fascia, zonaDescr: descrOf(linkZona) }))
    .sort((a, b) => compareNatural(a.zona, b.zona));
  return {
    ok: true,
    codTip,
    semester,
    semesterRows,
    zone: choice,
    row: pick.row,
    stateReason: pick.reason,
    requested,
    zones: zoneList,
    zoneRows: typed.filter((r) => r.linkZona === choice.linkZona),
    notes,
  };
}

/**
 * The whole valuation: selection, values, corrections, cautious discount, history. A caller
 * that already ran `selectQuotation` on the same data (e.g. to load the chosen zone's
 * history) passes its result, so the selection runs once.
 */
export function evaluateProperty(
  input: ValuationRequest,
  data: {
    rows: readonly OmiQuotation[];
    zones?: readonly OmiZoneInfo[];
    history?: readonly OmiQuotation[];
    /** the chosen zone's ZONE items in the history's semesters, for the redraw check */
    historyZones?: readonly OmiZoneInfo[];
  },
  sel: Selection = selectQuotation(input, data.rows, data.zones),
): ValuationResult {
  if (!sel.ok) return sel.result;
  const { row, semester, codTip } = sel;
  const surface = input.surfaceArea;
  const lines = correctionLines(input);
  const total = lines.reduce((s, l) => s + l.percent, 0);
  const discount = input.cautiousDiscount ?? DEFAULT_CAUTIOUS_DISCOUNT;

  const base = { min: surface * row.comprMin, max: surface * row.comprMax, avg: (surface * (row.comprMin + row.comprMax)) / 2 };
  const propertyValueMin = applyPercent(base.min, total);
  const propertyValueMax = applyPercent(base.max, total);
  const propertyValueAvg = applyPercent(base.avg, total);
  const adjustedMin = applyPercent(propertyValueMin, discount);
  const adjustedMax = applyPercent(propertyValueMax, discount);
  const adjustedAvg = applyPercent(propertyValueAvg, discount);

  const seen = new Set<string>();
  const history: HistoryPoint[] = [...(data.history ?? []), ...sel.zoneRows]
    .filter((r) => r.linkZona === row.linkZona && r.codTip === codTip && r.stato === row.stato)
    .sort((a, b) => compareSemestersDesc(a.semester, b.semester))
    .filter((r) => (seen.has(r.semester) ? false : (seen.add(r.semester), true)))
    .map((r) => ({ semester: r.semester, stato: r.stato, comprMin: r.comprMin, comprMax: r.comprMax }));

  const rowsConsidered: ConsideredRow[] = sel.semesterRows
    .map((r) => ({
      linkZona: r.linkZona,
      zona: r.zona,
      fascia: r.fascia,
      stato: r.stato,
      statoPrev: r.statoPrev,
      comprMin: r.comprMin,
      comprMax: r.comprMax,
      used: r === row,
    }))
    .sort((a, b) => compareNatural(a.zona, b.zona) || String(a.stato).localeCompare(String(b.stato)));

  const features = (input.features ?? []).slice(0, NOTES_FEATURES);
  const notes = [...features];
  if (input.hasTerrace) notes.push(`Terrazzo: +${TERRACE_BONUS}%`);

  const valueSqmMin = applyPercent(row.comprMin, total);
  const valueSqmMax = applyPercent(row.comprMax, total);
  const sign = (n: number) => (n > 0 ? `+${n}` : `${n}`);
  const explanation = [
    `Fonte: ${omiSource(semester)}, ${row.comuneDescrizione} (${row.prov}), ${descrTipologia(codTip)}.`,
    ...sel.notes,
    sel.zone.reason,
    `Stato: ${sel.stateReason}.`,
    `Quotazione OMI: ${formatNumber(row.comprMin)}–${formatNumber(row.comprMax)} €/m².`,
    `Valore base: ${formatNumber(surface)} m² × ${formatNumber(row.comprMin)}–${formatNumber(row.comprMax)} €/m² = ${formatEuro(base.min)}–${formatEuro(base.max)} (medio ${formatEuro(base.avg)}).`,
    ...lines.map((l) => `${l.label}: ${sign(l.percent)}%`),
    lines.length
      ? `Correzioni totali ${sign(total)}%: ${formatEuro(propertyValueMin)}–${formatEuro(propertyValueMax)} (medio ${formatEuro(propertyValueAvg)}).`
      : 'Nessuna correzione applicata.',
    `Ribasso prudenziale ${sign(discount)}%: ${formatEuro(adjustedMin)}–${formatEuro(adjustedMax)} (medio ${formatEuro(adjustedAvg)}).`,
  ];

  return {
    available: true,
    propertyValueMin,
    propertyValueMax,
    propertyValueAvg,
    valueSqmMin,
    valueSqmMax,
    omiSource: omiSource(semester),
    omiDetails: { zona: row.zona, stato: row.stato ?? '', fascia: row.fascia, comprMin: row.comprMin, comprMax: row.comprMax },
    semester,
    comune: row.comuneDescrizione,
    provincia: row.prov,
    codTip,
    descrTipologia: descrTipologia(codTip),
    surfaceArea: surface,
    zone: {
      linkZona: row.linkZona,
      zona: row.zona,
      fascia: row.fascia,
      fasciaDescr: FASCE[row.fascia] ?? row.fascia,
      zonaDescr: sel.zone.zonaDescr,
      rule: sel.zone.rule,
      reason: sel.zone.reason,
    },
    stato: { requested: sel.requested ?? null, used: row.stato, prevalent: row.statoPrev, reason: sel.stateReason },
    rowsConsidered,
    zones: sel.zones,
    base: { min: Math.round(base.min), max: Math.round(base.max), avg: Math.round(base.avg) },
    corrections: lines,
    correctionTotalPercent: total,
    cautiousDiscount: discount,
    adjustedMin,
    adjustedMax,
    adjustedAvg,
    history,
    trend: priceTrend(history, data.historyZones?.filter((z) => z.linkZona === row.linkZona)),
    notes,
    explanation,
  };
}
