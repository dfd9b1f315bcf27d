/**
 * Evidence cannot be swapped after it is checked (issue 18, section 2): for each family
 * (the seller's identity images, a signed delegation, the signed option, an admin's room
 * media) the accepted upload is copied server side to the property's `evidence/` prefix, the
 * record links the copy and its SHA-256, and the upload is deleted. Posting the same form
 * again afterwards changes nothing the record links (bytes and hash of the linked object);
 * each form is for one fresh key, cannot write another key, and expires within 5 minutes.
 */
import { createHash } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys } from '../../functions/model/keys';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { decodePolicy } from '../../infra/local/s3-post-policy';
import { api, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { documentFront, facePhoto } from '../support/faces';
import { dossier, newId, pngBytes, postToBucket } from '../support/submission';
import { catastoDelegation, freshSeller, ownedProperty, type Seller } from '../support/seller';

type Answer<T = Record<string, unknown>> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
const BUCKET = () => stack().env.MEDIA_BUCKET!;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const TEXT = Buffer.from('45 byte di testo al posto del documento vero\n');

const getItem = async (Key: Record<string, string>) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key, ConsistentRead: true }))).Item;
const bytesOf = async (key: string) => Buffer.from(await (await s3().send(new GetObjectCommand({ Bucket: BUCKET(), Key: key }))).Body!.transformToByteArray());
const exists = (key: string) =>
  s3().send(new HeadObjectCommand({ Bucket: BUCKET(), Key: key })).then(
    () => true,
    () => false,
  );

async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 14 });
  return Buffer.from(await doc.save());
}

/** The form's own policy: one exact key, an expiration within 5 minutes. */
function expectOneKeyShortLived(form: PresignedUpload, propertyId: string) {
  const policy = decodePolicy(form.fields.Policy ?? form.fields.policy!);
  const left = new Date(policy.expiration).getTime() - Date.now();
  expect(left).toBeGreaterThan(0);
  expect(left).toBeLessThanOrEqual(5 * 60 * 1000 + 5_000);
  expect(policy.conditions).toContainEqual(['eq', '$key', form.key]);
  expect(policy.conditions.some((c) => Array.isArray(c) && c[0] === 'starts-with' && c[1] === '$key')).toBe(false);
  expect(form.key.startsWith(`${propertyId}/`)).toBe(true);
  expect(form.key).not.toContain('/evidence/');
}

/**
 * The attack of the tester: after the record links the evidence, the same form is posted
 * again with other bytes; the record's linked object keeps its bytes and hash. Also: the
 * form cannot write another key (an evidence key, say), and two forms never share a key.
 */
async function expectSealed(opts: {
  propertyId: string;
  form: PresignedUpload;
  again: PresignedUpload;
  original: Buffer;
  fileName: string;
  linked: () => Promise<{ key: string; sha256: unknown }>;
}) {
  const { form, original } = opts;
  const before = await opts.linked();
  expect(before.key).toMatch(new RegExp(`^${opts.propertyId}/evidence/`));
  expect(before.key).not.toBe(form.key);
  expect(before.sha256).toBe(sha256(original));
  expect(sha256(await bytesOf(before.key))).toBe(before.sha256);
  // the upload itself is gone
  expect(await exists(form.key)).toBe(false);

  // the same form posted again (still within its 5 minutes) with other bytes
  const reposted = await postToBucket(form, TEXT, opts.fileName);
  expect(reposted.status, reposted.text).toBeLessThan(300);
  const after = await opts.linked();
  expect(after).toEqual(before);
  expect((await bytesOf(after.key)).equals(original)).toBe(true);

  // the form cannot write another key (the evidence key least of all)
  const elsewhere = await postToBucket(form, TEXT, opts.fileName, { key: before.key });
  expect(elsewhere.status).toBeGreaterThanOrEqual(400);
  expect((await bytesOf(before.key)).equals(original)).toBe(true);

  // one form, one key
  expect(opts.again.key).not.toBe(form.key);
  expectOneKeyShortLived(form, opts.propertyId);
}

