/**
 * The identity check's accuracy and speed on the project's sample set (`npm run bench:identity`):
 * the local engine (functions/lib/faces/local-face-matcher.ts) and the rules of
 * functions/domain/identity.ts, exactly as the use case runs them (same SHA-256 test, same
 * decision), without the API. The sample: the six faces of test/fixtures/faces and the
 * synthetic identity cards of test/support/faces.ts:
 * - genuine pairs: each face photo against its own card, plain, with the ghost portrait of an
 *   electronic ID card, and worn (portrait blurred, sigma 2 and 3);
 * - impostor pairs: each face photo against every other person's card, plain and with ghost;
 * - same-image pairs: the photo twice, the photo re-encoded, the card twice, the card
 *   re-encoded (the tester's attack and its next tries);
 * - selfie as the document: another crop of the face photo;
 * - the right face on a card that does not carry the typed number, or another holder's
 *   surname (the document's text, read by the local OCR engine as the use case reads it).
 * Prints the outcome of each class, the similarity distribution and the time per check, and
 * writes them to bench/results/identity.json (the figures of docs/identity.md).
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { quiet, machine, pct, r1, writeResults } from './support';
import { decideIdentity, type IdentityCheckResult } from '../functions/domain/identity';
import { localFaceMatcher } from '../functions/lib/faces/local-face-matcher';
import { CARD_HOLDER, documentFront, facePhoto, PEOPLE } from '../test/support/faces';
import { documentTextRefusal, withDocumentText } from '../functions/domain/identity-document';
import { todayInRome } from '../functions/domain/availability';
import { closeLocalTextReader, localTextReader } from '../functions/lib/document-text/local-text-reader';

quiet();

type Kind = 'genuine' | 'impostor' | 'sameImage' | 'selfieAsDocument' | 'wrongNumber' | 'wrongHolder';
interface Row {
  kind: Kind;
  label: string;
  result: IdentityCheckResult;
  similarity: number | null;
  distance: number | null;
  ms: number;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const matcher = localFaceMatcher({ remember: false });
const reader = localTextReader({ remember: false });
const rows: Row[] = [];

/**
 * One check as the use case runs it: the document's text read while the faces are compared,
 * then the faces' decision and the text's rules (the typed number and surname: the card's own
 * unless `typed` says otherwise).
 */
async function run(kind: Kind, label: string, face: Buffer, front: Buffer, typed: { number?: string; surname?: string } = {}): Promise<void> {
  const started = performance.now();
  const text = reader.readText(front);
  text.catch(() => undefined);
  const c = await matcher.compareFaces(face, front);
  const faces = decideIdentity({ source: c.source, target: c.target, samePhoto: c.samePhoto, sameBytes: sha(face) === sha(front) });
  const result =
    faces.status === 'rejected'
      ? faces
      : withDocumentText(
          faces,
          documentTextRefusal({ lines: (await text).lines, documentNumber: typed.number ?? CARD_HOLDER.number, surnames: [typed.surname ?? CARD_HOLDER.surname], today: todayInRome() }),
        );
  rows.push({ kind, label, result, similarity: c.target[0]?.similarity ?? null, distance: c.distance ?? null, ms: performance.now() - started });
}

const recode = (b: Buffer, width: number, quality: number) => sharp(b).resize(width).jpeg({ quality }).toBuffer();

const started = performance.now();
// warm-up: the first check loads wasm and the models
await run('genuine', 'warm-up', facePhoto('person-a'), await documentFront('person-a'));
const coldMs = rows.pop()!.ms;

for (const p of PEOPLE) {
  const face = facePhoto(p);
  const plain = await documentFront(p);
  for (const [variant, card] of [
    ['plain', plain],
    ['ghost', await documentFront(p, { ghost: true })],
    ['blur2', await documentFront(p, { blur: 2 })],
    ['blur3', await documentFront(p, { blur: 3 })],
  ] as const) {
    await run('genuine', `${p} ${variant}`, face, card);
  }
  for (const other of PEOPLE.filter((o) => o !== p)) {
    await run('impostor', `${p} vs ${other}`, face, await documentFront(other));
    await run('impostor', `${p} vs ${other} ghost`, face, await documentFront(other, { ghost: true }));
  }
  await run('sameImage', `${p} photo twice`, face, face);
  await run('sameImage', `${p} photo re-encoded`, face, await recode(face, 300, 60));
  await run('sameImage', `${p} card twice`, plain, plain);
  await run('sameImage', `${p} card re-encoded`, plain, await recode(plain, 560, 55));
  const crop = await sharp(face).extract({ left: 20, top: 10, width: 290, height: 300 }).resize(400).jpeg({ quality: 80 }).toBuffer();
  await run('selfieAsDocument', `${p} crop`, face, crop);
  // the right face on a card that does not say what was typed
  await run('wrongNumber', `${p} typed another number`, face, plain, { number: 'CA99999ZZ' });
  await run('wrongHolder', `${p} card of another holder`, face, plain, { surname: 'VERDI' });
}
await closeLocalTextReader();

