import { beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { GetObjectCommand, GetObjectTaggingCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys } from '../../functions/model/keys';
import { TOKEN_PATTERN } from '../../functions/model/tokens';
import { GENERIC_ERROR_MESSAGE } from '../../functions/lib/errors';
import { MEDIA_MISSING_MESSAGE } from '../../functions/properties/property-submission';
import { MESSAGES, RATE_LIMITS } from '../../functions/domain/property';
import { sentMail, stack, useStackEnv } from '../support/helpers';
import { apiFrom, awayFromWindowEdge, dossier, fullBody, invitationsOf, mp4Bytes, newClientIp, newId, outboxOf, pngBytes, postToBucket, upload, type UploadForm } from '../support/submission';

beforeAll(() => useStackEnv());

const mailsFor = async (propertyId: string) => (await sentMail()).filter((m) => (m.body.text ?? '').includes(propertyId));
const count = (items: Record<string, unknown>[]) =>
  items.reduce<Record<string, number>>((acc, i) => ({ ...acc, [i.entity as string]: (acc[i.entity as string] ?? 0) + 1 }), {});

/** Nothing of this property anywhere: dossier, invitation, outbox, mail. */
async function expectNothingStored(propertyId: string) {
  expect(await dossier(propertyId)).toEqual([]);
  expect(await invitationsOf(propertyId)).toEqual([]);
  expect(await outboxOf(propertyId)).toBeUndefined();
  expect(await mailsFor(propertyId)).toEqual([]);
}

describe('POST /properties: a full submission with photos and videos', () => {
  const ip = newClientIp();
  const draftId = newId();
  const kitchen = newId();
  const bedroom = newId();
  const bedroom2 = newId();
  let keysUploaded: string[] = [];
  let kitchenForm: UploadForm;
  let body: ReturnType<typeof fullBody>;
  let first: { status: number; body: Record<string, unknown> };

  beforeAll(async () => {
    const png = await upload(ip, draftId, kitchen, 'Cucina luminosa.png', 'image/png', pngBytes());
    const mp4 = await upload(ip, draftId, bedroom, 'giro camera.mp4', 'video/mp4', mp4Bytes());
    const png2 = await upload(ip, draftId, bedroom2, 'camera2.png', 'image/png', pngBytes(2, 2));
    keysUploaded = [png.key, mp4.key, png2.key];
    kitchenForm = png;
    body = fullBody(draftId, [
      { id: kitchen, type: 'cucina', media: [{ key: png.key }] },
      { id: bedroom, type: 'camera_da_letto', media: [{ key: mp4.key }] },
      { id: bedroom2, type: 'camera_da_letto', media: [{ key: png2.key }] },
    ]);
    first = await apiFrom(ip, 'POST', '/properties', body);
  });

  it('answers 201 with the property id', () => {
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ propertyId: draftId, status: 'submitted' });
    expect(typeof first.body.createdAt).toBe('string');
  });

  it('creates exactly the property, its 3 rooms, 3 media and the first valuation under the property pk', async () => {
    const items = await dossier(draftId);
    expect(count(items)).toEqual({ property: 1, room: 3, media: 3, valuation: 1 });
    expect(items).toHaveLength(8);
    // the local OMI store may or may not hold Milano's data here: either a value or a clear "not available"
    const valuation = items.find((i) => i.entity === 'valuation')!;
    expect(valuation).toMatchObject({ origin: 'submission', createdAt: first.body.createdAt });
    expect(typeof valuation.available).toBe('boolean');
    const rooms = items.filter((i) => i.entity === 'room').sort((a, b) => Number(a.position) - Number(b.position));
    expect(rooms.map((r) => [r.id, r.name, r.type])).toEqual([
      [kitchen, 'Cucina 1', 'cucina'],
      [bedroom, 'Camera da letto 1', 'camera_da_letto'],
      [bedroom2, 'Camera da letto 2', 'camera_da_letto'],
    ]);
    const media = items.filter((i) => i.entity === 'media');
    // each upload linked as a copy in its room under a key no upload form names, with the upload's name
    expect(media.map((m) => [m.roomId, m.fileName]).sort()).toEqual(
      [
        [kitchen, 'Cucina_luminosa.png'],
        [bedroom, 'giro_camera.mp4'],
        [bedroom2, 'camera2.png'],
      ].sort(),
    );
    for (const m of media) {
      expect(m.key).toMatch(new RegExp(`^${draftId}/${String(m.roomId)}/\\d{13}_[0-9a-f]{24}-${String(m.fileName).replace('.', '\\.')}$`));
      expect(keysUploaded).not.toContain(m.key);
    }
    const video = media.find((m) => m.roomId === bedroom)!;
    expect(video).toMatchObject({ kind: 'video', contentType: 'video/mp4', size: mp4Bytes().length });
    expect(video.sk).toBe(`MEDIA#${bedroom}#${video.id}`);
  });

  it('links copies that are no drafts and deletes the uploads: posting a form again after the submission changes nothing linked', async () => {
    const media = (await dossier(draftId)).filter((i) => i.entity === 'media');
    const Bucket = stack().env.MEDIA_BUCKET!;
    for (const m of media) expect((await s3().send(new GetObjectTaggingCommand({ Bucket, Key: String(m.key) }))).TagSet ?? []).toEqual([]);
    for (const key of keysUploaded) await expect(s3().send(new HeadObjectCommand({ Bucket, Key: key }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    // the kitchen's form, still within its 10 minutes, posted again with other bytes
    const posted = await postToBucket(kitchenForm, pngBytes(9, 9, [1, 2, 3]), 'Cucina luminosa.png');
    expect(posted.status).toBeLessThan(300);
    const linked = media.find((m) => m.roomId === kitchen)!;
    const bytes = Buffer.from(await (await s3().send(new GetObjectCommand({ Bucket, Key: String(linked.key) }))).Body!.transformToByteArray());
    expect(bytes.equals(pngBytes())).toBe(true);
  });

  it('stores every field the wizard collects', async () => {
    const items = await dossier(draftId);
    const p = items.find((i) => i.entity === 'property')!;
    expect(p).toMatchObject({
      id: draftId,
      status: 'submitted',
      sourceId: 'fonte-test',
      firstName: 'Giulia',
      lastName: 'Bianchi',
      email: 'giulia.bianchi@example.it',
      phone: '+393477654321',
      privacyConsent: true,
      address: 'Via Giuseppe Verdi 12',
      province: 'MI',
      city: 'Milano',
      cityIstat: '015146',
      omiCategory: 'abitazioni_civili',
      propertyType: 'appartamento',
      desiredAmount: 320000,
      surfaceArea: 92,
      numRooms: 4,
      numBathrooms: 2,
      floor: '3',
      hasTerrace: true,
      numTerraces: 1,
      terraceSurfaceArea: 14.5,
      condominiumFees: 180,
      hasExtraordinaryExpenses: 'si',
      extraordinaryExpensesDetails: 'Rifacimento facciata',
      extraordinaryExpensesAmount: 8500,
      features: ['ascensore', 'cantina', 'doppi_vetri'],
      condition: 'buono',
      buildYear: 1968,
      hasBox: true,
      numBox: 1,
      hasGarage: false,
      numGarage: null,
      hasAbuses: 'no',
      abusesDetails: null,
      hasHypothecs: 'si',
      numHypothecs: 1,
      hasApe: 'si',
      apeClass: 'D',
      hasWaterInfiltrations: true,
      waterInfiltrationsDetails: 'Macchia in bagno',
      notes: 'Disponibile per visite il sabato',
      roomsCount: 3,
      mediaCount: 3,
      createdAt: first.body.createdAt,
      gsi2pk: 'PROPERTIES',
    });
    expect(p.userId).toBeUndefined();
    expect(p.website).toBeUndefined();
  });

  it('writes an unguessable invitation token that points at the property', async () => {
    const p = (await dossier(draftId)).find((i) => i.entity === 'property')!;
    const token = p.invitationToken as string;
    expect(token).toMatch(TOKEN_PATTERN);
    const invite = await ddb().send(new GetCommand({ TableName: stack().env.TABLE_NAME, Key: keys.invitation(token) }));
    expect(invite.Item).toMatchObject({ propertyId: draftId });
    expect(invite.Item!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 29 * 86400);
    expect(await invitationsOf(draftId)).toHaveLength(1);
  });

  it('keeps the linked objects in the private bucket under the spec paths', async () => {
    for (const key of keysUploaded) expect(key).toMatch(new RegExp(`^${draftId}/[0-9a-f-]{36}/\\d{13}_[A-Za-z0-9._-]+$`));
    expect(keysUploaded[0]).toMatch(/_Cucina_luminosa\.png$/);
    const linked = (await dossier(draftId)).filter((i) => i.entity === 'media');
    expect(linked).toHaveLength(3);
    for (const m of linked) {
      const head = await s3().send(new HeadObjectCommand({ Bucket: stack().env.MEDIA_BUCKET, Key: String(m.key) }));
      expect(Number(head.ContentLength)).toBe(m.size);
      expect(head.ContentType).toBe(m.contentType);
    }
  });

  it('sends the lead e-mail to the back office (HTML and text) and marks the outbox item sent', async () => {
    const mails = await mailsFor(draftId);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.destination.to).toEqual(['backoffice@opzionecasa.it']);
    expect(mail.subject).toContain('Via Giuseppe Verdi 12');
    for (const text of ['Nome: Giulia', 'Cognome: Bianchi', 'Importo desiderato: 320.000 €', 'Anno di costruzione: 1968', 'Caratteristiche: Ascensore, Cantina, Doppi vetri', 'Camera da letto 2: 1 file']) {
      expect(mail.body.text).toContain(text);
    }
    expect(mail.body.html).toContain('<html lang="it">');
    expect(mail.body.html).toContain('320.000 €');
    expect(await outboxOf(draftId)).toMatchObject({ status: 'sent', attempts: 1 });
    expect((await outboxOf(draftId))!.gsi3pk).toBeUndefined();
  });

  it('answers a retry with the same result and writes nothing more', async () => {
    const again = await apiFrom(ip, 'POST', '/properties', body);
    expect(again).toEqual(first);
    expect((await dossier(draftId)).length).toBe((await dossier(draftId)).length);
    expect(count(await dossier(draftId))).toMatchObject({ property: 1, room: 3, media: 3 });
    expect(await invitationsOf(draftId)).toHaveLength(1);
    expect(await mailsFor(draftId)).toHaveLength(1);
  });

  it('refuses new uploads for an already submitted draft', async () => {
    const res = await apiFrom(ip, 'POST', '/uploads', { propertyDraftId: draftId, roomId: kitchen, fileName: 'x.png', contentType: 'image/png', size: 10 });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Questa richiesta è già stata inviata: non si possono aggiungere file');
  });
});

describe('POST /properties: failures store nothing', () => {
  it('an upload key that does not exist: 400, nothing stored', async () => {
    const ip = newClientIp();
    const draftId = newId();
    const room = newId();
    const real = await upload(ip, draftId, room, 'ok.png', 'image/png', pngBytes());
    const missing = `${draftId}/${room}/1767225600000_mai_caricato.png`;
    const res = await apiFrom(ip, 'POST', '/properties', fullBody(draftId, [{ id: room, type: 'soggiorno', media: [{ key: real.key }, { key: missing }] }]));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'VALIDATION', message: MEDIA_MISSING_MESSAGE, fields: { 'rooms.0.media.1.key': MEDIA_MISSING_MESSAGE } });
    await expectNothingStored(draftId);
  });

  it('a transaction cancelled by a condition on its 4th item: 500 with the spec message, nothing stored; then a retry without re-uploading succeeds', async () => {
    const ip = newClientIp();
    const draftId = newId();
    const room = newId();
    const photo = await upload(ip, draftId, room, 'salone.png', 'image/png', pngBytes());
    // An item already at the room's key makes the room Put (after property, invitation, outbox) fail its condition.
    const table = stack().env.TABLE_NAME;
    await ddb().send(new PutCommand({ TableName: table, Item: { ...keys.room(draftId, room), entity: 'blocker' } }));
    const body = fullBody(draftId, [{ id: room, type: 'soggiorno', media: [{ key: photo.key }] }]);
    const res = await apiFrom(ip, 'POST', '/properties', body);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'INTERNAL', message: GENERIC_ERROR_MESSAGE });
    expect(GENERIC_ERROR_MESSAGE).toBe('Si è verificato un errore. Riprova più tardi.');
    expect((await dossier(draftId)).map((i) => i.entity)).toEqual(['blocker']);
    expect(await invitationsOf(draftId)).toEqual([]);
    expect(await outboxOf(draftId)).toBeUndefined();
    expect(await mailsFor(draftId)).toEqual([]);

    await ddb().send(new DeleteCommand({ TableName: table, Key: keys.room(draftId, room) }));
    const retry = await apiFrom(ip, 'POST', '/properties', body);
    expect(retry.status).toBe(201);
    expect(count(await dossier(draftId))).toMatchObject({ property: 1, room: 1, media: 1 });
  });
});

