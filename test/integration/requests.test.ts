/**
 * Dashboard Admin through the API (/admin/properties): the list (newest first, total,
 * search, cursor pagination), the dossier, assigning a user, room media (presigned upload of
 * a real PNG, add, delete) and deleting a request with every item and S3 object, idempotent.
 * Admin only: sellers and agents 403, anonymous 401; bad input 400 in Italian, nothing written.
 */
import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys } from '../../functions/model/keys';
import type { PresignedUpload } from '../../functions/domain/uploads';
import type { DossierMedia, RequestDossier, RequestList } from '../../functions/domain/requests';
import { api, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { apiFrom, dossier, fullBody, newClientIp, newId, pngBytes, postToBucket, upload } from '../support/submission';

const TABLE = () => stack().env.TABLE_NAME!;
const BUCKET = () => stack().env.MEDIA_BUCKET!;
let admin: string;

type Err = { message: string; fields?: Record<string, string> };

beforeAll(async () => {
  useStackEnv();
  admin = await tokenForRole('admin');
});

/** Submits a request through the wizard route: `rooms` each with PNG files uploaded first; `keys`: the media it links. */
async function submit(overrides: Record<string, unknown> = {}, rooms: { type: string; files: number }[] = []): Promise<{ id: string; roomIds: string[]; keys: string[] }> {
  const id = newId();
  // each request from its own client address: the wizard's per-IP limit is 10 an hour
  const ip = newClientIp();
  const roomIds: string[] = [];
  const mediaKeys: string[] = [];
  const roomBodies = [];
  for (const r of rooms) {
    const roomId = newId();
    roomIds.push(roomId);
    const media = [];
    for (let i = 0; i < r.files; i++) {
      const form = await upload(ip, id, roomId, `foto ${i + 1}.png`, 'image/png', pngBytes(4, 4));
      media.push({ key: form.key });
      mediaKeys.push(form.key);
    }
    roomBodies.push({ id: roomId, type: r.type, media });
  }
  const res = await apiFrom(ip, 'POST', '/properties', { ...fullBody(id, roomBodies), ...overrides });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  // what the request links: the submission's copies of the uploads (the uploads themselves are gone)
  const linked = (await dossier(id)).filter((i) => i.entity === 'media').map((i) => String(i.key));
  expect(linked).toHaveLength(mediaKeys.length);
  return { id, roomIds, keys: linked };
}

const list = (query = '', token = admin) => api<RequestList & Err>('GET', `/admin/properties${query}`, { token });
const get = (id: string, token = admin) => api<RequestDossier & Err>('GET', `/admin/properties/${id}`, { token });
const property = async (id: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item;
const objectExists = async (key: string) => {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: BUCKET(), Key: key }));
    return true;
  } catch {
    return false;
  }
};

