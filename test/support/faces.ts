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
}

/** A document front with `person`'s portrait: a different crop, smaller, paler, JPEG quality 70. */
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
    ...(await Promise.all([0, 1, 2, 3, 4].map(async (i) => ({ input: await bar(300 - i * 30, 16, 150), left: 250, top: 110 + i * 40 })))),
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
export const reviewBandCard = () => documentFront('person-f', { blur: 3.5 });
export const REVIEW_BAND_PERSON: Person = 'person-f';