describe('POST /properties: bad bodies get 400 with Italian messages and write nothing', () => {
  const ip = newClientIp();
  const cases: [string, (b: Record<string, unknown>) => Record<string, unknown>, string, string][] = [
    ['empty address', (b) => ({ ...b, address: '   ' }), 'address', "Inserisci l'indirizzo dell'immobile per continuare"],
    ['no privacy consent', (b) => ({ ...b, privacyConsent: false }), 'privacyConsent', MESSAGES.privacy],
    ['comune of another province', (b) => ({ ...b, province: 'RM', city: 'Milano' }), 'city', MESSAGES.comune],
    ['box without a count', (b) => ({ ...b, hasBox: true, numBox: 0 }), 'numBox', MESSAGES.numBox],
    ['build year too old', (b) => ({ ...b, buildYear: 1850 }), 'buildYear', MESSAGES.buildYear(new Date().getFullYear() - 124, new Date().getFullYear())],
    ['amount with decimals', (b) => ({ ...b, desiredAmount: 1000.5 }), 'desiredAmount', MESSAGES.amountWhole],
    ['missing e-mail', (b) => ({ ...b, email: '' }), 'email', MESSAGES.email],
    ['unknown energy class', (b) => ({ ...b, apeClass: 'Z' }), 'apeClass', MESSAGES.apeClass],
  ];
  for (const [name, change, field, message] of cases) {
    it(name, async () => {
      const draftId = newId();
      const res = await apiFrom(ip, 'POST', '/properties', change(fullBody(draftId)));
      expect(res.status).toBe(400);
      expect((res.body.fields as Record<string, string>)[field]).toBe(message);
      expect(res.body.message).toBe(message);
      await expectNothingStored(draftId);
    });
  }

  it('a body that is not JSON', async () => {
    const res = await apiFrom(ip, 'POST', '/properties', '{nope');
    expect(res).toMatchObject({ status: 400, body: { message: 'Il corpo della richiesta non è un JSON valido' } });
  });
});