describe('GET /admin/properties/{id}: the dossier', () => {
  it('returns the property, its rooms with media and presigned URLs, the valuation; empty parts null or []', async () => {
    const r = await submit({}, [
      { type: 'cucina', files: 2 },
      { type: 'bagno', files: 1 },
    ]);
    const res = await get(r.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body;
    expect(d.property).toMatchObject({
      id: r.id,
      firstName: 'Giulia',
      lastName: 'Bianchi',
      email: 'giulia.bianchi@example.it',
      city: 'Milano',
      province: 'MI',
      desiredAmount: 320000,
      userId: null,
      assignedUserId: null,
    });
    expect(d.property).not.toHaveProperty('pk');
    expect(d.property).not.toHaveProperty('searchText');
    // valued on submission only when this run holds Milano OMI data (other files import and clear it)
    expect(d.lifecycle).toBe(d.property.valuedAt ? 'valutata' : 'nuova');
    expect(d.rooms.map((x) => [x.id, x.type, x.media.length])).toEqual([
      [r.roomIds[0], 'cucina', 2],
      [r.roomIds[1], 'bagno', 1],
    ]);
    const m = d.rooms[0]!.media[0]!;
    expect(m).toMatchObject({ roomId: r.roomIds[0], kind: 'image', contentType: 'image/png', fileName: 'foto_1.png' });
    // the presigned URL really serves the file
    const img = await fetch(m.url);
    expect(img.status).toBe(200);
    expect(Buffer.from(await img.arrayBuffer()).subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(Array.isArray(d.valuations)).toBe(true);
    expect(d).toMatchObject({ identity: null, coOwners: [], delegations: [], option: null, slots: [], documents: [] });
  });

  it('maps items written by other features (slots, option, identity, delegation) when present', async () => {
    const r = await submit();
    const T = TABLE();
    await ddb().send(new PutCommand({ TableName: T, Item: { ...keys.slot(r.id, '2026-12-03', 's2'), entity: 'slot', id: 's2', date: '2026-12-03', start: '15:00', end: '16:00', isBooked: true } }));
    await ddb().send(new PutCommand({ TableName: T, Item: { ...keys.slot(r.id, '2026-12-01', 's1'), entity: 'slot', id: 's1', date: '2026-12-01', start: '09:00', end: '10:00', isBooked: false } }));
    await ddb().send(
      new PutCommand({
        TableName: T,
        Item: { ...keys.option(r.id), entity: 'option', id: 'opt-1', propertyId: r.id, status: 'sent', propertyValue: 300000, optionAmount: 3000, agentCommissionPercentage: 3, minAgentCommissionPercentage: 1, salePricePercentage: 5, hasKeys: true, paymentType: 'anticipato', minMonthlySlots: 4, createdAt: '2026-11-20T10:00:00.000Z' },
      }),
    );
    await ddb().send(new PutCommand({ TableName: T, Item: { ...keys.identity(r.id), entity: 'identity', status: 'verified', documentType: 'passaporto', fullName: 'Giulia Bianchi', documentFrontKey: `${r.id}/identity/front.png` } }));
    await ddb().send(new PutCommand({ TableName: T, Item: { ...keys.delegation(r.id, 'catasto'), entity: 'delegation', type: 'catasto', province: 'MI', municipality: 'Milano', documentKey: `${r.id}/delegations/catasto.pdf`, signedAt: '2026-11-21T10:00:00.000Z' } }));
    const d = (await get(r.id)).body;
    expect(d.slots.map((s) => [s.id, s.date, s.start, s.end, s.isBooked])).toEqual([
      ['s1', '2026-12-01', '09:00', '10:00', false],
      ['s2', '2026-12-03', '15:00', '16:00', true],
    ]);
    expect(d.option).toMatchObject({ id: 'opt-1', status: 'sent', optionAmount: 3000, hasKeys: true, signedAt: null, documentKey: null });
    expect(d.identity).toMatchObject({ status: 'verified', documentType: 'passaporto', files: { documentFront: { key: `${r.id}/identity/front.png` } } });
    expect(d.identity?.files.documentFront?.url).toMatch(/^http/);
    expect(d.delegations).toEqual([expect.objectContaining({ type: 'catasto', municipality: 'Milano', documentKey: `${r.id}/delegations/catasto.pdf` })]);
  });

  it('is 404 for an unknown, malformed or being-deleted property', async () => {
    for (const id of [newId(), 'non#valido', 'x'.repeat(80)]) {
      const res = await get(encodeURIComponent(id));
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Immobile non trovato');
    }
    const r = await submit();
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.property(r.id), UpdateExpression: 'SET deletingAt = :n', ExpressionAttributeValues: { ':n': new Date().toISOString() } }));
    expect((await get(r.id)).status).toBe(404);
  });
});

