/**
 * Uploads are checked by their bytes, not their name (functions/lib/upload-check.ts): at every
 * entry point that links an uploaded object to something (wizard submission, admin room
 * media, identity check, signed delegation, signed option), a file whose first bytes are not
 * what its Content-Type claims (a text declared image/jpeg, an SVG, a PNG declared as PDF) is
 * refused with a 400 naming it, deleted from the bucket, and nothing is linked; real files pass.
 */
import { readFileSync } from 'node:fs';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys } from '../../functions/model/keys';
import { FILE_TYPE_MESSAGES } from '../../functions/domain/file-type';
import { ONLY_MEDIA_MESSAGE } from '../../functions/domain/property';
import type { DossierMedia } from '../../functions/domain/requests';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { api, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { catastoDelegation, freshSeller, ownedProperty, type Seller } from '../support/seller';
import { apiFrom, dossier, fullBody, newClientIp, newId, postToBucket, upload } from '../support/submission';

type Answer<T = object> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
const BUCKET = () => stack().env.MEDIA_BUCKET!;

const JPEG = readFileSync(new URL('../fixtures/faces/person-a.jpg', import.meta.url));
const TEXT = Buffer.from('Questo non è una foto: è un file di testo rinominato .jpg\n');
const SVG = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="4" height="4"/></svg>\n');
let PDF: Buffer;

const exists = (key: string) =>
  s3().send(new HeadObjectCommand({ Bucket: BUCKET(), Key: key })).then(
    () => true,
    () => false,
  );

/** An object that reached the bucket with a Content-Type its bytes belie (a client can send anything). */
const putRaw = (key: string, body: Buffer, contentType: string) => s3().send(new PutObjectCommand({ Bucket: BUCKET(), Key: key, Body: body, ContentType: contentType }));

let admin: string;
let seller: Seller;

beforeAll(async () => {
  useStackEnv();
  admin = await tokenForRole('admin');
  seller = await freshSeller();
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText('Delega firmata', { x: 20, y: 100, size: 14 });
  PDF = Buffer.from(await doc.save());
});

describe('wizard submission', () => {
  it('refuses a text file uploaded as image/jpeg: 400 naming it, object deleted, no property and no media item', async () => {
    const ip = newClientIp();
    const draftId = newId();
    const roomId = newId();
    const good = await upload(ip, draftId, roomId, 'cucina.jpg', 'image/jpeg', JPEG);
    const bad = await upload(ip, draftId, roomId, 'foto finta.jpg', 'image/jpeg', TEXT);
    expect(await exists(bad.key)).toBe(true);
    const res = await apiFrom<Answer>(ip, 'POST', '/properties', fullBody(draftId, [{ id: roomId, type: 'cucina', media: [{ key: good.key }, { key: bad.key }] }]));
    expect(res.status).toBe(400);
    const message = "Il file «foto_finta.jpg» non è un'immagine valida: carica una foto JPG, PNG o WebP";
    expect(res.body).toMatchObject({ message, fields: { 'rooms.0.media.1.key': message } });
    expect(await exists(bad.key)).toBe(false);
    // the real photo stays a draft (a corrected submission links it); nothing was written
    expect(await exists(good.key)).toBe(true);
    expect(await dossier(draftId)).toEqual([]);

    const again = await apiFrom<Answer>(ip, 'POST', '/properties', fullBody(draftId, [{ id: roomId, type: 'cucina', media: [{ key: good.key }] }]));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const media = (await dossier(draftId)).filter((i) => i.entity === 'media');
    // linked as its copy (a key no upload form names), the upload gone
    expect(media).toEqual([expect.objectContaining({ fileName: 'cucina.jpg', contentType: 'image/jpeg', kind: 'image' })]);
    expect(media[0]!.key).not.toBe(good.key);
    expect(await exists(String(media[0]!.key))).toBe(true);
    expect(await exists(good.key)).toBe(false);
  });

  it('refuses SVG: no form for image/svg+xml, and SVG bytes sent as image/png are deleted', async () => {
    const ip = newClientIp();
    const draftId = newId();
    const roomId = newId();
    const form = await apiFrom<Answer>(ip, 'POST', '/uploads', { propertyDraftId: draftId, roomId, fileName: 'logo.svg', contentType: 'image/svg+xml', size: SVG.length });
    expect(form.status).toBe(400);
    expect(form.body.message).toBe(ONLY_MEDIA_MESSAGE);

    const disguised = await upload(ip, draftId, roomId, 'logo.png', 'image/png', SVG);
    const res = await apiFrom<Answer>(ip, 'POST', '/properties', fullBody(draftId, [{ id: roomId, type: 'altro', media: [{ key: disguised.key }] }]));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(FILE_TYPE_MESSAGES.svg('logo.png'));
    expect(await exists(disguised.key)).toBe(false);
    expect(await dossier(draftId)).toEqual([]);
  });

  it('refuses a photo uploaded as video/mp4', async () => {
    const ip = newClientIp();
    const draftId = newId();
    const roomId = newId();
    const fake = await upload(ip, draftId, roomId, 'giro.mp4', 'video/mp4', JPEG);
    const res = await apiFrom<Answer>(ip, 'POST', '/properties', fullBody(draftId, [{ id: roomId, type: 'soggiorno', media: [{ key: fake.key }] }]));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(FILE_TYPE_MESSAGES.video('giro.mp4'));
    expect(await exists(fake.key)).toBe(false);
  });
});

describe('admin room media', () => {
  it('refuses a text file declared image/jpeg (deleted, no media item, count unchanged) and adds a real JPEG', async () => {
    const id = newId();
    const roomId = newId();
    const created = await apiFrom(newClientIp(), 'POST', '/properties', fullBody(id, [{ id: roomId, type: 'bagno', media: [] }]));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const send = async (fileName: string, bytes: Buffer) => {
      const form = await api<Answer<PresignedUpload>>('POST', `/admin/properties/${id}/uploads`, {
        token: admin,
        body: { roomId, fileName, contentType: 'image/jpeg', size: bytes.length },
      });
      expect(form.status, JSON.stringify(form.body)).toBe(200);
      expect((await postToBucket(form.body, bytes, fileName)).status).toBeLessThan(300);
      return { key: form.body.key, add: await api<Answer<DossierMedia>>('POST', `/admin/properties/${id}/media`, { token: admin, body: { roomId, key: form.body.key } }) };
    };
    const bad = await send('bagno.jpg', TEXT);
    expect(bad.add.status).toBe(400);
    expect(bad.add.body).toMatchObject({ message: FILE_TYPE_MESSAGES.image('bagno.jpg'), fields: { key: FILE_TYPE_MESSAGES.image('bagno.jpg') } });
    expect(await exists(bad.key)).toBe(false);
    expect((await dossier(id)).filter((i) => i.entity === 'media')).toEqual([]);
    const property = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;
    expect(property.mediaCount ?? 0).toBe(0);

    const good = await send('bagno vero.jpg', JPEG);
    expect(good.add.status, JSON.stringify(good.add.body)).toBe(201);
    expect(good.add.body).toMatchObject({ kind: 'image', contentType: 'image/jpeg', size: JPEG.length });
    // the accepted file lives on as its sealed copy; the upload itself is gone
    expect(good.add.body.key).toContain('/evidence/');
    expect(await exists(good.add.body.key)).toBe(true);
    expect(await exists(good.key)).toBe(false);
  });
});

describe('identity check', () => {
  it('refuses a face "photo" that is text: 400 naming it, deleted, no identity stored', async () => {
    const propertyId = await ownedProperty(seller.userId);
    const base = `/seller/properties/${propertyId}/identity`;
    const send = async (kind: string, bytes: Buffer) => {
      const form = await api<Answer<PresignedUpload>>('POST', `${base}/uploads`, {
        token: seller.token,
        body: { kind, fileName: `${kind}.jpg`, contentType: 'image/jpeg', size: bytes.length },
      });
      expect(form.status, JSON.stringify(form.body)).toBe(200);
      expect((await postToBucket(form.body, bytes, `${kind}.jpg`)).status).toBeLessThan(300);
      return form.body.key;
    };
    const faceKey = await send('face', TEXT);
    const documentFrontKey = await send('documentFront', JPEG);
    const res = await api<Answer>('POST', base, { token: seller.token, body: { documentNumber: 'CA12345AB', fullName: 'Mario Rossi', faceKey, documentFrontKey } });
    expect(res.status).toBe(400);
    const message = "Il file «foto del volto» non è un'immagine valida: carica una foto JPG o PNG";
    expect(res.body).toMatchObject({ message, fields: { faceKey: message } });
    expect(await exists(faceKey)).toBe(false);
    expect(await exists(documentFrontKey)).toBe(true);
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.identity(propertyId), ConsistentRead: true }))).Item).toBeUndefined();
  });
});

