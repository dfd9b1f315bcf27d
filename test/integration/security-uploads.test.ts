/**
 * Every upload of the product against the same refusals, route by route: the presigned form
 * (wizard photos and videos, admin room media, identity images, a co-owner's identity images,
 * signed delegation, signed option, OMI CSV) is refused for a wrong type, a size over the
 * limit and SVG; a form made for one file cannot carry another type, a bigger file or another
 * key (the POST policy; S3 answers 403/400 and stores nothing); the step that links an
 * uploaded object refuses a key outside the caller's own prefix, and never touches that
 * object (the byte check deletes a mismatching file: it must not reach someone else's); a
 * file whose bytes are not what its type claims is refused. Every refusal is a 400 in Italian
 * that writes nothing. The byte check at the other entry points (wizard submission, admin
 * media, identity, delegation, option) is in test/integration/upload-bytes.test.ts.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys, omiKeys } from '../../functions/model/keys';
import { IDENTITY_MAX_BYTES } from '../../functions/domain/identity';
import { SIGNED_DELEGATION_MAX_BYTES } from '../../functions/domain/onboarding/rules';
import { SIGNED_OPTION_MAX_BYTES } from '../../functions/domain/onboarding/kyc';
import { MEDIA_MAX_BYTES, OMI_MAX_BYTES, type PresignedUpload } from '../../functions/domain/uploads';
import { decodePolicy } from '../../infra/local/s3-post-policy';
import { api, type ApiResult, stack, useOwnStack } from '../support/helpers';
import { buildWorld, expectItalianError, pkOf, queryString, snapshot, submissionBody, type World } from '../support/security';
import { apiFrom, newClientIp, pngBytes, postToBucket } from '../support/submission';

type Answer = PresignedUpload & { message?: string; fields?: Record<string, string>; upload?: PresignedUpload };
type Form = { fileName: string; contentType: string; size: number };

const BUCKET = () => stack().env.MEDIA_BUCKET!;
const JPEG = readFileSync(new URL('../fixtures/faces/person-a.jpg', import.meta.url));
const PNG = pngBytes(8, 6);
const TEXT = Buffer.from('Questo non è una foto: è un file di testo rinominato .jpg\n');
let PDF: Buffer;

const exists = (key: string, bucket = BUCKET()) =>
  s3().send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
    () => true,
    () => false,
  );
/** The bucket a form posts to (its URL is the bucket's, path-style locally). */
const bucketOf = (form: PresignedUpload) => new URL(form.url).pathname.split('/').filter(Boolean).pop()!;

const NAMES = [
  'wizard photo or video (POST /uploads, linked by POST /properties)',
  'admin room media (POST /admin/properties/{id}/uploads, linked by .../media)',
  "the seller's identity images (POST .../identity/uploads, linked by .../identity)",
  "a co-owner's identity images (POST /seller/kyc/identity/uploads?token, linked by /seller/kyc/identity)",
  'signed delegation (POST .../delegations/catasto/uploads, linked by .../signed)',
  'signed purchase option (POST .../option/uploads, linked by .../option/signed)',
  'OMI CSV (POST /omi/uploads)',
] as const;
const family = (name: string) => families.find((f) => f.name === name)!;
/** An object put straight in the bucket (as another user's upload would be). */
const putObject = (key: string, body: Buffer, contentType: string) => s3().send(new PutObjectCommand({ Bucket: BUCKET(), Key: key, Body: body, ContentType: contentType }));

/** One upload of the product: its form route, the file it is for, its limit, and the step that links the object. */
interface Family {
  name: (typeof NAMES)[number];
  form: (f: Form) => Promise<ApiResult<Answer>>;
  valid: Form & { bytes: Buffer };
  maxBytes: number;
  wrongType: Pick<Form, 'fileName' | 'contentType'>;
  svg: Pick<Form, 'fileName' | 'contentType'>;
  /** the policy binds the Content-Type (the OMI drop does not: the import reads the CSV) */
  bindsType: boolean;
  touches: () => string[];
  /** links an uploaded object (undefined: the upload is the last step) */
  link?: (key: string) => Promise<ApiResult<Answer>>;
  /** an existing object outside the caller's prefix, whose bytes do not match its type */
  foreignKey?: () => Promise<string>;
}

