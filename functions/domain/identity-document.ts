/**
 * What the identity document must say (the text an OCR engine reads on it, functions/lib/
 * document-text/): it carries text; the typed document number and the holder's surname are
 * read on it; its machine readable zone (MRZ: passports, the back of the carta d'identità
 * elettronica), when there is one, passes its ICAO 9303 check digits and is not expired.
 * Pure: the engines only report lines of text, these rules decide.
 */
import { parse, type ParseResult } from 'mrz';
import type { IdentityCheckResult } from './identity';

/** Each refusal of the document's text, in the order the rules run. */
export const DOCUMENT_TEXT_MESSAGES = {
  noText: 'Sul documento non si legge alcun testo: fotografa il documento intero, ben illuminato',
  mrzInvalid: 'La zona a lettura ottica del documento non è valida',
  mrzExpired: 'Il documento è scaduto',
  numberNotFound: 'Il numero del documento indicato non si legge sul documento: controlla il numero o rifai la foto con più luce',
  mrzOtherDocument: 'Il retro caricato è di un altro documento: il numero della zona a lettura ottica non è quello indicato',
  surnameNotFound: 'Il cognome non si legge sul documento: fotografa il documento intero, ben leggibile',
} as const;

/**
 * An MRZ whose check digits fail may be a misreading (an OCR engine confuses O and 0, S and 5
 * on a phone photo) as much as a forged zone: the check goes to an admin, who sees the images,
 * rather than refusing a genuine document. The seller reads this.
 */
export const MRZ_TO_REVIEW = 'La zona a lettura ottica del documento non si legge con certezza: un operatore controllerà il documento entro un giorno lavorativo';

/**
 * The check's outcome once the document's text is known: the faces' decision stands when
 * the text passes (or when the faces already refused); an MRZ that fails its check digits
 * goes to an admin (MRZ_TO_REVIEW); any other rule of the text refuses with its reason.
 */
export function withDocumentText(faces: IdentityCheckResult, refusal: DocumentTextRefusal | null): IdentityCheckResult {
  if (faces.status === 'rejected' || !refusal) return faces;
  if (refusal.code === 'mrzInvalid') return { valid: false, status: 'review', reason: MRZ_TO_REVIEW, confidence: faces.confidence };
  return { valid: false, status: 'rejected', reason: refusal.message, confidence: faces.confidence };
}

export type DocumentTextCode = keyof typeof DOCUMENT_TEXT_MESSAGES;

export interface DocumentTextRefusal {
  code: DocumentTextCode;
  message: string;
}

/** Fewer letters and digits than this in all the lines: the image shows no document. */
export const MIN_TEXT_CHARACTERS = 8;

/**
 * A typed document number shorter than this (after matchKey) is never "found": every Italian
 * document number has 9 or 10 characters, and 1-4 characters would be found in any text.
 */
export const MIN_NUMBER_LENGTH = 5;

/**
 * The comparison key of a text, tolerant to what OCR confuses: uppercase, accents dropped,
 * only A-Z and 0-9, with O -> 0 and I -> 1 (and '|', which OCR prints for a thin I or 1, ->
 * 1), applied to both sides of a comparison, so 'CAO1234AB' typed matches 'CA01234AB' read and
 * 'R0SSI' read matches 'Rossi' typed.
 *
 * L is NOT folded into 1. Documents print capitals, and in capitals OCR confuses L with 1
 * rarely (the classic confusion is the lowercase l, which cannot be told from a user's
 * lowercase typing once uppercased); folding it would make L, I and 1 one class, so short
 * surnames would turn into digits found in any date ('LI' -> '11' in '11.08.1980').
 */
export function matchKey(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/\|/g, '1')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/O/g, '0')
    .replace(/I/g, '1');
}

/** The words of a text: runs of letters and digits, accents dropped ('|' kept: OCR's I or 1). */
function words(s: string): string[] {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .split(/[^A-Za-z0-9|]+/)
    .filter((w) => w.length > 0);
}

/** The words of a text as match keys. */
const wordKeys = (s: string): string[] => words(s).map(matchKey).filter((w) => w.length > 0);

// ---------------------------------------------------------------------------------------------
// The machine readable zone

