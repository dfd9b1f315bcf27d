/**
 * Face images for the identity tests: six portrait crops of six different people (from
 * @vladmandic/face-api's demo photos, see test/fixtures/faces/README.md), and identity
 * "documents" made from them: a card with the portrait re-cropped, shrunk, desaturated and
 * recompressed, as a phone photo of an ID card would show it.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';

export const PEOPLE = ['person-a', 'person-b', 'person-c', 'person-d', 'person-e', 'person-f'] as const;
export type Person = (typeof PEOPLE)[number];

export function facePhoto(person: Person): Buffer {
  return readFileSync(new URL(`../fixtures/faces/${person}.jpg`, import.meta.url));
}

const CARD = { width: 640, height: 400 };
const PHOTO = { left: 40, top: 90, width: 170, height: 220 };

/** Options of a synthetic card: a ghost portrait, or a degraded main portrait. */
export interface CardOptions {
  /**
   * The small second portrait of a carta d'identità elettronica: the same portrait at a third
   * of the main one's side (about 1/9 of its area), greyer, on the right of the card.
   */
  ghost?: boolean;
  /** Gaussian blur (sigma, px) of the main portrait: a worn, out-of-focus card */
  blur?: number;
  /** what the card says (the identity check reads it): surname, name and document number */
  surname?: string;
  name?: string;
  number?: string;
  /** false: grey bars where the text would be (a card that carries no text) */
  text?: boolean;
}

/** The defaults of a card's text: the requests of test/support/submission.ts are Giulia Bianchi's. */
export const CARD_HOLDER = { surname: 'BIANCHI', name: 'GIULIA', number: 'CA12345AB' } as const;

const escapeXml = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The card's printed text (DejaVu Sans), right of the portrait and on the header, as an overlay. */
function cardText(surname: string, name: string, number: string): Buffer {
  const line = (x: number, y: number, size: number, text: string, fill = '#1f2a33', weight = 'normal') =>
    `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" font-weight="${weight}" fill="${fill}">${escapeXml(text)}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD.width}" height="${CARD.height}">
    ${line(20, 33, 20, 'REPUBBLICA ITALIANA', '#ffffff', 'bold')}
    ${line(250, 328, 11, 'NUMERO / NUMBER', '#4a5966')}
    ${line(250, 352, 20, number.toUpperCase(), '#1f2a33', 'bold')}
    ${line(250, 112, 11, 'COGNOME / SURNAME', '#4a5966')}
    ${line(250, 136, 20, surname.toUpperCase(), '#1f2a33', 'bold')}
    ${line(250, 166, 11, 'NOME / NAME', '#4a5966')}
    ${line(250, 190, 20, name.toUpperCase(), '#1f2a33', 'bold')}
    ${line(250, 220, 11, 'LUOGO E DATA DI NASCITA', '#4a5966')}
    ${line(250, 244, 18, 'ROMA (RM) 12.08.1980', '#1f2a33', 'bold')}
    ${line(250, 274, 11, 'SCADENZA / EXPIRY', '#4a5966')}
    ${line(250, 298, 18, '12.08.2031', '#1f2a33', 'bold')}
  </svg>`;
  return Buffer.from(svg);
}

/**
 * A document front with `person`'s portrait (a different crop, smaller, paler) and the card's
 * text (`CARD_HOLDER` unless given), JPEG quality 70.
 */
export async function documentFront(person: Person, options: CardOptions = {}): Promise<Buffer> {
  const src = sharp(facePhoto(person));
  const { width = 320, height = 320 } = await src.metadata();
  const crop = { left: Math.round(width * 0.12), top: Math.round(height * 0.05), width: Math.round(width * 0.76), height: Math.round(height * 0.9) };
  const portrait = await sharp(facePhoto(person))
    .extract(crop)
    .resize(PHOTO.width, PHOTO.height, { fit: 'cover' })
    .modulate({ saturation: 0.6, brightness: 1.05 })
    .blur(options.blur ?? false)
    .toBuffer();
  const ghost = options.ghost
    ? await sharp(portrait).resize(Math.round(PHOTO.width / 3), Math.round(PHOTO.height / 3)).modulate({ saturation: 0.2, brightness: 1.15 }).toBuffer()
    : undefined;
  const bar = (w: number, h: number, grey: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r: grey, g: grey, b: grey } } }).png().toBuffer();
  const layers = [
    { input: await bar(CARD.width, 50, 120), left: 0, top: 0 },
    { input: portrait, left: PHOTO.left, top: PHOTO.top },
    ...(options.text === false
      ? await Promise.all([0, 1, 2, 3, 4].map(async (i) => ({ input: await bar(300 - i * 30, 16, 150), left: 250, top: 110 + i * 40 })))
      : [{ input: cardText(options.surname ?? CARD_HOLDER.surname, options.name ?? CARD_HOLDER.name, options.number ?? CARD_HOLDER.number), left: 0, top: 0 }]),
    ...(ghost ? [{ input: ghost, left: 560, top: 300 }] : []),
  ];
  return sharp({ create: { ...CARD, channels: 3, background: { r: 214, g: 226, b: 236 } } })
    .composite(layers)
    .jpeg({ quality: 70 })
    .toBuffer();
}

/** Two portraits side by side: an image with two faces. */
export async function twoFaces(a: Person, b: Person): Promise<Buffer> {
  const tile = (p: Person) => sharp(facePhoto(p)).resize(320, 320, { fit: 'cover' }).toBuffer();
  return sharp({ create: { width: 640, height: 320, channels: 3, background: { r: 255, g: 255, b: 255 } } })
    .composite([
      { input: await tile(a), left: 0, top: 0 },
      { input: await tile(b), left: 320, top: 0 },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * A worn, out-of-focus card of person-f (main portrait blurred, sigma 3.5): against person-f's
 * face photo the local engine measures a distance of 0.515, similarity 65.6, inside the review
 * band (60-70). Deterministic on the local engine (wasm backend).
 */
export const reviewBandCard = (card: Omit<CardOptions, 'blur'> = {}) => documentFront('person-f', { ...card, blur: 3.5 });
export const REVIEW_BAND_PERSON: Person = 'person-f';