let w: World;
let families: Family[];

let stopOwnStack: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // its own table: every item is counted
  stopOwnStack = await useOwnStack();
  w = await buildWorld();
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText('Opzione firmata', { x: 20, y: 100, size: 14 });
  PDF = Buffer.from(await doc.save());
  // P's option unsigned again, so the signed option can be uploaded
  await ddb().send(
    new UpdateCommand({ TableName: stack().env.TABLE_NAME!, Key: keys.option(w.P.id), UpdateExpression: 'REMOVE signedAt SET #s = :created', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':created': 'created' } }),
  );
  await ddb().send(
    new UpdateCommand({ TableName: stack().env.TABLE_NAME!, Key: keys.property(w.P.id), UpdateExpression: 'REMOVE optionSignedAt SET optionState = :created', ExpressionAttributeValues: { ':created': 'created' } }),
  );

  const ip = newClientIp();
  const draft = { id: randomUUID(), room: randomUUID() };
  const seller = (path: string, body: unknown) => api<Answer>('POST', path, { token: w.owner.token, body });
  const foreign = async (key: string, contentType: string) => {
    await putObject(key, TEXT, contentType);
    return key;
  };
  families = [
    {
      name: NAMES[0],
      form: (f) => apiFrom<Answer>(ip, 'POST', '/uploads', { propertyDraftId: draft.id, roomId: draft.room, ...f }),
      valid: { fileName: 'cucina.png', contentType: 'image/png', size: PNG.length, bytes: PNG },
      maxBytes: MEDIA_MAX_BYTES,
      wrongType: { fileName: 'setup.exe', contentType: 'application/x-msdownload' },
      svg: { fileName: 'logo.svg', contentType: 'image/svg+xml' },
      bindsType: true,
      touches: () => [pkOf.property(draft.id), keys.requestCount().pk],
      link: (key) => apiFrom<Answer>(ip, 'POST', '/properties', { ...submissionBody(), propertyDraftId: draft.id, rooms: [{ id: draft.room, type: 'cucina', media: [{ key }] }] }),
      // another visitor's draft
      foreignKey: () => foreign(`${randomUUID()}/${draft.room}/${Date.now()}_altrui.png`, 'image/png'),
    },
    {
      name: NAMES[1],
      form: (f) => api<Answer>('POST', `/admin/properties/${w.adm.id}/uploads`, { token: w.admin, body: { roomId: w.adm.roomId, ...f } }),
      valid: { fileName: 'bagno.png', contentType: 'image/png', size: PNG.length, bytes: PNG },
      maxBytes: MEDIA_MAX_BYTES,
      wrongType: { fileName: 'pagina.html', contentType: 'text/html' },
      svg: { fileName: 'logo.svg', contentType: 'image/svg+xml' },
      bindsType: true,
      touches: () => [pkOf.property(w.adm.id)],
      link: (key) => api<Answer>('POST', `/admin/properties/${w.adm.id}/media`, { token: w.admin, body: { roomId: w.adm.roomId, key } }),
      // a file of another property's room
      foreignKey: () => foreign(`${w.assigned}/${w.adm.roomId}/${Date.now()}_altrui.png`, 'image/png'),
    },
    {
      name: NAMES[2],
      form: (f) => seller(`/seller/properties/${w.P.id}/identity/uploads`, { kind: 'face', ...f }),
      valid: { fileName: 'volto.jpg', contentType: 'image/jpeg', size: JPEG.length, bytes: JPEG },
      maxBytes: IDENTITY_MAX_BYTES,
      wrongType: { fileName: 'documento.pdf', contentType: 'application/pdf' },
      svg: { fileName: 'volto.svg', contentType: 'image/svg+xml' },
      bindsType: true,
      touches: () => [pkOf.property(w.P.id)],
      link: (key) => seller(`/seller/properties/${w.P.id}/identity`, { documentNumber: 'CA12345AB', fullName: 'Mario Rossi', faceKey: key, documentFrontKey: key }),
      // the identity image of another seller's property
      foreignKey: () => foreign(`${w.Q.id}/identity/face-${Date.now()}.jpg`, 'image/jpeg'),
    },
    {
      name: NAMES[3],
      form: (f) => seller(`/seller/kyc/identity/uploads${queryString({ token: w.Q.coToken })}`, { kind: 'face', ...f }),
      valid: { fileName: 'volto.jpg', contentType: 'image/jpeg', size: JPEG.length, bytes: JPEG },
      maxBytes: IDENTITY_MAX_BYTES,
      wrongType: { fileName: 'volto.gif', contentType: 'image/gif' },
      svg: { fileName: 'volto.svg', contentType: 'image/svg+xml' },
      bindsType: true,
      touches: () => [pkOf.property(w.Q.id)],
      link: (key) => seller(`/seller/kyc/identity${queryString({ token: w.Q.coToken })}`, { documentNumber: 'CA12345AB', fullName: 'Mario Rossi', faceKey: key, documentFrontKey: key }),
      // the owner's own identity image of the same property: not the co-owner's prefix
      foreignKey: () => foreign(`${w.Q.id}/identity/face-${Date.now()}.jpg`, 'image/jpeg'),
    },
    {
      name: NAMES[4],
      form: (f) => seller(`/seller/properties/${w.P.id}/delegations/catasto/uploads`, f),
      valid: { fileName: 'delega firmata.pdf', contentType: 'application/pdf', size: PDF?.length ?? 1000, bytes: Buffer.alloc(0) },
      maxBytes: SIGNED_DELEGATION_MAX_BYTES,
      wrongType: { fileName: 'delega.exe', contentType: 'application/x-msdownload' },
      svg: { fileName: 'delega.svg', contentType: 'image/svg+xml' },
      bindsType: true,
      touches: () => [pkOf.property(w.P.id)],
      link: (key) => seller(`/seller/properties/${w.P.id}/delegations/catasto/signed`, { key }),
      foreignKey: () => foreign(`${w.Q.id}/delegations/signed-catasto-${Date.now()}.pdf`, 'application/pdf'),
    },
    {
      name: NAMES[5],
      form: (f) => seller(`/seller/properties/${w.P.id}/option/uploads`, f),
      valid: { fileName: 'opzione firmata.pdf', contentType: 'application/pdf', size: 1000, bytes: Buffer.alloc(0) },
      maxBytes: SIGNED_OPTION_MAX_BYTES,
      wrongType: { fileName: 'opzione.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
      svg: { fileName: 'opzione.svg', contentType: 'image/svg+xml' },
      bindsType: true,
      touches: () => [pkOf.property(w.P.id)],
      link: (key) => seller(`/seller/properties/${w.P.id}/option/signed`, { key }),
      foreignKey: () => foreign(`${w.Q.id}/option/signed-${Date.now()}.pdf`, 'application/pdf'),
    },
    {
      name: NAMES[6],
      form: (f) => api<Answer>('POST', '/omi/uploads', { token: w.admin, body: { fileName: f.fileName, semester: '2024-S1', size: f.size } }),
      valid: { fileName: 'valori.csv', contentType: 'text/csv', size: 1000, bytes: Buffer.from('a;b\n1;2\n') },
      maxBytes: OMI_MAX_BYTES,
      wrongType: { fileName: 'valori.exe', contentType: 'application/x-msdownload' },
      svg: { fileName: 'mappa.svg', contentType: 'image/svg+xml' },
      bindsType: false,
      touches: () => [`gsi3:${omiKeys.recentJobs().pk}`],
    },
  ];
  for (const f of families) if (f.valid.contentType === 'application/pdf') Object.assign(f.valid, { size: PDF.length, bytes: PDF });
}, 180_000);

