/**
 * THE face matcher port of the identity check: do a face photo (source) and an identity
 * document (target) show the same person? Two adapters answer it:
 * - Amazon Rekognition CompareFaces (./rekognition-face-matcher.ts), on AWS;
 * - a local face-api engine (./local-face-matcher.ts), on the emulators (FACE_MATCHER=local,
 *   set by infra/local/stack.ts).
 * Both load lazily, so a Lambda never loads the local engine (nor its wasm and weights).
 */
import { config } from '../config';

/** A face's bounding box as fractions (0-1) of its image's width and height. */
export interface FaceBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A face found on the document, with how much it looks like the face photo's face. */
export interface DocumentFace {
  box: FaceBox;
  /** 0-100 (Rekognition's scale) against the face photo's (largest) face; null when the photo has none */
  similarity: number | null;
}

export interface FaceComparison {
  /** the faces of the face photo, largest first (Rekognition reports only its largest) */
  source: FaceBox[];
  /** every face of the document, largest first, each compared with the face photo's face */
  target: DocumentFace[];
  /**
   * The engine's own "this is the same photograph" signal (the local engine: descriptors
   * closer than any two shots of a face); the rules of functions/domain/identity.ts add the
   * byte hash and the geometry test that hold for both engines.
   */
  samePhoto: boolean;
  /** the local engine only: the descriptor distance of the document's largest face (for calibration) */
  distance?: number | null;
}

export interface FaceMatcher {
  compareFaces(source: Buffer, target: Buffer): Promise<FaceComparison>;
}

/** An image the matcher cannot use (not a JPEG/PNG, corrupt, too large for the engine). */
export class FaceImageError extends Error {
  constructor(
    readonly problem: 'unreadable' | 'tooLarge',
    message: string,
  ) {
    super(message);
    this.name = 'FaceImageError';
  }
}

let matcher: Promise<FaceMatcher> | undefined;

/** The configured matcher (cached per process). */
export function faceMatcher(): Promise<FaceMatcher> {
  matcher ??= (
    config().FACE_MATCHER === 'local'
      ? import('./local-face-matcher').then((m) => m.localFaceMatcher())
      : import('./rekognition-face-matcher').then((m) => m.rekognitionFaceMatcher())
  ).catch((err: unknown) => {
    matcher = undefined;
    throw err;
  });
  return matcher;
}