describe('GET /admin/properties: the list', () => {
  it('lists newest first with the row fields, a lifecycle and the total', async () => {
    const a = await submit({ firstName: 'Anna', desiredAmount: '150.000' });
    const b = await submit({ firstName: 'Bruno' });
    const res = await list('?limit=100');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ids = res.body.items.map((i) => i.id);
    expect(ids.indexOf(b.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    const dates = res.body.items.map((i) => i.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const row = res.body.items.find((i) => i.id === a.id)!;
    // valued on submission only when this run holds Milano OMI data (other files import and clear it)
    const valued = row.valuedAt !== null;
    expect(row).toEqual({
      id: a.id,
      createdAt: expect.any(String),
      firstName: 'Anna',
      lastName: 'Bianchi',
      email: 'giulia.bianchi@example.it',
      desiredAmount: 150000,
      city: 'Milano',
      province: 'MI',
      address: 'Via Giuseppe Verdi 12',
      sourceId: 'fonte-test',
      // no source has that id: nothing to copy, nothing to read
      sourceName: null,
      valuedAt: valued ? row.createdAt : null,
      estimateSentAt: null,
      optionCreatedAt: null,
      optionSignedAt: null,
      lifecycle: valued ? 'valutata' : 'nuova',
      optionState: null,
    });
    expect(res.body.total).toBeGreaterThanOrEqual(2);
  });

  it('pages with an opaque cursor: every request once, no cursor on the last page, total on each page', async () => {
    const tag = `pag${Date.now().toString(36)}`;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await submit({ lastName: `Pagina ${tag}` })).id);
    const q = `?q=${tag}&limit=2`;
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await list(cursor ? `${q}&cursor=${cursor}` : q);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.total).toBe(5);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((i) => i.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...made].reverse());
    // unfiltered pages too
    const first = await list('?limit=3');
    expect(first.body.items).toHaveLength(3);
    const second = await list(`?limit=3&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect(second.body.items[0]!.createdAt <= first.body.items[2]!.createdAt).toBe(true);
    expect(second.body.items.map((i) => i.id)).not.toContain(first.body.items[2]!.id);
  });

  it('searches name, e-mail and comune ignoring case and accents', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const r = await submit({ firstName: 'Niccolò', lastName: `Ferrè${tag}`, email: `${tag}.mail@example.it`, province: 'RM', city: 'Roma' });
    for (const q of [`FERRE${tag}`, `niccolo ferre${tag}`, `${tag}.MAIL@`, ` ${tag}.mail@example.it `]) {
      const res = await list(`?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(res.body.items.map((i) => i.id), q).toEqual([r.id]);
      expect(res.body.total).toBe(1);
    }
    const byComune = await list(`?q=${encodeURIComponent('ROMA')}&limit=100`);
    expect(byComune.body.items.map((i) => i.id)).toContain(r.id);
    expect(byComune.body.items.every((i) => i.city === 'Roma' || /roma/i.test(`${i.firstName} ${i.lastName} ${i.email} ${i.address}`))).toBe(true);
    const none = await list(`?q=${tag}nessuno`);
    expect(none.body).toEqual({ items: [], total: 0 });
  });

  it('refuses a one-letter search, a forged cursor and a bad limit in Italian', async () => {
    const short = await list('?q=a');
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Scrivi almeno 2 caratteri per cercare');
    const forged = Buffer.from(JSON.stringify({ pk: 'USER#x', sk: 'PROFILE', gsi2pk: 'PROPERTIES', gsi2sk: '2026-01-01T00:00:00.000Z' })).toString('base64url');
    for (const c of ['non-valido', forged, 'eyJ9']) {
      const res = await list(`?cursor=${c}`);
      expect(res.status, c).toBe(400);
      expect(res.body.message).toBe('Pagina non valida: ricarica la lista');
    }
    for (const l of ['0', '101', 'abc', '2.5']) {
      const res = await list(`?limit=${l}`);
      expect(res.status, l).toBe(400);
      expect(res.body.message).toBe('Il numero di richieste per pagina deve essere tra 1 e 100');
    }
  });
});