describe('signed delegation', () => {
  it('refuses a JPEG uploaded as the signed PDF (deleted, not signed) and accepts a real PDF', async () => {
    const propertyId = await ownedProperty(seller.userId);
    const base = `/seller/properties/${propertyId}/delegations`;
    const generated = await api<Answer>('PUT', base, {
      token: seller.token,
      body: {
        province: 'MI',
        municipality: 'Milano',
        types: ['catasto'],
        delegator: { fullName: 'Mario Rossi', fiscalCode: 'RSSMRA85T10A562S', documentType: 'carta_identita', documentNumber: 'CA12345AB', birthDate: '1985-12-10', birthPlace: 'Roma', address: 'Via Giuseppe Verdi 12, Milano' },
      },
    });
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const send = async (bytes: Buffer) => {
      const form = await api<Answer<PresignedUpload>>('POST', `${base}/catasto/uploads`, {
        token: seller.token,
        body: { fileName: 'delega firmata.pdf', contentType: 'application/pdf', size: bytes.length },
      });
      expect(form.status, JSON.stringify(form.body)).toBe(200);
      expect((await postToBucket(form.body, bytes, 'delega firmata.pdf')).status).toBeLessThan(300);
      return { key: form.body.key, res: await api<Answer<{ signedAt: string | null }>>('POST', `${base}/catasto/signed`, { token: seller.token, body: { key: form.body.key } }) };
    };
    const bad = await send(JPEG);
    expect(bad.res.status).toBe(400);
    expect(bad.res.body.message).toBe('Il file «copia firmata» non è un PDF valido');
    expect(await exists(bad.key)).toBe(false);
    const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.delegation(propertyId, 'catasto'), ConsistentRead: true }))).Item!;
    expect(item.signedAt ?? null).toBeNull();
    expect(item.documentKey ?? null).toBeNull();

    const good = await send(PDF);
    expect(good.res.status, JSON.stringify(good.res.body)).toBe(200);
    expect(good.res.body.signedAt).toBeTruthy();
  });
});