let owner: Seller;
let admin: string;

beforeAll(async () => {
  useStackEnv();
  owner = await freshSeller();
  admin = await tokenForRole('admin');
});

/** Identity verified, single owner, delegation signed: what creating an option requires. */
async function onboarded(id: string, seller: Seller) {
  const at = new Date().toISOString();
  await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', confidence: 92, reason: 'Identità verificata', verifiedAt: at, checkedAt: at } }));
  await ddb().send(new PutCommand({ TableName: TABLE(), Item: catastoDelegation(id, at) }));
  expect((await api('POST', `/seller/properties/${id}/co-owners/skip`, { token: seller.token, body: {} })).status).toBe(200);
}

const OPTION_TERMS = { propertyValue: 250_000, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 };

describe('the signed option', () => {
  it('links a sealed copy with its hash; posting the form again changes nothing', async () => {
    const id = await ownedProperty(owner.userId);
    await onboarded(id, owner);
    const created = await api<Answer>('POST', `/admin/properties/${id}/option`, { token: admin, body: OPTION_TERMS });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const signed = await pdf('Opzione firmata da Mario Rossi');
    const ask = () => api<Answer<PresignedUpload>>('POST', `/seller/properties/${id}/option/uploads`, { token: owner.token, body: { fileName: 'firmata.pdf', contentType: 'application/pdf', size: signed.length } });
    const form = (await ask()).body;
    const again = (await ask()).body;
    expect((await postToBucket(form, signed, 'firmata.pdf')).status).toBeLessThan(300);
    const res = await api<Answer>('POST', `/seller/properties/${id}/option/signed`, { token: owner.token, body: { key: form.key } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const linked = async () => {
      const option = (await getItem(keys.option(id)))!;
      const sig = option.signatureData as { signedDocumentKey: string; sha256: string };
      const doc = (await dossier(id)).find((i) => i.kind === 'signed-option')!;
      expect(doc.key).toBe(sig.signedDocumentKey);
      expect(doc.sha256).toBe(sig.sha256);
      return { key: sig.signedDocumentKey, sha256: sig.sha256 };
    };
    await expectSealed({ propertyId: id, form, again, original: signed, fileName: 'firmata.pdf', linked });
    // the admin's dossier serves the sealed copy
    const d = await api<{ documents: { kind: string; url: string }[] }>('GET', `/admin/properties/${id}`, { token: admin });
    const url = d.body.documents.find((x) => x.kind === 'signed-option')!.url;
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(signed)).toBe(true);
  });
});

describe('a signed delegation', () => {
  it('links a sealed copy with its hash; posting the form again changes nothing', async () => {
    const id = await ownedProperty(owner.userId);
    const gen = await api<Answer>('PUT', `/seller/properties/${id}/delegations`, {
      token: owner.token,
      body: { province: 'MI', municipality: 'Milano', types: ['catasto'], delegator: { fullName: 'Mario Rossi', fiscalCode: 'RSSMRA85T10A562S', documentType: 'carta_identita', documentNumber: 'CA12345AB' } },
    });
    expect(gen.status, JSON.stringify(gen.body)).toBe(200);
    const signed = await pdf('Delega catastale firmata');
    const ask = () => api<Answer<PresignedUpload>>('POST', `/seller/properties/${id}/delegations/catasto/uploads`, { token: owner.token, body: { fileName: 'delega.pdf', contentType: 'application/pdf', size: signed.length } });
    const form = (await ask()).body;
    const again = (await ask()).body;
    expect((await postToBucket(form, signed, 'delega.pdf')).status).toBeLessThan(300);
    const res = await api<Answer>('POST', `/seller/properties/${id}/delegations/catasto/signed`, { token: owner.token, body: { key: form.key } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const linked = async () => {
      const d = (await getItem(keys.delegation(id, 'catasto')))!;
      expect(d.signedAt).toEqual(expect.any(String));
      return { key: d.documentKey as string, sha256: d.documentSha256 };
    };
    await expectSealed({ propertyId: id, form, again, original: signed, fileName: 'delega.pdf', linked });
  });
});

describe("the seller's identity images", () => {
  it('the check runs on sealed copies whose hashes the record keeps; posting a form again changes nothing', async () => {
    const id = await ownedProperty(owner.userId);
    const face = facePhoto('person-a');
    const front = await documentFront('person-a');
    const ask = (kind: string, size: number) =>
      api<Answer<PresignedUpload>>('POST', `/seller/properties/${id}/identity/uploads`, { token: owner.token, body: { kind, fileName: 'foto.jpg', contentType: 'image/jpeg', size } });
    const faceForm = (await ask('face', face.length)).body;
    const faceAgain = (await ask('face', face.length)).body;
    const frontForm = (await ask('documentFront', front.length)).body;
    expect((await postToBucket(faceForm, face, 'foto.jpg')).status).toBeLessThan(300);
    expect((await postToBucket(frontForm, front, 'foto.jpg')).status).toBeLessThan(300);
    const res = await api<Answer<{ valid: boolean }>>('POST', `/seller/properties/${id}/identity`, {
      token: owner.token,
      body: { documentNumber: 'CA12345AB', fullName: 'Mario Rossi', faceKey: faceForm.key, documentFrontKey: frontForm.key },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.valid).toBe(true);
    const item = async () => (await getItem(keys.identity(id)))!;
    expect((await item()).status).toBe('verified');
    expect((await item()).documentFrontSha256).toBe(sha256(front));
    await expectSealed({
      propertyId: id,
      form: faceForm,
      again: faceAgain,
      original: face,
      fileName: 'foto.jpg',
      linked: async () => {
        const i = await item();
        return { key: i.facePhotoKey as string, sha256: i.facePhotoSha256 };
      },
    });
    expect((await item()).status).toBe('verified');
    // the admin's dossier serves the sealed face photo
    const d = await api<{ identity: { files: { facePhoto?: { url: string } } } }>('GET', `/admin/properties/${id}`, { token: admin });
    expect(Buffer.from(await (await fetch(d.body.identity.files.facePhoto!.url)).arrayBuffer()).equals(face)).toBe(true);
  });
});

describe("an admin's room media", () => {
  it('links a sealed copy with its hash; posting the form again changes nothing', async () => {
    const id = await ownedProperty(owner.userId);
    const roomId = newId();
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.room(id, roomId), entity: 'room', id: roomId, propertyId: id, type: 'cucina', position: 0 } }));
    const png = pngBytes(8, 6, [10, 200, 30]);
    const ask = () => api<Answer<PresignedUpload>>('POST', `/admin/properties/${id}/uploads`, { token: admin, body: { roomId, fileName: 'cucina.png', contentType: 'image/png', size: png.length } });
    const form = (await ask()).body;
    const again = (await ask()).body;
    expect((await postToBucket(form, png, 'cucina.png')).status).toBeLessThan(300);
    const res = await api<Answer<{ id: string; key: string; fileName: string }>>('POST', `/admin/properties/${id}/media`, { token: admin, body: { roomId, key: form.key } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.fileName).toBe('cucina.png');
    const linked = async () => {
      const m = (await getItem(keys.media(id, roomId, res.body.id)))!;
      return { key: m.key as string, sha256: m.sha256 };
    };
    await expectSealed({ propertyId: id, form, again, original: png, fileName: 'cucina.png', linked });
    // the same upload key again: the stored media, nothing new
    const retry = await api<Answer<{ id: string; key: string }>>('POST', `/admin/properties/${id}/media`, { token: admin, body: { roomId, key: form.key } });
    expect(retry.status).toBeLessThan(300);
    expect(retry.body).toMatchObject({ id: res.body.id, key: (await linked()).key });
  });
});
