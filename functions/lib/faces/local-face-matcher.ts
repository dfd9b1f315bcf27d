/**
 * The local face matcher (emulators only, FACE_MATCHER=local): @vladmandic/face-api on
 * TensorFlow.js with the wasm backend, images decoded by sharp. Detection is SSD MobileNet
 * v1 (the more accurate of face-api's detectors: the tiny one misses tilted faces), then 68
 * landmarks and a 128-number descriptor per face; the euclidean distance of the face photo's
 * face to each face of the document becomes a similarity (similarityFromDistance).
 *
 * The packages are loaded with a computed require, so esbuild never puts them in a Lambda
 * bundle: on AWS the Rekognition adapter answers and this file's code never runs.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { VersionedCache } from '../versioned-cache';
import { FaceImageError, type FaceBox, type FaceComparison, type FaceMatcher } from './face-matcher';

/**
 * The calibration of descriptor distance -> similarity (docs/identity.md, "Calibrazione";
 * `npm run bench:identity` measures it). Measured on the local engine: two shots of the same
 * person 0.33-0.46, a face photo and a card made from the same shot 0.10-0.20, two different
 * persons 0.65 and more (0.73 and more on real selfie/document pairs). The anchors:
 *   0                     -> 100
 *   VERIFIED_DISTANCE 0.48 -> 70 (LOW_CONFIDENCE): every measured same-person pair is above 70
 *   SAME_PERSON_DISTANCE 0.56 -> 60 (MATCH_MIN_SIMILARITY): the equal-error point between the
 *                            genuine maximum (0.46) and the impostor minimum (0.65), with a
 *                            margin of 0.10 on the genuine side and 0.09 on the impostor side;
 *                            0.48-0.56 goes to an admin's review
 *   0.9 and farther        -> 0.
 */
export const VERIFIED_DISTANCE = 0.48;
export const SAME_PERSON_DISTANCE = 0.56;
const ZERO_DISTANCE = 0.9;

/**
 * The same decoded pixels twice: descriptors closer than this (the same file gives 0.000).
 * A re-encoded or resized copy of one photo measures 0.08-0.15, as far as a card printed from
 * the same shot (0.10-0.20): no distance separates them, so such copies are caught by the
 * same-frame test of functions/domain/identity.ts (the face at the same place of the image).
 */
export const SAME_PHOTO_DISTANCE = 0.05;

const ANCHORS: [number, number][] = [
  [0, 100],
  [VERIFIED_DISTANCE, 70],
  [SAME_PERSON_DISTANCE, 60],
  [ZERO_DISTANCE, 0],
];

/** Descriptor distance -> similarity 0-100 on Rekognition's scale, piecewise linear through ANCHORS. */
export function similarityFromDistance(distance: number): number {
  let s = 0;
  for (let i = 1; i < ANCHORS.length; i++) {
    const [d0, s0] = ANCHORS[i - 1]!;
    const [d1, s1] = ANCHORS[i]!;
    if (distance <= d1) {
      s = s0 + ((Math.max(distance, d0) - d0) / (d1 - d0)) * (s1 - s0);
      break;
    }
  }
  return Math.max(0, Math.min(100, Math.round(s * 10) / 10));
}

/** Images are scaled down to this longest side before detection (speed; faces stay large enough). */
const MAX_SIDE = 1024;
const MIN_FACE_SCORE = 0.5;
/**
 * When SSD MobileNet finds no face at MIN_FACE_SCORE (a tilted head, an open mouth), one more
 * pass at this score: the detector's second-best guess is still a face on a portrait, and a
 * false face is then refused by the comparison, not accepted.
 */
const RETRY_FACE_SCORE = 0.3;

interface Tensor {
  dispose(): void;
}
interface Detection {
  descriptor: Float32Array;
  detection: { box: { x: number; y: number; width: number; height: number } };
}
interface Face {
  box: FaceBox;
  descriptor: Float32Array;
}
interface FaceApi {
  tf: {
    setBackend(name: string): Promise<boolean>;
    ready(): Promise<void>;
    tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): Tensor;
  };
  nets: Record<'ssdMobilenetv1' | 'faceLandmark68Net' | 'faceRecognitionNet', { loadFromDisk(dir: string): Promise<void> }>;
  SsdMobilenetv1Options: new (o: { minConfidence: number; maxResults?: number }) => unknown;
  detectAllFaces(input: Tensor, options: unknown): { withFaceLandmarks(): { withFaceDescriptors(): Promise<Detection[]> } };
  euclideanDistance(a: Float32Array, b: Float32Array): number;
}
interface Sharp {
  rotate(): Sharp;
  resize(o: { width: number; height: number; fit: 'inside'; withoutEnlargement: boolean }): Sharp;
  removeAlpha(): Sharp;
  toColourspace(space: 'srgb'): Sharp;
  raw(): Sharp;
  toBuffer(o: { resolveWithObject: true }): Promise<{ data: Buffer; info: { width: number; height: number; channels: number } }>;
}