describe('POST /properties: the wizard option to skip the contact dialog', () => {
  it('stores the property with empty contact data and consent, and still tells the back office', async () => {
    const ip = newClientIp();
    const draftId = newId();
    const res = await apiFrom(ip, 'POST', '/properties', {
      ...fullBody(draftId),
      firstName: '',
      lastName: '',
      email: '',
      phone: '',
      privacyConsent: true,
    });
    expect(res.status).toBe(201);
    const item = await ddb().send(new GetCommand({ TableName: stack().env.TABLE_NAME, Key: keys.property(draftId) }));
    expect(item.Item).toMatchObject({ firstName: '', lastName: '', email: '', phone: '', privacyConsent: true, address: 'Via Giuseppe Verdi 12' });
    await expect
      .poll(async () => (await sentMail()).some((m) => m.subject.includes('Via Giuseppe Verdi 12') && m.subject.includes('senza dati di contatto')))
      .toBe(true);
  });
});

describe('POST /properties: abuse protection', () => {
  it('a filled honeypot is answered like a success and nothing is stored or sent', async () => {
    const ip = newClientIp();
    const draftId = newId();
    const res = await apiFrom(ip, 'POST', '/properties', { ...fullBody(draftId), website: 'http://spam.example' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ propertyId: draftId, status: 'submitted' });
    await expectNothingStored(draftId);
  });

  it(`answers 429 with an Italian message after ${RATE_LIMITS.submission.limit} submissions per hour from one IP`, async () => {
    await awayFromWindowEdge(RATE_LIMITS.submission.windowSeconds);
    const ip = newClientIp();
    const other = newClientIp();
    for (let i = 0; i < RATE_LIMITS.submission.limit; i++) {
      const res = await apiFrom(ip, 'POST', '/properties', { ...fullBody(newId()), website: 'bot' });
      expect(res.status).toBe(201);
    }
    const draftId = newId();
    const limited = await apiFrom(ip, 'POST', '/properties', fullBody(draftId));
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('TOO_MANY_REQUESTS');
    expect(limited.body.message).toMatch(/^Hai fatto troppe richieste in poco tempo\. Riprova tra \d+ minut[oi]\.$/);
    await expectNothingStored(draftId);
    // another client is not affected
    const fine = await apiFrom(other, 'POST', '/properties', { ...fullBody(newId()), website: 'bot' });
    expect(fine.status).toBe(201);
  });
});
