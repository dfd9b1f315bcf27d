/**
 * OMI semesters. The product writes them `YYYY-S1` / `YYYY-S2` (spec 001 section 9); the
 * Agenzia delle Entrate writes `2025/1` in the file's title line and `20251` in its name.
 * Semester strings of this form sort chronologically as plain strings.
 */
export const SEMESTER_PATTERN = /^(\d{4})-S([12])$/;

export const SEMESTER_FORMAT_MESSAGE = 'Il semestre deve essere nel formato AAAA-S1 o AAAA-S2 (es. 2024-S2)';

export type Semester = `${number}-S${1 | 2}`;

const MIN_YEAR = 1990;
const MAX_YEAR = 2100;

export function isSemester(value: string): value is Semester {
  const m = SEMESTER_PATTERN.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

function build(year: string, half: string): Semester | undefined {
  const y = Number(year);
  if (y < MIN_YEAR || y > MAX_YEAR || (half !== '1' && half !== '2')) return undefined;
  return `${year}-S${half}` as Semester;
}

/**
 * Semester from a file name (spec 001, OMI import): four digits followed by one more digit,
 * e.g. `QI_1292013_1_20251_VALORI.csv` -> `2025-S1`. The digits must stand alone (not inside
 * a longer number such as the `1292013` request id) and be a plausible year + 1 or 2.
 */
export function semesterFromFileName(fileName: string): Semester | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  for (const m of base.matchAll(/(?<!\d)(\d{4})(\d)(?!\d)/g)) {
    const s = build(m[1]!, m[2]!);
    if (s) return s;
  }
  return undefined;
}

/** Semester from the title line: `... - Semestre 2025/1 - elaborazione del 23-NOV-25`. */
export function semesterFromTitle(title: string): Semester | undefined {
  const m = /Semestre\s+(\d{4})\s*\/\s*(\d)/i.exec(title);
  return m ? build(m[1]!, m[2]!) : undefined;
}

/** Newest first. */
export function compareSemestersDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}