afterAll(async () => {
  await stopOwnStack?.();
}, 60_000);

/** A refused form request: 400 in Italian, nothing written. */
async function refusedForm(f: Family, form: Form) {
  const before = await snapshot(f.touches(), true);
  const res = await f.form(form);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expectItalianError(res);
  expect(res.body.url, 'no form').toBeUndefined();
  expect(await snapshot(f.touches(), true)).toEqual(before);
}

/** The presigned form of a valid request (the OMI ticket carries it in `upload`). */
async function validForm(f: Family): Promise<PresignedUpload> {
  const res = await f.form(f.valid);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.upload ?? res.body;
}

describe('every upload refuses a wrong type, a size over the limit and SVG', () => {
  it.each(NAMES)('%s', async (name) => {
    const f = family(name);
    await refusedForm(f, { ...f.wrongType, size: 1000 });
    await refusedForm(f, { ...f.valid, size: f.maxBytes + 1 });
    await refusedForm(f, { ...f.svg, size: 1000 });
    // the limit the form states is the route's
    const form = await validForm(f);
    expect(form.maxBytes, f.name).toBe(f.maxBytes);
    expect(decodePolicy(form.fields.Policy!).conditions, f.name).toContainEqual(['content-length-range', 1, f.maxBytes]);
  });
});

