/**
 * The seller's identity check through the API (local face-api engine, FACE_MATCHER=local):
 * presigned uploads under the property's identity/ prefix, the face comparison (same person,
 * different people, no face, two faces), owner only, Italian 400s that write nothing, the
 * admin dossier. Also measures the local engine's accuracy on the sample faces and the time
 * of a verification, cold and warm (figures in docs/identity.md).
 */
import { DOCUMENT_TEXT_MESSAGES } from '../../functions/domain/identity-document';
import { idCardBack } from '../support/id-cards';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import type { IdentityCheckResult, IdentityFileKind, IdentityRecord } from '../../functions/domain/identity';
import type { RequestDossier } from '../../functions/domain/requests';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { localFaceMatcher, SAME_PERSON_DISTANCE } from '../../functions/lib/faces/local-face-matcher';
import { api, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { newId, pngBytes, postToBucket } from '../support/submission';
import sharp from 'sharp';
import { documentFront, facePhoto, PEOPLE, twoFaces, type Person } from '../support/faces';
import { freshSeller, ownedProperty } from '../support/seller';

type Answer<T> = T & { message?: string; fields?: Record<string, string>; error?: string };
const TABLE = () => stack().env.TABLE_NAME!;

const base = (id: string) => `/seller/properties/${id}/identity`;

let seller: { token: string; userId: string };
let propertyId: string;

async function uploadImage(token: string, id: string, kind: IdentityFileKind, bytes: Buffer, contentType = 'image/jpeg'): Promise<string> {
  const form = await api<Answer<PresignedUpload>>('POST', `${base(id)}/uploads`, {
    token,
    body: { kind, fileName: `${kind}.${contentType === 'image/png' ? 'png' : 'jpg'}`, contentType, size: bytes.length },
  });
  expect(form.status, JSON.stringify(form.body)).toBe(200);
  const posted = await postToBucket(form.body, bytes, 'foto');
  expect(posted.status, posted.text).toBeLessThan(300);
  return form.body.key;
}

const timings: number[] = [];

/** Uploads a face photo and a document front, then asks for the check (timed). */
async function verify(face: Buffer, front: Buffer, extra: Record<string, unknown> = {}, id = propertyId) {
  const faceKey = await uploadImage(seller.token, id, 'face', face);
  const documentFrontKey = await uploadImage(seller.token, id, 'documentFront', front);
  const started = performance.now();
  const res = await api<Answer<IdentityCheckResult>>('POST', base(id), {
    token: seller.token,
    body: { documentNumber: 'ca 12345 ab', fullName: 'Mario Rossi', faceKey, documentFrontKey, ...extra },
  });
  timings.push(performance.now() - started);
  return { res, faceKey, documentFrontKey };
}

const identityItem = async (id: string) =>
  (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.identity(id), ConsistentRead: true }))).Item;
