/**
 * THE document text port of the identity check: which lines of text does a photo of an
 * identity document show? The rules on them are pure (functions/domain/identity-document.ts).
 * Two adapters answer it, chosen by the same switch as the face matcher (FACE_MATCHER):
 * - Amazon Rekognition DetectText (./rekognition-text-reader.ts), on AWS;
 * - a local tesseract.js engine (./local-text-reader.ts), on the emulators (FACE_MATCHER=local).
 * Both load lazily, so a Lambda never loads the local engine (nor its wasm and language data).
 */
import { config } from '../config';

export interface DocumentText {
  /** the lines read, top to bottom (left to right on a row), trimmed, none empty */
  lines: string[];
}

export interface DocumentTextReader {
  readText(image: Uint8Array): Promise<DocumentText>;
}

/** An image the reader cannot use (not a JPEG/PNG, corrupt, too large for the engine). */
export class DocumentImageError extends Error {
  constructor(
    readonly problem: 'unreadable' | 'tooLarge',
    message: string,
  ) {
    super(message);
    this.name = 'DocumentImageError';
  }
}

let reader: Promise<DocumentTextReader> | undefined;

/** The configured reader (cached per process). */
export function documentTextReader(): Promise<DocumentTextReader> {
  reader ??= (
    config().FACE_MATCHER === 'local'
      ? import('./local-text-reader').then((m) => m.localTextReader())
      : import('./rekognition-text-reader').then((m) => m.rekognitionTextReader())
  ).catch((err: unknown) => {
    reader = undefined;
    throw err;
  });
  return reader;
}