describe("a form is for its file only: S3 refuses another type, a bigger file, another key", () => {
  it.each(NAMES)('%s', async (name) => {
    const f = family(name);
    const form = await validForm(f);
    const bucket = bucketOf(form);
    const elsewhere = form.key.replace(/^[^/]+/, randomUUID());
    if (f.bindsType) {
      const svg = await postToBucket(form, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'x.svg', { 'Content-Type': 'image/svg+xml' });
      expect(svg.status, `${f.name}: ${svg.text}`).toBe(403);
      expect(await exists(form.key, bucket)).toBe(false);
    }
    const moved = await postToBucket(form, f.valid.bytes, f.valid.fileName, { key: elsewhere });
    expect(moved.status, `${f.name}: ${moved.text}`).toBe(403);
    expect(await exists(elsewhere, bucket)).toBe(false);
    if (f.maxBytes === IDENTITY_MAX_BYTES) {
      // the smallest limit, sent for real: one byte over it
      const big = await postToBucket(form, Buffer.concat([f.valid.bytes, Buffer.alloc(f.maxBytes + 1 - f.valid.bytes.length)]), f.valid.fileName);
      expect(big.status, `${f.name}: ${big.text.slice(0, 200)}`).toBe(400);
      expect(big.text).toContain('EntityTooLarge');
      expect(await exists(form.key, bucket)).toBe(false);
    }
    // and the form works for what it was made for
    if (f.link || f.bindsType) expect((await postToBucket(form, f.valid.bytes, f.valid.fileName)).status).toBeLessThan(300);
  });
});

describe("linking refuses a key outside the caller's prefix, and leaves that file alone", () => {
  it.each(NAMES.slice(0, 6))('%s', async (name) => {
    const f = family(name);
    const key = await f.foreignKey!();
    const before = await snapshot(f.touches(), true);
    const res = await f.link!(key);
    expect(res.status, `${f.name}: ${JSON.stringify(res.body)}`).toBe(400);
    expectItalianError(res);
    expect(await snapshot(f.touches(), true)).toEqual(before);
    // its bytes are not its type: a byte check run before the prefix check would have deleted it
    expect(await exists(key), `${f.name}: someone else's file was deleted`).toBe(true);
  });
});

describe('a file whose bytes are not what its type claims is refused when linked', () => {
  it("a co-owner's face photo that is a text file: 400, deleted, the co-owner not verified", async () => {
    const f = family(NAMES[3]);
    const form = await f.form({ fileName: 'volto.jpg', contentType: 'image/jpeg', size: TEXT.length });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    expect((await postToBucket(form.body, TEXT, 'volto.jpg')).status).toBeLessThan(300);
    const front = await f.form({ fileName: 'fronte.jpg', contentType: 'image/jpeg', size: JPEG.length });
    const documentFrontKey = front.body.key.replace('-face-', '-documentFront-');
    await putObject(documentFrontKey, JPEG, 'image/jpeg');
    const before = await snapshot(f.touches(), false);
    const res = await api<Answer>('POST', `/seller/kyc/identity${queryString({ token: w.Q.coToken })}`, {
      token: w.owner.token,
      body: { documentNumber: 'CA12345AB', fullName: 'Mario Rossi', faceKey: form.body.key, documentFrontKey },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expectItalianError(res);
    expect(res.body.fields?.faceKey).toBeTruthy();
    expect(await exists(form.body.key)).toBe(false);
    expect(await snapshot(f.touches(), false)).toEqual(before);
  });
});
