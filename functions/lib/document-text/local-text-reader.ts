/**
 * The local document text reader (emulators only, FACE_MATCHER=local): tesseract.js (the
 * Tesseract OCR engine compiled to wasm, LSTM recognizer) with Italian and English language
 * data from the @tesseract.js-data packages, images decoded and normalised by sharp.
 *
 * The packages are loaded with a computed require, so esbuild never puts them in a Lambda
 * bundle: on AWS the Rekognition adapter answers and this file's code never runs.
 *
 * Language data: each @tesseract.js-data/<lang> package holds two variants, `4.0.0` (the
 * tessdata files: legacy engine + LSTM, 11 MB gzipped for eng) and `4.0.0_best_int` (LSTM
 * only, tessdata_best converted to integers, 2.9 MB for eng, 1.6 MB for ita). The worker runs
 * the LSTM engine only (tesseract.js's default, OEM 1), which the second variant is made for:
 * it is what tesseract.js itself downloads for OEM 1, a quarter of the bytes, and it starts
 * faster (0.35 s against 0.55-1.1 s) with the same recognition time and reading (95 and 93
 * of the 144 synthetic card images below pass the rules). No "fast" (tessdata_fast) variant
 * is published in these packages. tesseract.js
 * reads every language from one `langPath` directory, and the two languages live in two
 * packages: the files are linked into a temporary directory, read once when the worker starts
 * (into the wasm file system) and the directory is removed. Nothing is fetched or cached on
 * disk (cacheMethod 'none').
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { VersionedCache } from '../versioned-cache';
import { DocumentImageError, type DocumentText, type DocumentTextReader } from './document-text';

/** The languages of the worker: Italian documents with English labels (CIE, passport). */
const LANGUAGES = ['ita', 'eng'] as const;
const LANGUAGE_DATA_VARIANT = '4.0.0_best_int';
/** OEM 1: the LSTM recognizer only */
const OEM_LSTM_ONLY = 1;
/**
 * Photos are scaled to a longest side between MIN_SIDE and MAX_SIDE before recognition.
 * Down to MAX_SIDE: a card filling a phone photo keeps its smallest print legible, and
 * Tesseract's time grows with the pixels. Up to MIN_SIDE: on a small photo (a 640x400 card)
 * Tesseract misses print under ~15 px; enlarged it reads it: of 144 synthetic card images
 * (fronts and backs of 24 cards; sharp, blurred, 480 px wide) 95 pass the rules instead of 75
 * (measured; a recognition then takes ~1.7x the time of the small image).
 */
const MIN_SIDE = 1280;
const MAX_SIDE = 2000;

/**
 * Words Tesseract reads with a lower confidence (0-100) are not text: on a photo without
 * text (a face, a room) it still "reads" a few words at 5-70 (measured on the six sample
 * faces: one symbol or digit per photo reached 71-92), while the printed words of a card
 * read at 84-96. Rekognition applies the same idea (DetectText's default MinConfidence, 80).
 */
export const MIN_WORD_CONFIDENCE = 60;

/**
 * Codes are kept whatever their confidence: Tesseract's language model scores strings that
 * are no words low though it reads them right (a document number at 51-91, the machine
 * readable zone at 27-77 on perfectly read cards), and the rules judge them (the typed
 * number, the check digits). A code: 5 or more capitals, digits and '<' with a digit or a
 * '<' (a photo's noise never reads as one); an MRZ line (spaces apart: capitals, digits,
 * '<' and OCR's '«' or '‹' for it, at least two fillers, 20 or more characters) whole.
 */
const CODE = /^(?=.*[0-9<])[A-Z0-9<]{5,}$/;
const MRZ_LIKE = /^(?=(?:[^<«‹]*[<«‹]){2})[A-Z0-9<«‹]{20,}$/;

interface TesseractLine {
  text: string;
  words: { text: string; confidence: number }[];
}
interface TesseractPage {
  blocks: { paragraphs: { lines: TesseractLine[] }[] }[] | null;
}
interface TesseractWorker {
  recognize(image: Buffer, options: object, output: { blocks: true; text: false }): Promise<{ data: TesseractPage }>;
  terminate(): Promise<unknown>;
}
interface Tesseract {
  createWorker(
    langs: string,
    oem: number,
    options: { langPath: string; cacheMethod: 'none'; gzip: true; errorHandler: (err: unknown) => void },
    config: Record<string, string>,
  ): Promise<TesseractWorker>;
}
interface Sharp {
  rotate(): Sharp;
  metadata(): Promise<{ width?: number; height?: number }>;
  resize(o: { width: number; height: number; fit: 'inside' }): Sharp;
  png(o: { compressionLevel: number }): Sharp;
  toBuffer(): Promise<Buffer>;
}

interface Engine {
  worker: TesseractWorker;
  sharp: (input: Uint8Array) => Sharp;
}

let engine: Promise<Engine> | undefined;