const of = (k: Kind) => rows.filter((r) => r.kind === k);
const count = (rs: Row[], f: (r: Row) => boolean) => `${rs.filter(f).length}/${rs.length}`;
const sims = (rs: Row[]) => rs.map((r) => r.similarity).filter((s): s is number => s !== null);
const histogram = (values: number[]) => {
  const bins: Record<string, number> = {};
  for (let lo = 0; lo < 100; lo += 10) bins[`${lo}-${lo + 10}`] = values.filter((v) => v >= lo && (v < lo + 10 || (lo === 90 && v <= 100))).length;
  return bins;
};
const range = (v: number[]) => (v.length ? `${Math.min(...v)}-${Math.max(...v)}` : '-');

const genuine = of('genuine');
const impostor = of('impostor');
const same = of('sameImage');
const selfie = of('selfieAsDocument');
const times = rows.map((r) => r.ms);
const results = {
  machine: machine(),
  sample: { people: PEOPLE.length, genuine: genuine.length, impostor: impostor.length, sameImage: same.length, selfieAsDocument: selfie.length, wrongNumber: of('wrongNumber').length, wrongHolder: of('wrongHolder').length },
  genuine: {
    verified: count(genuine, (r) => r.result.status === 'verified'),
    review: count(genuine, (r) => r.result.status === 'review'),
    rejected: count(genuine, (r) => r.result.status === 'rejected'),
    similarity: range(sims(genuine)),
    distance: range(genuine.map((r) => r.distance ?? NaN).filter(Number.isFinite).map((d) => Math.round(d * 1000) / 1000)),
    histogram: histogram(sims(genuine)),
    refusedReasons: genuine.filter((r) => r.result.status === 'rejected').map((r) => `${r.label}: ${r.result.reason}`),
  },
  impostor: {
    refused: count(impostor, (r) => r.result.status === 'rejected'),
    review: count(impostor, (r) => r.result.status === 'review'),
    verified: count(impostor, (r) => r.result.status === 'verified'),
    similarity: range(sims(impostor)),
    distance: range(impostor.map((r) => r.distance ?? NaN).filter(Number.isFinite).map((d) => Math.round(d * 1000) / 1000)),
    histogram: histogram(sims(impostor)),
  },
  sameImage: {
    refused: count(same, (r) => r.result.status === 'rejected'),
    withSameImageReason: count(same, (r) => r.result.status === 'rejected' && r.result.reason.startsWith('La foto del volto e la foto del documento sono la stessa')),
    outcomes: same.map((r) => `${r.label}: ${r.result.status} (${r.result.reason})`),
  },
  selfieAsDocument: { refused: count(selfie, (r) => r.result.status === 'rejected'), outcomes: selfie.map((r) => `${r.label}: ${r.result.reason}`) },
  // the document's text (OCR, functions/domain/identity-document.ts)
  wrongNumber: { refused: count(of('wrongNumber'), (r) => r.result.status === 'rejected'), outcomes: of('wrongNumber').map((r) => `${r.label}: ${r.result.reason}`) },
  wrongHolder: { refused: count(of('wrongHolder'), (r) => r.result.status === 'rejected'), outcomes: of('wrongHolder').map((r) => `${r.label}: ${r.result.reason}`) },
  timeMs: { cold: r1(coldMs), checks: times.length, p50: r1(pct(times, 50)), p95: r1(pct(times, 95)), max: r1(Math.max(...times)), total: r1(performance.now() - started) },
};
console.log(JSON.stringify(results, null, 2));
console.log(`written ${await writeResults('identity', results)}`);