/** The MRZ formats: lines and characters per line. */
const MRZ_FORMATS = [
  { format: 'TD1', lines: 3, length: 30 },
  { format: 'TD3', lines: 2, length: 44 },
  { format: 'TD2', lines: 2, length: 36 },
] as const;

/** How many filler characters OCR may drop or add to a line before it is no MRZ line. */
const MRZ_LENGTH_SLACK = 3;

export interface FoundMrz {
  /** the MRZ lines as parsed (normalised, each of its format's length) */
  lines: string[];
  /** mrz's parse: check-digit validity, fields, the document number */
  result: ParseResult;
}

/**
 * One OCR line as MRZ characters, or null when it cannot be an MRZ line: spaces dropped
 * (OCR splits the line at filler runs), '«' (two fillers, as OCR often reads them) and '‹'
 * as '<', then only A-Z, 0-9 and '<' may remain. A 'K' inside a run of fillers ('<<K<<') or
 * in a run of three or more K at the end of the line is a misread filler: a name may hold a
 * K, never three in a row at its end. The line must hold a filler: every MRZ line of a
 * document has one (the optional data, the name's padding).
 */
function mrzCharacters(line: string): string | null {
  let s = line
    .toUpperCase()
    .replace(/\s+/g, '')
    .replace(/[«≪]/g, '<<')
    .replace(/[‹〈]/g, '<');
  if (!/^[A-Z0-9<]+$/.test(s)) return null;
  s = s.replace(/K{3,}$/, (run) => '<'.repeat(run.length));
  // a K between fillers, repeatedly ('<K<K<' -> '<<<<<')
  let before: string;
  do {
    before = s;
    s = s.replace(/<K(?=K*<)/g, '<<').replace(/<K+$/, (run) => '<'.repeat(run.length));
  } while (s !== before);
  return s.includes('<') ? s : null;
}

/**
 * A line `missing` characters too short (negative: too long) made `length` long by growing
 * (shrinking) its last run of at least two fillers: OCR drops or doubles a '<' in a run of
 * identical fillers, and where in the run does not matter. Null when there is no such run.
 * The check digits still decide: this never turns a wrong number or date into a valid one.
 */
function fitLength(line: string, length: number): string | null {
  const diff = length - line.length;
  if (diff === 0) return line;
  const runs = [...line.matchAll(/<{2,}/g)];
  const last = runs[runs.length - 1];
  if (!last || last.index === undefined) return null;
  const run = last[0].length + diff;
  if (run < 1) return null;
  return line.slice(0, last.index) + '<'.repeat(run) + line.slice(last.index + last[0].length);
}

/**
 * The machine readable zone among the lines read on a document, parsed: three consecutive
 * lines of 30 characters (TD1: identity cards, the CIE's back), two of 44 (TD3: passports)
 * or two of 36 (TD2), within a few filler characters (fitLength). Null when there is none.
 * The lines are only normalised (OCR's spellings of '<', see mrzCharacters), never guessed:
 * a line that does not read as MRZ characters breaks the zone.
 */
export function findMrz(lines: readonly string[]): FoundMrz | null {
  const candidates = lines.map(mrzCharacters);
  for (const { lines: count, length } of MRZ_FORMATS) {
    for (let i = 0; i + count <= candidates.length; i++) {
      const group = candidates.slice(i, i + count);
      if (!group.every((l): l is string => l !== null && Math.abs(l.length - length) <= MRZ_LENGTH_SLACK)) continue;
      const fitted = group.map((l) => fitLength(l, length));
      if (!fitted.every((l): l is string => l !== null)) continue;
      try {
        return { lines: fitted, result: parse(fitted, { autocorrect: true }) };
      } catch {
        // not a format mrz knows (a TD2 line read as a French ID, a first line of another length)
        continue;
      }
    }
  }
  return null;
}

/**
 * The expiry date of an MRZ (YYMMDD) as yyyy-MM-dd: 20YY, unless that is more than 50 years
 * after `today` (a document valid until the 1990s).
 */
