/**
 * Synthetic Italian identity cards (carta d'identità elettronica, CIE 3.0 layout, simplified)
 * for the document-text tests: a front with the printed fields and the document number, a
 * back with a TD1 machine readable zone whose check digits are computed as ICAO 9303 says.
 * Drawn as SVG text (DejaVu Sans, and DejaVu Sans Mono for the MRZ: no OCR-B font is
 * installed) rendered by sharp, then slightly blurred and saved as a 640x400 JPEG of quality
 * 75, as a phone photo of a card would arrive.
 */
import sharp, { type OverlayOptions } from 'sharp';

export const CARD = { width: 640, height: 400 } as const;
const JPEG_QUALITY = 75;

/** ICAO 9303 check digit: weights 7, 3, 1; digits as is, A-Z as 10-35, '<' as 0. */
export function icaoCheckDigit(field: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    const value = c === '<' ? 0 : /[0-9]/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    if (!/[0-9A-Z<]/.test(c)) throw new Error(`not an MRZ character: ${c}`);
    sum += value * weights[i % 3]!;
  }
  return String(sum % 10);
}

/** MRZ text of a name part: uppercase A-Z, accents dropped, spaces and apostrophes as '<'. */
function mrzName(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z]+/g, '<');
}

const pad = (s: string, n: number) => (s + '<'.repeat(n)).slice(0, n);
/** '1980-08-12' -> '800812' */
const yymmdd = (isoDate: string) => isoDate.slice(2, 4) + isoDate.slice(5, 7) + isoDate.slice(8, 10);
/** '1980-08-12' -> '12.08.1980', as the card prints dates */
const printed = (isoDate: string) => `${isoDate.slice(8, 10)}.${isoDate.slice(5, 7)}.${isoDate.slice(0, 4)}`;

export interface MrzFields {
  surname: string;
  name: string;
  /** the card's number, e.g. 'CA12345AB' (9 characters on a CIE) */
  number: string;
  /** ISO dates, e.g. '1980-08-12' */
  birthDate: string;
  expiryDate: string;
  sex: 'M' | 'F';
}

/** The three 30-character lines of a TD1 MRZ of an Italian identity card ('CI', 'ITA'). */
export function td1Mrz({ surname, name, number, birthDate, expiryDate, sex }: MrzFields): [string, string, string] {
  const doc = pad(number.toUpperCase(), 9);
  const line1 = pad(`CIITA${doc}${icaoCheckDigit(doc)}`, 30);
  const birth = yymmdd(birthDate);
  const expiry = yymmdd(expiryDate);
  const line2Start = `${birth}${icaoCheckDigit(birth)}${sex}${expiry}${icaoCheckDigit(expiry)}ITA`;
  const line2Body = pad(line2Start, 29);
  // the composite check digit covers line 1 from the number on, and line 2's dates and optional data
  const composite = icaoCheckDigit(line1.slice(5, 30) + line2Body.slice(0, 7) + line2Body.slice(8, 15) + line2Body.slice(18, 29));
  const line2 = line2Body + composite;
  const line3 = pad(`${mrzName(surname)}<<${mrzName(name)}`, 30);
  return [line1, line2, line3];
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Text {
  x: number;
  y: number;
  text: string;
  size: number;
  bold?: boolean;
  mono?: boolean;
  fill?: string;
  spacing?: number;
}

function svgOf(background: string, texts: Text[], extra = ''): Buffer {
  const body = texts
    .map(
      (t) =>
        `<text x="${t.x}" y="${t.y}" font-family="${t.mono ? 'DejaVu Sans Mono' : 'DejaVu Sans'}" font-size="${t.size}"` +
        `${t.bold ? ' font-weight="bold"' : ''}${t.spacing ? ` letter-spacing="${t.spacing}"` : ''} fill="${t.fill ?? '#1d2a36'}">${escape(t.text)}</text>`,
    )
    .join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD.width}" height="${CARD.height}">` +
      `<rect width="100%" height="100%" fill="${background}"/>${extra}${body}</svg>`,
  );
}

/** The SVG as a slightly soft JPEG, as a phone camera delivers it. */
async function photo(svg: Buffer, layers: OverlayOptions[] = []): Promise<Buffer> {
  const card = await sharp(svg).composite(layers).png().toBuffer();
  return sharp(card).blur(0.6).jpeg({ quality: JPEG_QUALITY }).toBuffer();
}