interface Engine {
  faceapi: FaceApi;
  sharp: (input: Buffer) => Sharp;
}

let engine: Promise<Engine> | undefined;

/** Loads the wasm backend and the three models once per process (~0.3 s). */
function loadEngine(): Promise<Engine> {
  engine ??= (async () => {
    const load = createRequire(import.meta.url);
    const faceApiEntry = ['@vladmandic', 'face-api', 'dist', 'face-api.node-wasm.js'].join('/');
    const faceapi = load(faceApiEntry) as FaceApi;
    const sharp = load(['sh', 'arp'].join('')) as (input: Buffer) => Sharp;
    await faceapi.tf.setBackend('wasm');
    await faceapi.tf.ready();
    const modelDir = join(dirname(load.resolve(faceApiEntry)), '..', 'model');
    await faceapi.nets.ssdMobilenetv1.loadFromDisk(modelDir);
    await faceapi.nets.faceLandmark68Net.loadFromDisk(modelDir);
    await faceapi.nets.faceRecognitionNet.loadFromDisk(modelDir);
    return { faceapi, sharp };
  })().catch((err: unknown) => {
    engine = undefined;
    throw err;
  });
  return engine;
}

async function facesOf({ faceapi, sharp }: Engine, image: Buffer): Promise<Face[]> {
  let decoded: Awaited<ReturnType<Sharp['toBuffer']>>;
  try {
    decoded = await sharp(image)
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new FaceImageError('unreadable', 'image not decodable');
  }
  const { data, info } = decoded;
  if (info.channels !== 3) throw new FaceImageError('unreadable', `unexpected ${info.channels} channels`);
  const tensor = faceapi.tf.tensor3d(new Uint8Array(data), [info.height, info.width, 3], 'int32');
  const detect = (minConfidence: number) =>
    faceapi.detectAllFaces(tensor, new faceapi.SsdMobilenetv1Options({ minConfidence, maxResults: 10 })).withFaceLandmarks().withFaceDescriptors();
  try {
    let found = await detect(MIN_FACE_SCORE);
    if (found.length === 0) found = await detect(RETRY_FACE_SCORE);
    const faces = found.map((f) => {
      const b = f.detection.box;
      return { descriptor: f.descriptor, box: { left: b.x / info.width, top: b.y / info.height, width: b.width / info.width, height: b.height / info.height } };
    });
    return faces.sort((x, y) => y.box.width * y.box.height - x.box.width * x.box.height);
  } finally {
    tensor.dispose();
  }
}

// one comparison at a time: TensorFlow.js has one backend per process
let queue: Promise<unknown> = Promise.resolve();

/**
 * The faces of an image are a function of its bytes (the wasm backend is deterministic): the
 * faces of the last images seen are kept by their SHA-256, so an image checked again (the
 * same face photo against several documents, a retried check) is not analysed again (~0.5 s
 * each on one core). An image that cannot be read is not kept.
 */
const FACES_KEPT = 64;
const seen = new VersionedCache<Face[]>(FACES_KEPT, Infinity);

/** `remember` false: every image is analysed (bench/identity.ts times the engine itself). */
export function localFaceMatcher({ remember = true }: { remember?: boolean } = {}): FaceMatcher {
  const faces = (e: Engine, image: Buffer) =>
    remember ? seen.get(createHash('sha256').update(image).digest('hex'), '', () => facesOf(e, image)) : facesOf(e, image);
  return {
    compareFaces(source: Buffer, target: Buffer): Promise<FaceComparison> {
      const run = queue.then(async (): Promise<FaceComparison> => {
        const e = await loadEngine();
        const s = await faces(e, source);
        const t = await faces(e, target);
        const photo = s[0];
        const target_ = t.map((f) => {
          const distance = photo ? e.faceapi.euclideanDistance(photo.descriptor, f.descriptor) : null;
          return { box: f.box, similarity: distance === null ? null : similarityFromDistance(distance), distance };
        });
        const largest = target_[0]?.distance ?? null;
        return {
          source: s.map((f) => f.box),
          target: target_.map(({ box, similarity }) => ({ box, similarity })),
          samePhoto: largest !== null && largest < SAME_PHOTO_DISTANCE,
          distance: largest,
        };
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