/** Starts the tesseract.js worker thread and loads both languages, once per process (~0.5 s). */
function loadEngine(): Promise<Engine> {
  engine ??= (async () => {
    const load = createRequire(import.meta.url);
    const tesseract = load(['tesseract', 'js'].join('.')) as Tesseract;
    const sharp = load(['sh', 'arp'].join('')) as (input: Uint8Array) => Sharp;
    const langPath = mkdtempSync(join(tmpdir(), 'tesseract-lang-'));
    try {
      for (const lang of LANGUAGES) {
        const pkg = dirname(load.resolve(['@tesseract.js-data', lang, 'package.json'].join('/')));
        const file = `${lang}.traineddata.gz`;
        try {
          symlinkSync(join(pkg, LANGUAGE_DATA_VARIANT, file), join(langPath, file));
        } catch {
          // a file system without symbolic links: a copy (1.6-2.9 MB)
          copyFileSync(join(pkg, LANGUAGE_DATA_VARIANT, file), join(langPath, file));
        }
      }
      const worker = await tesseract.createWorker(
        LANGUAGES.join('+'),
        OEM_LSTM_ONLY,
        // a failed job rejects its promise; without an errorHandler tesseract.js also throws
        // from the worker's message listener, an uncaught exception that ends the process
        { langPath, cacheMethod: 'none', gzip: true, errorHandler: () => undefined },
        // the ita data names a user-words file it does not ship ('failed to load ./ita.special-words')
        { user_words_suffix: '' },
      );
      return { worker, sharp };
    } finally {
      rmSync(langPath, { recursive: true, force: true });
    }
  })().catch((err: unknown) => {
    engine = undefined;
    throw err;
  });
  return engine;
}

/**
 * The image upright (EXIF orientation), its longest side within MIN_SIDE-MAX_SIDE, as a PNG
 * (lossless: no second JPEG pass); DocumentImageError if sharp cannot decode it. Colour is
 * kept: Tesseract's own grey conversion reads the cards' small print better than sharp's
 * greyscale (measured).
 */
async function normalised(sharp: Engine['sharp'], image: Uint8Array): Promise<Buffer> {
  try {
    const { width = 0, height = 0 } = await sharp(image).metadata();
    const longest = Math.max(width, height);
    const side = Math.min(MAX_SIDE, Math.max(MIN_SIDE, longest));
    let pipeline = sharp(image).rotate();
    if (longest > 0 && side !== longest) pipeline = pipeline.resize({ width: side, height: side, fit: 'inside' });
    return await pipeline.png({ compressionLevel: 1 }).toBuffer();
  } catch {
    throw new DocumentImageError('unreadable', 'image not decodable');
  }
}

/** A line's text: whole if it looks like an MRZ line, otherwise its codes and its words read with MIN_WORD_CONFIDENCE. */
function lineText(line: TesseractLine): string {
  const whole = line.text.trim();
  if (MRZ_LIKE.test(whole.replace(/\s+/g, ''))) return whole;
  return line.words
    .filter((w) => w.confidence >= MIN_WORD_CONFIDENCE || CODE.test(w.text.trim()))
    .map((w) => w.text.trim())
    .join(' ')
    .trim();
}

/** The page's lines in Tesseract's reading order (blocks, then lines), trimmed, none empty. */
export function linesOf(page: TesseractPage): string[] {
  return (page.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines.map(lineText))).filter((l) => l.length > 0);
}

// one recognition at a time: one worker, one Tesseract instance
let queue: Promise<unknown> = Promise.resolve();

/**
 * The text of an image is a function of its bytes: the text of the last images read is kept
 * by their SHA-256, so a document checked again (a retried check, the same card of several
 * requests) is not recognised again (1-2 s each on one core). A failed reading is not kept.
 */
const TEXTS_KEPT = 64;
const seen = new VersionedCache<DocumentText>(TEXTS_KEPT, Infinity);

/** `remember` false: every image is recognised (bench/identity.ts times the engine itself). */
export function localTextReader({ remember = true }: { remember?: boolean } = {}): DocumentTextReader {
  return {
    readText(image: Uint8Array): Promise<DocumentText> {
      if (!remember) return recognise(image);
      return seen.get(createHash('sha256').update(image).digest('hex'), '', () => recognise(image));
    },
  };
}

function recognise(image: Uint8Array): Promise<DocumentText> {
  pending += 1;
  clearTimeout(idle);
  const run = queue.then(async (): Promise<DocumentText> => {
    const { worker, sharp } = await loadEngine();
    const png = await normalised(sharp, image);
    let page: TesseractPage;
    try {
      page = (await worker.recognize(png, {}, { blocks: true, text: false })).data;
    } catch (err) {
      // tesseract.js rejects with a string
      throw new Error(`tesseract.js recognition failed: ${String(err)}`);
    }
    return { lines: linesOf(page) };
  });
  queue = run.catch(() => undefined);
  void run.catch(() => undefined).finally(() => {
    pending -= 1;
    if (pending === 0) closeWhenIdle();
  });
  return run;
}

/**
 * A worker thread keeps its process alive: the worker ends IDLE_MS after the last reading (the
 * next one starts a new worker, ~0.5 s), so a test run or a local runtime can exit. The timer
 * itself does not hold the process.
 */
const IDLE_MS = 10_000;
let idle: NodeJS.Timeout | undefined;
/** readings asked for and not finished */
let pending = 0;
function closeWhenIdle(): void {
  clearTimeout(idle);
  idle = setTimeout(() => void closeLocalTextReader(), IDLE_MS);
  idle.unref();
}

/** Ends the worker thread (tests, benches, a local runtime that shuts down); the next read starts a new one. */
export async function closeLocalTextReader(): Promise<void> {
  const current = engine;
  engine = undefined;
  if (current) await (await current.catch(() => null))?.worker.terminate();
}