const propertyItem = async (id: string) =>
  (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;

beforeAll(async () => {
  useStackEnv();
  const token = await tokenForRole('seller');
  const me = await api<{ id: string }>('GET', '/me', { token });
  seller = { token, userId: me.body.id };
  propertyId = await ownedProperty(seller.userId);
});

afterAll(() => {
  if (timings.length === 0) return;
  const [cold, ...warm] = timings;
  const avg = warm.length ? warm.reduce((a, b) => a + b, 0) / warm.length : NaN;
  console.log(`[identity] verification through the API: cold ${cold!.toFixed(0)} ms, warm avg ${avg.toFixed(0)} ms over ${warm.length} (min ${Math.min(...warm).toFixed(0)}, max ${Math.max(...warm).toFixed(0)})`);
});

describe('identity check', () => {
  it('signs uploads only under the property\'s identity prefix, JPEG/PNG up to 10 MB', async () => {
    const ok = await api<Answer<PresignedUpload>>('POST', `${base(propertyId)}/uploads`, {
      token: seller.token,
      body: { kind: 'documentBack', fileName: 'retro.png', contentType: 'image/png', size: 1234 },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.key).toMatch(new RegExp(`^${propertyId}/identity/documentBack-\\d+-[0-9a-f]{24}\\.png$`));
    expect(ok.body.maxBytes).toBe(10 * 1024 * 1024);

    const big = await api<Answer<object>>('POST', `${base(propertyId)}/uploads`, {
      token: seller.token,
      body: { kind: 'face', fileName: 'volto.jpg', contentType: 'image/jpeg', size: 11 * 1024 * 1024 },
    });
    expect(big.status).toBe(400);
    expect(big.body.message).toBe('Il file supera la dimensione massima di 10 MB');
    const pdf = await api<Answer<object>>('POST', `${base(propertyId)}/uploads`, {
      token: seller.token,
      body: { kind: 'face', fileName: 'volto.pdf', contentType: 'application/pdf', size: 100 },
    });
    expect(pdf.status).toBe(400);
    expect(pdf.body.message).toBe('Sono ammesse solo immagini JPEG o PNG');
  });

  it('verifies the same person (face photo vs document front) and stores it', async () => {
    const { res, faceKey, documentFrontKey } = await verify(facePhoto('person-a'), await documentFront('person-a'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.valid).toBe(true);
    expect(res.body.status).toBe('verified');
    expect(res.body.confidence).toBeGreaterThanOrEqual(70);
    expect(res.body.reason).toBe('Identità verificata');

    const item = (await identityItem(propertyId))!;
    expect(item).toMatchObject({
      status: 'verified',
      documentType: 'carta_identita',
      documentNumber: 'CA12345AB',
      fullName: 'Mario Rossi',
      confidence: res.body.confidence,
      // sealed copies under the property's evidence/ prefix (test/integration/evidence.test.ts), not the uploads
      facePhotoKey: expect.stringMatching(new RegExp(`^${propertyId}/evidence/identity/face-`)),
      documentFrontKey: expect.stringMatching(new RegExp(`^${propertyId}/evidence/identity/documentFront-`)),
      facePhotoSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      documentBackKey: null,
    });
    expect([faceKey, documentFrontKey]).not.toContain(item.facePhotoKey);
    expect(typeof item.verifiedAt).toBe('string');
    expect((await propertyItem(propertyId)).identityStatus).toBe('verified');

    const own = await api<Answer<{ identity: IdentityRecord }>>('GET', base(propertyId), { token: seller.token });
    expect(own.status).toBe(200);
    expect(own.body.identity).toMatchObject({ status: 'verified', documentNumber: 'CA12345AB', facePhotoKey: item.facePhotoKey, confidence: res.body.confidence });
  });

  it('shows the verified identity in the admin dossier', async () => {
    const admin = await tokenForRole('admin');
    const res = await api<RequestDossier>('GET', `/admin/properties/${propertyId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.identity).toMatchObject({ status: 'verified', documentType: 'carta_identita', documentNumber: 'CA12345AB', fullName: 'Mario Rossi' });
    expect(res.body.identity!.files.facePhoto?.url).toBeTruthy();
    expect(res.body.identity!.files.documentFront?.url).toBeTruthy();
  });

  it("reads the document: the typed number and the request's surname must be on it, an MRZ valid and not expired; each refusal has its reason", async () => {
    const id = await ownedProperty(seller.userId);
    const reason = async (front: Buffer, extra: Record<string, unknown> = {}, back?: Buffer) => {
      const { res } = await verify(facePhoto('person-a'), front, back ? { ...extra, documentBackKey: await uploadImage(seller.token, id, 'documentBack', back) } : extra, id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    // a number the card does not carry
    expect(await reason(await documentFront('person-a'), { documentNumber: 'CA 99999 AB' })).toMatchObject({ valid: false, status: 'rejected', reason: DOCUMENT_TEXT_MESSAGES.numberNotFound });
    // another holder's card (the request is Giulia Bianchi's)
    expect(await reason(await documentFront('person-a', { surname: 'VERDI' }))).toMatchObject({ status: 'rejected', reason: DOCUMENT_TEXT_MESSAGES.surnameNotFound });
    // a card without any text
    expect(await reason(await documentFront('person-a', { text: false }))).toMatchObject({ status: 'rejected', reason: DOCUMENT_TEXT_MESSAGES.noText });
    // the back's MRZ says the card expired (its data read exactly by the local engine: test/unit/identity-document.test.ts)
    const mrz = { surname: 'Rossi', name: 'Mario', number: 'CA10234BD', birthDate: '1980-08-12', sex: 'M' } as const;
    const front = await documentFront('person-a', { number: 'CA10234BD' });
    expect(await reason(front, { documentNumber: 'CA10234BD' }, await idCardBack({ ...mrz, expiryDate: '2025-03-01' }))).toMatchObject({ status: 'rejected', reason: DOCUMENT_TEXT_MESSAGES.mrzExpired });
    expect(await identityItem(id)).toMatchObject({ status: 'rejected', reason: DOCUMENT_TEXT_MESSAGES.mrzExpired });
    // the same card with a valid back, and the O/0 I/1 tolerance of the typed number: verified
    expect(await reason(front, { documentNumber: 'CA1O234BD' }, await idCardBack({ ...mrz, expiryDate: '2031-08-12' }))).toMatchObject({ valid: true, status: 'verified' });
  });

  it('rejects different people, with the reason, and stores the rejection', async () => {
    const { res } = await verify(facePhoto('person-b'), await documentFront('person-c'), { documentType: 'passaporto' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: false, reason: 'Il volto non corrisponde alla foto del documento' });
    expect(res.body.confidence).toBeLessThan(60);
    expect(await identityItem(propertyId)).toMatchObject({ status: 'rejected', documentType: 'passaporto', verifiedAt: null, reason: 'Il volto non corrisponde alla foto del documento' });
    expect((await propertyItem(propertyId)).identityStatus).toBe('rejected');
  });

  it('says when an image has no face or more than one', async () => {
    const noFace = await verify(facePhoto('person-d'), pngBytes(64, 48, [200, 200, 200]));
    expect(noFace.res.body).toMatchObject({ valid: false, reason: 'Nessun volto riconosciuto nella foto del documento', confidence: 0 });
    const noSelfie = await verify(pngBytes(64, 48), await documentFront('person-d'));
    expect(noSelfie.res.body).toMatchObject({ valid: false, reason: 'Nessun volto riconosciuto nella foto del volto' });
    const two = await verify(await twoFaces('person-d', 'person-e'), await documentFront('person-d'));
    expect(two.res.body).toMatchObject({ valid: false, reason: 'Più di un volto nella foto del volto' });
  });

  it('refuses the same image as face photo and document, also re-encoded, and stores the refusal', async () => {
    const samePhoto = 'La foto del volto e la foto del documento sono la stessa immagine: scatta un selfie e fotografa il documento';
    // the tester's case: the same portrait twice (it answered valid: true, confidence 100)
    const same = await verify(facePhoto('person-a'), facePhoto('person-a'));
    expect(same.res.status).toBe(200);
    expect(same.res.body).toEqual({ valid: false, status: 'rejected', reason: samePhoto, confidence: 0 });
    expect(await identityItem(propertyId)).toMatchObject({ status: 'rejected', reason: samePhoto, verifiedAt: null });
    expect((await propertyItem(propertyId)).identityStatus).toBe('rejected');
    // the next try: the same card as both images, then re-encoded and scaled (other bytes, other hash)
    const card = await documentFront('person-b');
    expect((await verify(card, card)).res.body).toMatchObject({ valid: false, reason: samePhoto });
    const recoded = await sharp(card).resize(560).jpeg({ quality: 55 }).toBuffer();
    expect((await verify(card, recoded)).res.body).toMatchObject({ valid: false, reason: samePhoto });
    // the portrait re-encoded as the "document": refused (same frame), never verified
    const portrait = await sharp(facePhoto('person-c')).resize(300).jpeg({ quality: 60 }).toBuffer();
    expect((await verify(facePhoto('person-c'), portrait)).res.body).toMatchObject({ valid: false, reason: samePhoto });
  });

  it('refuses a selfie sent as the document, with its own reason', async () => {
    // another crop of the portrait: not the same frame, but a face filling the "document"
    const crop = await sharp(facePhoto('person-d')).extract({ left: 20, top: 10, width: 290, height: 300 }).resize(400).jpeg({ quality: 80 }).toBuffer();
    const { res } = await verify(facePhoto('person-d'), crop);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, status: 'rejected', reason: 'La foto del documento deve mostrare tutto il documento, non solo un volto: fotografa il fronte intero', confidence: 0 });
    expect(await identityItem(propertyId)).toMatchObject({ status: 'rejected', verifiedAt: null });
  });

  it('verifies a card with the ghost portrait of an electronic ID card, but not two comparable faces', async () => {
    const { res } = await verify(facePhoto('person-e'), await documentFront('person-e', { ghost: true }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, status: 'verified', reason: 'Identità verificata' });
    expect(res.body.confidence).toBeGreaterThanOrEqual(70);
    expect(await identityItem(propertyId)).toMatchObject({ status: 'verified' });
    // two people of the same size on the "document": still refused
    const two = await verify(facePhoto('person-d'), await twoFaces('person-d', 'person-e'));
    expect(two.res.body).toMatchObject({ valid: false, reason: 'Più di un volto nella foto del documento' });
  });

  it('answers 404 to another seller, for every identity route, and writes nothing', async () => {
    const before = await identityItem(propertyId);
    const other = await freshSeller();
    const upload = await api<Answer<object>>('POST', `${base(propertyId)}/uploads`, {
      token: other.token,
      body: { kind: 'face', fileName: 'volto.jpg', contentType: 'image/jpeg', size: 100 },
    });
    expect(upload.status).toBe(404);
    expect(upload.body.message).toBe('Immobile non trovato');
    const get = await api<Answer<object>>('GET', base(propertyId), { token: other.token });
    expect(get.status).toBe(404);
    const post = await api<Answer<object>>('POST', base(propertyId), {
      token: other.token,
      body: { documentNumber: 'X1', faceKey: before!.facePhotoKey, documentFrontKey: before!.documentFrontKey },
    });
    expect(post.status).toBe(404);
    expect(post.body.message).toBe('Immobile non trovato');
    // a missing property looks the same
    const missing = await api<Answer<object>>('GET', base(newId()), { token: other.token });
    expect(missing.status).toBe(404);
    expect(await identityItem(propertyId)).toEqual(before);
  });

  it('refuses bad input with Italian messages and writes nothing', async () => {
    const id = await ownedProperty(seller.userId);
    const faceKey = await uploadImage(seller.token, id, 'face', facePhoto('person-a'));
    const documentFrontKey = await uploadImage(seller.token, id, 'documentFront', await documentFront('person-a'));
    const post = (body: unknown) => api<Answer<object>>('POST', base(id), { token: seller.token, body });

    const noNumber = await post({ faceKey, documentFrontKey });
    expect(noNumber.status).toBe(400);
    expect(noNumber.body.message).toBe('Il numero del documento è obbligatorio');
    const blank = await post({ documentNumber: '   ', faceKey, documentFrontKey });
    expect(blank.body.message).toBe('Il numero del documento è obbligatorio');
    const noFace = await post({ documentNumber: 'CA1', documentFrontKey });
    expect(noFace.status).toBe(400);
    expect(noFace.body.message).toBe('Dati mancanti');
    const badType = await post({ documentType: 'tessera', documentNumber: 'CA1', faceKey, documentFrontKey });
    expect(badType.body.message).toBe('Tipo di documento non valido');
    // a key of another property, or of another kind, is refused
    const foreign = await post({ documentNumber: 'CA1', faceKey: faceKey.replace(id, propertyId), documentFrontKey });
    expect(foreign.status).toBe(400);
    expect(foreign.body.fields).toHaveProperty('faceKey');
    const swapped = await post({ documentNumber: 'CA1', faceKey: documentFrontKey, documentFrontKey });
    expect(swapped.status).toBe(400);
    // a key that was signed but never uploaded: 'Dati mancanti'
    const notUploaded = await post({ documentNumber: 'CA1', faceKey, documentFrontKey, documentBackKey: `${id}/identity/documentBack-1.jpg` });
    expect(notUploaded.status).toBe(400);
    expect(notUploaded.body.message).toBe('Dati mancanti');
    expect(notUploaded.body.fields).toHaveProperty('documentBackKey');

    expect(await identityItem(id)).toBeUndefined();
    expect((await propertyItem(id)).identityStatus).toBeUndefined();
    const none = await api<{ identity: null }>('GET', base(id), { token: seller.token });
    expect(none.body).toEqual({ identity: null });
  });
});

describe('local face matcher on the sample faces', () => {
  it('measures accuracy at the calibrated distance (same person vs impostors)', { timeout: 240_000 }, async () => {
    const matcher = localFaceMatcher();
    const docs = new Map<Person, Buffer>();
    for (const p of PEOPLE) docs.set(p, await documentFront(p));
    let genuineOk = 0;
    let genuine = 0;
    let impostorAccepted = 0;
    let impostors = 0;
    const genuineDist: number[] = [];
    const impostorDist: number[] = [];
    // each of the 12 images is analysed once (the matcher keeps an image's faces by its bytes); npm run bench:identity times the engine
    const started = performance.now();
    for (const a of PEOPLE) {
      for (const b of PEOPLE) {
        const r = await matcher.compareFaces(facePhoto(a), docs.get(b)!);
        expect([r.source.length, r.target.length]).toEqual([1, 1]);
        const same = r.distance! < SAME_PERSON_DISTANCE;
        if (a === b) {
          genuine++;
          genuineDist.push(r.distance!);
          if (same) genuineOk++;
        } else {
          impostors++;
          impostorDist.push(r.distance!);
          if (same) impostorAccepted++;
        }
      }
    }
    console.log(
      `[identity] local matcher, ${PEOPLE.length} people: same person ${genuineOk}/${genuine} matched ` +
        `(distance ${Math.min(...genuineDist).toFixed(3)}-${Math.max(...genuineDist).toFixed(3)}), ` +
        `impostors ${impostorAccepted}/${impostors} accepted (distance ${Math.min(...impostorDist).toFixed(3)}-${Math.max(...impostorDist).toFixed(3)}); ` +
        `${genuine + impostors} comparisons in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(genuineOk).toBe(genuine);
    expect(impostorAccepted).toBe(0);
  });
});
