/**
 * THE face matcher port of the identity check: do a face photo (source) and an identity
 * document (target) show the same person? Two adapters answer it:
 * - Amazon Rekognition CompareFaces (./rekognition-face-matcher.ts), on AWS;
 * - a local face-api engine (./local-face-matcher.ts), on the emulators (FACE_MATCHER=local,
 *   set by infra/local/stack.ts).
 * Both load lazily, so a Lambda never loads the local engine (nor its wasm and weights).
 */
import { config } from '../config';

export interface FaceComparison {
  /** faces found in each image */
  faces: { source: number; target: number };
  /**
   * How much the source face looks like the target face, 0-100 (Rekognition's scale), or
   * null when there was nothing to compare (no face in one of the images).
   */
  similarity: number | null;
  /** the local engine only: the descriptor distance behind `similarity` (for calibration) */
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
