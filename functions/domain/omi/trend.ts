/**
 * A zone's price trend, pure: the history of one zone, type and state (one point per
 * semester, as the valuation and the data page read it) turned into what the pages and the
 * estimate e-mail draw: the min-max band per semester, oldest first, the change over one
 * year and since the first semester (on the mid value (min + max) / 2), in Italian.
 *
 * Zone redraws: the Agenzia delle Entrate redraws a comune's zones from time to time (Napoli
 * in 2014: 1 of 68 zone codes survived) and a LinkZona can then name a different area. The
 * zone's descriptions per semester (its ZONE items) tell: where the Zona code, the Fascia
 * or the description changes (descriptions compared as word sets: a small rewording is not
 * a redraw), the history is cut and starts at the semester of the new drawing. A semester
 * without a ZONE item keeps its point: nothing says it is another area.
 */
import { formatNumber } from '../format';
import { compareSemestersDesc } from './semester';

export interface TrendInputPoint {
  semester: string;
  comprMin: number | null;
  comprMax: number | null;
}

export interface TrendZoneInfo {
  semester: string;
  zona: string;
  fascia: string;
  zonaDescr: string;
}

export interface TrendPoint {
  semester: string;
  /** euro/m²; null when the semester publishes no value (0 in the file) */
  min: number | null;
  max: number | null;
  mid: number | null;
}

export interface TrendChange {
  from: string;
  to: string;
  fromMid: number;
  toMid: number;
  /** rounded to one decimal */
  percent: number;
}

export interface ZoneRedraw {
  /** the first semester of the new drawing: the history starts there */
  semester: string;
  previous: { semester: string; zona: string; fascia: string; zonaDescr: string };
  current: { zona: string; fascia: string; zonaDescr: string };
  /** semesters left out of the history */
  dropped: number;
}

export interface PriceTrend {
  /** oldest first */
  points: TrendPoint[];
  yearChange: TrendChange | null;
  sinceFirst: TrendChange | null;
  redraw: ZoneRedraw | null;
  /** the two changes in words, it-IT */
  summary: string[];
  /** what the reader should know about the data (redraw, semesters that could not be checked) */
  notes: string[];
}

/** Below this Jaccard similarity of their word sets two descriptions name different areas. */
const SAME_AREA_SIMILARITY = 0.5;

/** Words that say nothing about where a zone is. */
const STOPWORDS = new Set(['DI', 'DEL', 'DELLA', 'DELLE', 'DEI', 'DEGLI', 'DELL', 'DA', 'DAL', 'DALLA', 'E', 'ED', 'IL', 'LA', 'LE', 'LO', 'GLI', 'I', 'L', 'A', 'AL', 'ALLA', 'IN', 'CON', 'PER', 'TRA', 'FRA', 'ZONA', 'ZONE']);

/** A description as a set of words: upper case, no accents, no punctuation, no stopwords. */
export function descriptionWords(descr: string): Set<string> {
  const words = descr
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((w) => w && !STOPWORDS.has(w));
  return new Set(words);
}

/** Jaccard similarity of two descriptions' word sets (1 when both are empty). */
export function descriptionSimilarity(a: string, b: string): number {
  const wa = descriptionWords(a);
  const wb = descriptionWords(b);
  if (!wa.size && !wb.size) return 1;
  let common = 0;
  for (const w of wa) if (wb.has(w)) common++;
  return common / (wa.size + wb.size - common);
}

/** Whether two ZONE items of one LinkZona describe different areas. */
export function isRedrawn(a: Omit<TrendZoneInfo, 'semester'>, b: Omit<TrendZoneInfo, 'semester'>): boolean {
  if (a.zona.trim().toUpperCase() !== b.zona.trim().toUpperCase()) return true;
  if (a.fascia.trim().toUpperCase() !== b.fascia.trim().toUpperCase()) return true;
  return descriptionSimilarity(a.zonaDescr, b.zonaDescr) < SAME_AREA_SIMILARITY;
}

/** The same semester one year earlier: 2025-S1 -> 2024-S1. */
export function semesterYearBefore(semester: string): string | undefined {
  const m = /^(\d{4})-S([12])$/.exec(semester);
  return m ? `${Number(m[1]) - 1}-S${m[2]}` : undefined;
}

const percentFormat = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' });

/** 3.25 -> "+3,3%", -1 -> "-1,0%", 0 -> "0,0%" */
export function formatPercentChange(percent: number): string {
  return `${percentFormat.format(percent)}%`;
}

const mid = (min: number | null, max: number | null) => (min !== null && max !== null && min > 0 && max > 0 ? (min + max) / 2 : null);

function change(from: TrendPoint, to: TrendPoint): TrendChange {
  const fromMid = from.mid!;
  const toMid = to.mid!;
  return { from: from.semester, to: to.semester, fromMid, toMid, percent: Math.round(((toMid - fromMid) / fromMid) * 1000) / 10 };
}