export function mrzExpiryDate(yymmdd: string, today: string): string {
  const yy = Number(yymmdd.slice(0, 2));
  let year = 2000 + yy;
  if (year > Number(today.slice(0, 4)) + 50) year -= 100;
  return `${year}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}

// ---------------------------------------------------------------------------------------------
// The rules

/**
 * Name particles: on their own they do not identify a surname ('DI' is printed on every
 * Italian card: 'COMUNE DI', 'CARTA DI IDENTITÀ'), so 'DI MAIO' is found by 'MAIO'. When a
 * surname has only particles ('LI'), they count.
 */
const PARTICLES = new Set(
  ['DA', 'DAL', 'DALL', 'DALLA', 'DALLE', 'DALLO', 'DE', 'DEI', 'DEGLI', 'DEL', 'DELL', 'DELLA', 'DELLE', 'DELLO', 'DI', 'DU', 'LA', 'LE', 'LI', 'LO', 'VAN', 'VON', 'DER', 'DEN', 'MC', 'MAC', 'SAN', 'SANTA', 'SANTO'].map(matchKey),
);

/** The words of the acceptable surnames that identify the holder: two or more letters, particles only if nothing else. */
function surnameWords(surnames: readonly string[]): string[] {
  const keys = surnames
    .flatMap(words)
    .filter((w) => (w.match(/[A-Za-z]/g)?.length ?? 0) >= 2)
    .map(matchKey);
  const significant = keys.filter((w) => !PARTICLES.has(w));
  return significant.length > 0 ? significant : keys;
}

export interface DocumentTextInput {
  /** every line read on the document's images, top to bottom */
  lines: readonly string[];
  /** the document number the user typed */
  documentNumber: string;
  /** the acceptable surname(s): e.g. ['ROSSI'], or the words of a co-owner's full name */
  surnames: readonly string[];
  /** yyyy-MM-dd, the day in Italy */
  today: string;
}

/**
 * The first rule the document's text fails, or null when it passes them all, in order:
 * 1. noText: fewer than MIN_TEXT_CHARACTERS letters and digits in all the lines;
 * 2. an MRZ, when present (findMrz), must be valid (mrzInvalid: check digits, fields) and
 *    expire today or later (mrzExpired);
 * 3. numberNotFound: the typed number (matchKey, at least MIN_NUMBER_LENGTH characters) is
 *    neither inside all the text joined (matchKey: spaces and line breaks do not matter) nor
 *    the MRZ's document number; mrzOtherDocument: found, but a valid MRZ names another
 *    document (the back of another card, e.g. a valid one behind an expired front);
 * 4. surnameNotFound: no word of `surnames` (two or more letters, particles aside) is a whole
 *    word of the text (matchKey) or a word of the MRZ's surname.
 */
export function documentTextRefusal({ lines, documentNumber, surnames, today }: DocumentTextInput): DocumentTextRefusal | null {
  const refuse = (code: DocumentTextCode): DocumentTextRefusal => ({ code, message: DOCUMENT_TEXT_MESSAGES[code] });
  const allText = matchKey(lines.join(''));
  if (allText.length < MIN_TEXT_CHARACTERS) return refuse('noText');

  const mrz = findMrz(lines);
  if (mrz) {
    const expiry = mrz.result.fields.expirationDate;
    if (!mrz.result.valid || !expiry) return refuse('mrzInvalid');
    if (mrzExpiryDate(expiry, today) < today) return refuse('mrzExpired');
  }

  const number = matchKey(documentNumber);
  const mrzNumber = mrz ? matchKey(mrz.result.documentNumber ?? mrz.result.fields.documentNumber ?? '') : '';
  const numberFound = number.length >= MIN_NUMBER_LENGTH && (allText.includes(number) || number === mrzNumber);
  if (!numberFound) return refuse('numberNotFound');
  if (mrzNumber && number !== mrzNumber) return refuse('mrzOtherDocument');

  const wanted = surnameWords(surnames);
  const textWords = new Set(lines.flatMap(wordKeys));
  const mrzSurname = new Set(wordKeys(mrz?.result.fields.lastName ?? ''));
  if (!wanted.some((w) => textWords.has(w) || mrzSurname.has(w))) return refuse('surnameNotFound');

  return null;
}