export interface FrontOptions {
  surname: string;
  name: string;
  number: string;
  /** a portrait (any image sharp reads) for the photo box; a grey placeholder otherwise */
  portrait?: Buffer;
  /** ISO dates printed on the card (defaults: born 1980-08-12, issued 2021-03-15, expiring 2031-08-12) */
  birthDate?: string;
  issueDate?: string;
  expiryDate?: string;
  sex?: 'M' | 'F';
}

const PHOTO = { left: 28, top: 112, width: 160, height: 200 };

/** The front of a CIE: header, photo, labelled fields in Italian and English, the number in red. */
export async function idCardFront(o: FrontOptions): Promise<Buffer> {
  const { birthDate = '1980-08-12', issueDate = '2021-03-15', expiryDate = '2031-08-12', sex = 'M' } = o;
  const label = (x: number, y: number, text: string): Text => ({ x, y, text, size: 11, fill: '#4a5966' });
  const value = (x: number, y: number, text: string): Text => ({ x, y, text, size: 19, bold: true });
  const texts: Text[] = [
    { x: 28, y: 40, text: 'REPUBBLICA ITALIANA', size: 22, bold: true, fill: '#123b6b' },
    { x: 28, y: 68, text: "CARTA DI IDENTITÀ / IDENTITY CARD", size: 15, fill: '#123b6b' },
    { x: 460, y: 40, text: o.number.toUpperCase(), size: 22, bold: true, fill: '#b3262b' },
    label(212, 112, 'COMUNE DI / MUNICIPALITY'),
    value(212, 134, 'ROMA'),
    label(212, 160, 'COGNOME / SURNAME'),
    value(212, 182, o.surname.toUpperCase()),
    label(212, 208, 'NOME / NAME'),
    value(212, 230, o.name.toUpperCase()),
    label(212, 256, 'SESSO / SEX'),
    value(212, 278, sex),
    label(330, 256, 'LUOGO E DATA DI NASCITA / DATE OF BIRTH'),
    value(330, 278, `ROMA (RM) ${printed(birthDate)}`),
    label(212, 304, 'EMISSIONE / ISSUING'),
    value(212, 326, printed(issueDate)),
    label(400, 304, 'SCADENZA / EXPIRY'),
    value(400, 326, printed(expiryDate)),
  ];
  const stripes = `<rect x="0" y="0" width="${CARD.width}" height="86" fill="#cfe0ee"/><rect x="0" y="372" width="${CARD.width}" height="28" fill="#cfe0ee"/>`;
  const layers: OverlayOptions[] = [];
  if (o.portrait) {
    const portrait = await sharp(o.portrait).resize(PHOTO.width, PHOTO.height, { fit: 'cover' }).modulate({ saturation: 0.6 }).toBuffer();
    layers.push({ input: portrait, left: PHOTO.left, top: PHOTO.top });
  }
  const placeholder = o.portrait ? '' : `<rect x="${PHOTO.left}" y="${PHOTO.top}" width="${PHOTO.width}" height="${PHOTO.height}" fill="#b8c2cc"/>`;
  return photo(svgOf('#e7eff6', texts, stripes + placeholder), layers);
}

export interface BackOptions extends MrzFields {
  /** the MRZ lines to print instead of the computed ones (a broken check digit, a foreign format) */
  mrz?: string[];
}

/**
 * The back of a CIE: the fiscal code and address, and the TD1 MRZ across the bottom in a
 * monospaced font (DejaVu Sans Mono standing in for OCR-B).
 */
export async function idCardBack(o: BackOptions): Promise<Buffer> {
  const lines = o.mrz ?? td1Mrz(o);
  const label = (x: number, y: number, text: string): Text => ({ x, y, text, size: 11, fill: '#4a5966' });
  const value = (x: number, y: number, text: string): Text => ({ x, y, text, size: 17, bold: true });
  const texts: Text[] = [
    label(28, 36, 'CODICE FISCALE / FISCAL CODE'),
    value(28, 58, 'RSSMRA80M12H501X'),
    label(28, 88, 'INDIRIZZO DI RESIDENZA / RESIDENCE'),
    value(28, 110, 'VIA DEL CORSO 1, ROMA (RM)'),
    label(28, 140, 'ESTREMI ATTO DI NASCITA'),
    value(28, 162, '00123 1 A 1980'),
    // the MRZ: 30 characters over ~600 px (DejaVu Sans Mono advances 0.602 em)
    ...lines.map((text, i): Text => ({ x: 22, y: 272 + i * 42, text, size: 32, mono: true, fill: '#111111' })),
  ];
  const zone = `<rect x="0" y="236" width="${CARD.width}" height="164" fill="#f4f6f8"/>`;
  return photo(svgOf('#e7eff6', texts, zone));
}