function verb(percent: number): string {
  if (percent > 0) return `è salito del ${formatPercentChange(percent).slice(1)}`;
  if (percent < 0) return `è sceso del ${formatPercentChange(percent).slice(1)}`;
  return 'è rimasto invariato';
}

const eurosqm = (v: number) => `${formatNumber(v)} €/m²`;

/** The change in a sentence. */
export function describeChange(c: TrendChange, kind: 'year' | 'first'): string {
  const span = kind === 'year' ? `In un anno (dal ${c.from} al ${c.to})` : `Dal primo semestre disponibile (dal ${c.from} al ${c.to})`;
  return `${span} il valore medio al m² ${verb(c.percent)}: da ${eurosqm(c.fromMid)} a ${eurosqm(c.toMid)}.`;
}

/**
 * The trend of a zone's history. `history`: one point per semester (any order; the first
 * of a semester wins). `zones`: the zone's ZONE items in those semesters, when known
 * (undefined: not read; the trend then says the redraw could not be checked).
 */
export function priceTrend(history: readonly TrendInputPoint[], zones?: readonly TrendZoneInfo[]): PriceTrend {
  const seen = new Set<string>();
  let points: TrendPoint[] = [...history]
    .sort((a, b) => compareSemestersDesc(b.semester, a.semester))
    .filter((p) => (seen.has(p.semester) ? false : (seen.add(p.semester), true)))
    .map((p) => {
      const m = mid(p.comprMin, p.comprMax);
      return { semester: p.semester, min: m === null ? null : p.comprMin, max: m === null ? null : p.comprMax, mid: m };
    });
  const notes: string[] = [];

  // the redraw: the newest change of drawing between consecutive described semesters
  let redraw: ZoneRedraw | null = null;
  if (zones) {
    const inHistory = new Set(points.map((p) => p.semester));
    const described = new Map<string, TrendZoneInfo>();
    for (const z of zones) if (inHistory.has(z.semester) && !described.has(z.semester)) described.set(z.semester, z);
    const ordered = [...described.values()].sort((a, b) => compareSemestersDesc(b.semester, a.semester));
    for (let i = ordered.length - 1; i > 0; i--) {
      const prev = ordered[i - 1]!;
      const cur = ordered[i]!;
      if (isRedrawn(prev, cur)) {
        const dropped = points.filter((p) => p.semester < cur.semester).length;
        redraw = {
          semester: cur.semester,
          previous: { semester: prev.semester, zona: prev.zona, fascia: prev.fascia, zonaDescr: prev.zonaDescr },
          current: { zona: cur.zona, fascia: cur.fascia, zonaDescr: cur.zonaDescr },
          dropped,
        };
        points = points.filter((p) => p.semester >= cur.semester);
        break;
      }
    }
    if (redraw) {
      const was = `${redraw.previous.zona}, fascia ${redraw.previous.fascia}: «${redraw.previous.zonaDescr}»`;
      notes.push(
        `Zone OMI ridisegnate dall'Agenzia delle Entrate nel semestre ${redraw.semester}: fino al ${redraw.previous.semester} ` +
          `lo stesso codice indicava un'altra area (${was}). Lo storico parte dal ${redraw.semester}.`,
      );
    }
    const unchecked = points.filter((p) => !described.has(p.semester)).map((p) => p.semester);
    if (unchecked.length && points.length > 1) {
      const shown = unchecked.length > 4 ? `${unchecked.slice(0, 4).join(', ')}…` : unchecked.join(', ');
      notes.push(
        unchecked.length === points.length
          ? 'Descrizioni delle zone (file ZONE) non importate per questi semestri: non si può verificare se le zone sono state ridisegnate.'
          : unchecked.length === 1
            ? `Manca la descrizione della zona (file ZONE) del semestre ${shown}: per quel semestre non si può verificare se la zona è stata ridisegnata.`
            : `Mancano le descrizioni della zona (file ZONE) di ${unchecked.length} semestri (${shown}): per quei semestri non si può verificare se la zona è stata ridisegnata.`,
      );
    }
  } else if (points.length > 1) {
    notes.push('Descrizioni delle zone non disponibili: non si può verificare se le zone sono state ridisegnate.');
  }

  const valued = points.filter((p) => p.mid !== null);
  const last = valued.at(-1);
  const first = valued[0];
  const sinceFirst = first && last && first !== last ? change(first, last) : null;
  const yearBefore = last ? semesterYearBefore(last.semester) : undefined;
  const yearPoint = yearBefore ? valued.find((p) => p.semester === yearBefore) : undefined;
  const yearChange = last && yearPoint ? change(yearPoint, last) : null;

  const summary: string[] = [];
  if (!last) summary.push('Nessun semestre con valori pubblicati.');
  else {
    summary.push(yearChange ? describeChange(yearChange, 'year') : `Variazione in un anno non disponibile: manca il semestre ${yearBefore ?? ''} con valori.`);
    summary.push(sinceFirst ? describeChange(sinceFirst, 'first') : `Un solo semestre con valori (${last.semester}): nessuna variazione da mostrare.`);
  }
  return { points, yearChange, sinceFirst, redraw, summary, notes };
}