describe('signed purchase option', () => {
  it('refuses a text file stored as application/pdf: deleted, the option stays unsigned', async () => {
    const propertyId = await ownedProperty(seller.userId);
    const at = new Date().toISOString();
    const put = (Item: Record<string, unknown>) => ddb().send(new PutCommand({ TableName: TABLE(), Item }));
    await put({ ...keys.identity(propertyId), entity: 'identity', propertyId, status: 'verified', documentType: 'carta_identita', confidence: 92.5, reason: 'Identità verificata', verifiedAt: at, checkedAt: at });
    await put(catastoDelegation(propertyId, at));
    const created = await api('POST', `/admin/properties/${propertyId}/option`, {
      token: admin,
      body: { propertyValue: 200_000, hasKeys: true, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const base = `/seller/properties/${propertyId}/option`;
    const form = await api<Answer<PresignedUpload>>('POST', `${base}/uploads`, { token: seller.token, body: { fileName: 'opzione.pdf', contentType: 'application/pdf', size: TEXT.length } });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    await putRaw(form.body.key, TEXT, 'application/pdf');
    const res = await api<Answer>('POST', `${base}/signed`, { token: seller.token, body: { key: form.body.key } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Il file «copia firmata» non è un PDF valido');
    expect(await exists(form.body.key)).toBe(false);
    const option = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(propertyId), ConsistentRead: true }))).Item!;
    expect(option.signedAt ?? null).toBeNull();
    expect((await dossier(propertyId)).filter((i) => i.kind === 'signed-option')).toEqual([]);

    const real = await api<Answer<PresignedUpload>>('POST', `${base}/uploads`, { token: seller.token, body: { fileName: 'opzione.pdf', contentType: 'application/pdf', size: PDF.length } });
    expect((await postToBucket(real.body, PDF, 'opzione.pdf')).status).toBeLessThan(300);
    const signed = await api<Answer>('POST', `${base}/signed`, { token: seller.token, body: { key: real.body.key } });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  });
});