describe('PUT /admin/properties/{id}/assignee', () => {
  it('assigns an existing user: assignedUserId, userId and the seller index', async () => {
    const r = await submit();
    const seller = await tokenForRole('seller');
    const me = await api<{ id: string }>('GET', '/me', { token: seller });
    const res = await api<{ assignedUserId: string }>('PUT', `/admin/properties/${r.id}/assignee`, { token: admin, body: { userId: me.body.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const p = await property(r.id);
    expect(p).toMatchObject({ assignedUserId: me.body.id, userId: me.body.id, gsi1pk: `SELLER#${me.body.id}`, gsi1sk: p?.createdAt });
    expect((await get(r.id)).body.property).toMatchObject({ assignedUserId: me.body.id, userId: me.body.id });
    const mine = keys.propertiesOfSeller(me.body.id);
    const q = await ddb().send(new QueryCommand({ TableName: TABLE(), IndexName: mine.index, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': mine.pk } }));
    expect((q.Items ?? []).map((i) => i.id)).toContain(r.id);
  });

  it("refuses 'Nessun utente' (empty or missing) with the spec message, and an unknown user 404; nothing written", async () => {
    const r = await submit();
    const before = await property(r.id);
    for (const body of [{ userId: '' }, { userId: '   ' }, {}, undefined]) {
      const res = await api<Err>('PUT', `/admin/properties/${r.id}/assignee`, { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe('Seleziona un utente da assegnare');
    }
    const unknown = await api<Err>('PUT', `/admin/properties/${r.id}/assignee`, { token: admin, body: { userId: newId() } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Utente non trovato');
    const seller = await api<{ id: string }>('GET', '/me', { token: await tokenForRole('seller') });
    const noProperty = await api<Err>('PUT', `/admin/properties/${newId()}/assignee`, { token: admin, body: { userId: seller.body.id } });
    expect(noProperty.status).toBe(404);
    expect(noProperty.body.message).toBe('Immobile non trovato');
    expect(await property(r.id)).toEqual(before);
  });
});

describe('room media', () => {
  it('uploads a real PNG through the presigned POST, adds it (count +1), deletes it (count -1, object gone)', async () => {
    const r = await submit({}, [{ type: 'soggiorno', files: 1 }]);
    const roomId = r.roomIds[0]!;
    const png = pngBytes(8, 6, [34, 61, 115]);
    const form = await api<PresignedUpload & Err>('POST', `/admin/properties/${r.id}/uploads`, {
      token: admin,
      body: { roomId, fileName: 'Salotto luminoso.PNG', contentType: 'image/png', size: png.length },
    });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    // a form of its own: a random part in the key (docs/onboarding.md, evidence)
    expect(form.body.key).toMatch(new RegExp(`^${r.id}/${roomId}/\\d+_[0-9a-f]{24}-Salotto_luminoso\\.png$`));
    const posted = await postToBucket(form.body, png, 'Salotto luminoso.PNG');
    expect(posted.status, posted.text).toBeLessThan(300);

    const add = await api<DossierMedia & Err>('POST', `/admin/properties/${r.id}/media`, { token: admin, body: { roomId, key: form.body.key } });
    expect(add.status, JSON.stringify(add.body)).toBe(201);
    // the linked file is the sealed copy under evidence/, and the upload is gone
    expect(add.body).toMatchObject({ roomId, kind: 'image', contentType: 'image/png', size: png.length });
    expect(add.body.key).toContain('/evidence/');
    expect(await objectExists(form.body.key)).toBe(false);
    expect((await fetch(add.body.url)).status).toBe(200);
    expect((await property(r.id))?.mediaCount).toBe(2);
    const again = await api<DossierMedia>('POST', `/admin/properties/${r.id}/media`, { token: admin, body: { roomId, key: form.body.key } });
    expect(again.body.id).toBe(add.body.id);
    expect((await property(r.id))?.mediaCount).toBe(2);
    const room = (await get(r.id)).body.rooms.find((x) => x.id === roomId)!;
    expect(room.media.map((m) => m.id)).toContain(add.body.id);
    const stored = (await dossier(r.id)).find((i) => i.entity === 'media' && i.id === add.body.id);
    expect(stored).toMatchObject({ entity: 'media', propertyId: r.id, roomId, key: add.body.key, kind: 'image', size: png.length });

    const del = await api('DELETE', `/admin/properties/${r.id}/rooms/${roomId}/media/${add.body.id}`, { token: admin });
    expect(del.status).toBe(204);
    expect((await property(r.id))?.mediaCount).toBe(1);
    expect(await objectExists(add.body.key)).toBe(false);
    expect((await dossier(r.id)).some((i) => i.id === add.body.id)).toBe(false);
    const twice = await api<Err>('DELETE', `/admin/properties/${r.id}/rooms/${roomId}/media/${add.body.id}`, { token: admin });
    expect(twice.status).toBe(404);
    expect(twice.body.message).toBe('Foto non trovata');
  });

  it('refuses a non-media type, a too large file, an unknown room, a key of another room or property and a missing object; nothing written', async () => {
    const r = await submit({}, [
      { type: 'cucina', files: 0 },
      { type: 'bagno', files: 0 },
    ]);
    const [room1, room2] = r.roomIds as [string, string];
    const up = (body: Record<string, unknown>) => api<PresignedUpload & Err>('POST', `/admin/properties/${r.id}/uploads`, { token: admin, body: { roomId: room1, fileName: 'a.png', contentType: 'image/png', size: 10, ...body } });
    expect((await up({ contentType: 'application/pdf' })).body.message).toBe('Sono ammessi solo immagini e video');
    expect((await up({ size: 21 * 1024 * 1024 })).body.message).toBe('Il file supera i 20 MB');
    const unknownRoom = await up({ roomId: newId() });
    expect(unknownRoom.status).toBe(404);
    expect(unknownRoom.body.message).toBe('Stanza non trovata');
    expect((await api<Err>('POST', `/admin/properties/${newId()}/uploads`, { token: admin, body: { roomId: room1, fileName: 'a.png', contentType: 'image/png', size: 10 } })).status).toBe(404);

    // an object of room 2 offered for room 1, an object of another property, a key with no object
    const png = pngBytes();
    const other = await up({ roomId: room2 });
    await postToBucket(other.body, png, 'a.png');
    const otherProperty = await submit({}, [{ type: 'cucina', files: 1 }]);
    const add = (body: Record<string, unknown>) => api<Err>('POST', `/admin/properties/${r.id}/media`, { token: admin, body: { roomId: room1, ...body } });
    for (const key of [other.body.key, otherProperty.keys[0], `${r.id}/${room1}/../../x.png`]) {
      const res = await add({ key });
      expect(res.status, key).toBe(400);
      expect(res.body.message).toBe('Il file non appartiene a questa stanza: caricalo di nuovo');
    }
    const missing = await add({ key: `${r.id}/${room1}/1795341600000_assente.png` });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Il file non risulta caricato: caricalo di nuovo');
    // a non-media object put there behind the policy's back
    const pdfKey = `${r.id}/${room1}/1795341600001_documento.pdf`;
    await s3().send(new PutObjectCommand({ Bucket: BUCKET(), Key: pdfKey, Body: Buffer.from('%PDF-1.4'), ContentType: 'application/pdf' }));
    expect((await add({ key: pdfKey })).body.message).toBe('Sono ammessi solo immagini e video');
    expect((await dossier(r.id)).filter((i) => i.entity === 'media')).toHaveLength(0);
    expect((await property(r.id))?.mediaCount).toBe(0);
  });
});

describe('DELETE /admin/properties/{id}', () => {
  it("needs 'elimina' (any case) and deletes every item, the invitation and every S3 object (referenced or not); again is 404", async () => {
    const r = await submit({}, [
      { type: 'cucina', files: 2 },
      { type: 'garage', files: 1 },
    ]);
    const docKey = `${r.id}/documents/opzione.pdf`;
    await s3().send(new PutObjectCommand({ Bucket: BUCKET(), Key: docKey, Body: Buffer.from('%PDF-1.4'), ContentType: 'application/pdf' }));
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.document(r.id, 'd1'), entity: 'document', key: docKey, fileName: 'opzione.pdf', kind: 'option' } }));
    // an upload no item references (never confirmed): it must go too
    const strayKey = `${r.id}/identity/face-1767225600000.jpg`;
    await s3().send(new PutObjectCommand({ Bucket: BUCKET(), Key: strayKey, Body: pngBytes(2, 2), ContentType: 'image/jpeg' }));
    const token = (await property(r.id))?.invitationToken as string;
    expect(token).toBeTruthy();

    for (const confirm of ['', 'elimin', 'cancella']) {
      const res = await api<Err>('DELETE', `/admin/properties/${r.id}`, { token: admin, body: { confirm } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("Per eliminare la richiesta scrivi 'elimina'");
    }
    expect((await api<Err>('DELETE', `/admin/properties/${r.id}`, { token: admin })).status).toBe(400);
    expect(await property(r.id)).toMatchObject({ gsi2pk: 'PROPERTIES' });
    expect(await property(r.id)).not.toHaveProperty('deletingAt');

    const res = await api('DELETE', `/admin/properties/${r.id}`, { token: admin, body: { confirm: ' ELIMINA ' } });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(await dossier(r.id)).toEqual([]);
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.invitation(token), ConsistentRead: true }))).Item).toBeUndefined();
    for (const key of [...r.keys, docKey, strayKey]) expect(await objectExists(key), key).toBe(false);
    expect((await list('?limit=100')).body.items.some((i) => i.id === r.id)).toBe(false);

    const again = await api<Err>('DELETE', `/admin/properties/${r.id}`, { token: admin, body: { confirm: 'elimina' } });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Immobile non trovato');
  });

  it('a retry after a failure halfway (marked, some items gone) finishes the job', async () => {
    const r = await submit({}, [{ type: 'cucina', files: 2 }]);
    const token = (await property(r.id))?.invitationToken as string;
    // as if a first run marked the property and deleted one object and the rooms, then died
    await ddb().send(
      new UpdateCommand({ TableName: TABLE(), Key: keys.property(r.id), UpdateExpression: 'SET deletingAt = :n REMOVE gsi2pk, gsi2sk', ExpressionAttributeValues: { ':n': new Date().toISOString() } }),
    );
    await s3().send(new DeleteObjectCommand({ Bucket: BUCKET(), Key: r.keys[0]! }));
    await ddb().send(new DeleteCommand({ TableName: TABLE(), Key: keys.room(r.id, r.roomIds[0]!) }));
    expect((await list('?limit=100')).body.items.some((i) => i.id === r.id)).toBe(false);
    expect((await get(r.id)).status).toBe(404);
    // edits are refused while it is being deleted
    const seller = await api<{ id: string }>('GET', '/me', { token: await tokenForRole('seller') });
    expect((await api('PUT', `/admin/properties/${r.id}/assignee`, { token: admin, body: { userId: seller.body.id } })).status).toBe(404);
    const res = await api('DELETE', `/admin/properties/${r.id}`, { token: admin, body: { confirm: 'elimina' } });
    expect(res.status).toBe(204);
    expect(await dossier(r.id)).toEqual([]);
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.invitation(token), ConsistentRead: true }))).Item).toBeUndefined();
    for (const key of r.keys) expect(await objectExists(key)).toBe(false);
  });

  it('keeps the total without a search in step: +1 per submission, -1 per deletion, not again on a retried deletion', async () => {
    const total = async () => (await list('?limit=1')).body.total;
    const before = await total();
    const r = await submit();
    expect(await total()).toBe(before + 1);
    expect((await api('DELETE', `/admin/properties/${r.id}`, { token: admin, body: { confirm: 'elimina' } })).status).toBe(204);
    expect(await total()).toBe(before);
    // a second submission of the same draft is a retry: not counted twice
    const again = await submit();
    const retried = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(again.id) });
    expect(retried.status).toBe(201);
    expect(await total()).toBe(before + 1);
  });

  it('is 404 for a request that does not exist', async () => {
    const res = await api<Err>('DELETE', `/admin/properties/${newId()}`, { token: admin, body: { confirm: 'elimina' } });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Immobile non trovato');
  });
});

