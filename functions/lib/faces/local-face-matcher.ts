/**
 * The local face matcher (emulators only, FACE_MATCHER=local): @vladmandic/face-api on
 * TensorFlow.js with the wasm backend, images decoded by sharp. Detection is SSD MobileNet
 * v1, then 68 landmarks and a 128-number descriptor per face; two faces are the same person
 * when their descriptors are closer than SAME_PERSON_DISTANCE (euclidean).
 *
 * The packages are loaded with a computed require, so esbuild never puts them in a Lambda
 * bundle: on AWS the Rekognition adapter answers and this file's code never runs.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MATCH_MIN_SIMILARITY } from '../../domain/identity';
import { FaceImageError, type FaceComparison, type FaceMatcher } from './face-matcher';

/**
 * Same person below this distance: 66/66 same-person pairs and 0/307 impostor pairs on
 * sample photos (docs/identity.md has the figures measured by the identity tests).
 */
export const SAME_PERSON_DISTANCE = 0.45;

/**
 * Descriptor distance -> similarity 0-100 on Rekognition's scale, piecewise linear so that the
 * calibrated threshold lands exactly on the use case's MATCH_MIN_SIMILARITY (60):
 *   distance 0                    -> 100 (identical descriptors)
 *   distance SAME_PERSON_DISTANCE -> 60  (the threshold: below it, same person)
 *   distance 2 x threshold (0.9)  -> 0   and anything farther stays 0.
 * Same-person pairs of real photos fall around 0.25-0.40, i.e. 64-78; LOW_CONFIDENCE (70)
 * is then distance 0.34.
 */
export function similarityFromDistance(distance: number): number {
  const t = SAME_PERSON_DISTANCE;
  const min = MATCH_MIN_SIMILARITY;
  const s = distance <= t ? 100 - (distance / t) * (100 - min) : min * (1 - (distance - t) / t);
  return Math.max(0, Math.min(100, Math.round(s * 10) / 10));
}

/** Images are scaled down to this longest side before detection (speed; faces stay large enough). */
const MAX_SIDE = 1024;
const MIN_FACE_SCORE = 0.5;

interface Tensor {
  dispose(): void;
}
interface Detection {
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

async function descriptorsOf({ faceapi, sharp }: Engine, image: Buffer): Promise<Float32Array[]> {
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
  try {
    const faces = await faceapi
      .detectAllFaces(tensor, new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_FACE_SCORE, maxResults: 10 }))
      .withFaceLandmarks()
      .withFaceDescriptors();
    return faces.map((f) => f.descriptor);
  } finally {
    tensor.dispose();
  }
}

// one comparison at a time: TensorFlow.js has one backend per process
let queue: Promise<unknown> = Promise.resolve();

export function localFaceMatcher(): FaceMatcher {
  return {
    compareFaces(source: Buffer, target: Buffer): Promise<FaceComparison> {
      const run = queue.then(async () => {
        const e = await loadEngine();
        const s = await descriptorsOf(e, source);
        const t = await descriptorsOf(e, target);
        let best: number | null = null;
        for (const a of s) for (const b of t) {
          const d = e.faceapi.euclideanDistance(a, b);
          if (best === null || d < best) best = d;
        }
        return { faces: { source: s.length, target: t.length }, similarity: best === null ? null : similarityFromDistance(best), distance: best };
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