describe('other roles', () => {
  const calls = (id: string, roomId: string) =>
    [
      ['GET', '/admin/properties', undefined],
      ['GET', `/admin/properties/${id}`, undefined],
      ['DELETE', `/admin/properties/${id}`, { confirm: 'elimina' }],
      ['PUT', `/admin/properties/${id}/assignee`, { userId: 'x' }],
      ['POST', `/admin/properties/${id}/uploads`, { roomId, fileName: 'a.png', contentType: 'image/png', size: 10 }],
      ['POST', `/admin/properties/${id}/media`, { roomId, key: `${id}/${roomId}/1795341600000_a.png` }],
      ['DELETE', `/admin/properties/${id}/rooms/${roomId}/media/${newId()}`, undefined],
    ] as const;

  for (const role of ['seller', 'agent'] as const) {
    it(`refuses a ${role} (403) on every route and writes nothing`, async () => {
      const token = await tokenForRole(role);
      const r = await submit({}, [{ type: 'cucina', files: 1 }]);
      const before = await dossier(r.id);
      for (const [method, path, body] of calls(r.id, r.roomIds[0]!)) {
        const res = await api(method, path, { token, body });
        expect(res.status, `${method} ${path}`).toBe(403);
      }
      expect(await dossier(r.id)).toEqual(before);
      for (const key of r.keys) expect(await objectExists(key)).toBe(true);
    });
  }

  it('refuses an anonymous caller (401) on every route', async () => {
    const r = await submit();
    for (const [method, path, body] of calls(r.id, newId())) {
      expect((await api(method, path, { body })).status, `${method} ${path}`).toBe(401);
    }
    expect(await property(r.id)).toBeDefined();
  });
});
