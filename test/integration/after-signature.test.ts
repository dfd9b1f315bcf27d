/**
 * Nothing of the deal changes after the signature (issue 18, section 4): once the option is
 * signed ('opzione_firmata'), identity, co-owners and delegations are read-only for the seller
 * (409 in Italian, refused by the write's own guard: nothing changes, items or S3 objects);
 * only an admin reopens a step, with a reason recorded with who and when; the reopened step
 * accepts the seller's writes until the seller completes it again, then it is closed again.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys } from '../../functions/model/keys';
import { ONBOARDING_MESSAGES } from '../../functions/domain/onboarding/rules';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { api, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { documentFront, facePhoto } from '../support/faces';
import { dossier, postToBucket } from '../support/submission';
import { freshSeller, ownedProperty, type Seller } from '../support/seller';
import { markSigned } from '../support/option';

type Answer<T = Record<string, unknown>> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
const DELEGATOR = { fullName: 'Mario Rossi', fiscalCode: 'RSSMRA85T10A562S', documentType: 'carta_identita', documentNumber: 'CA12345AB' };
const LOCKED = "L'opzione è già firmata: questo passaggio non si può più modificare.";

const objects = async (prefix: string) =>
  ((await s3().send(new ListObjectsV2Command({ Bucket: stack().env.MEDIA_BUCKET!, Prefix: prefix }))).Contents ?? []).map((o) => `${o.Key}:${o.ETag}`).sort();
/** The dossier's items without the property's bookkeeping (updatedAt may not move either: compared whole). */
const snapshot = async (id: string) => ({ items: await dossier(id), objects: await objects(`${id}/`) });

async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 14 });
  return Buffer.from(await doc.save());
}

let owner: Seller;
let admin: string;

beforeAll(async () => {
  useStackEnv();
  owner = await freshSeller();
  admin = await tokenForRole('admin');
});

const generate = (id: string, types: string[]) =>
  api<Answer>('PUT', `/seller/properties/${id}/delegations`, { token: owner.token, body: { province: 'MI', municipality: 'Milano', types, delegator: DELEGATOR } });

async function signDelegation(id: string, type: string) {
  const signed = await pdf(`Delega ${type} firmata`);
  const form = await api<Answer<PresignedUpload>>('POST', `/seller/properties/${id}/delegations/${type}/uploads`, { token: owner.token, body: { fileName: 'delega.pdf', contentType: 'application/pdf', size: signed.length } });
  expect(form.status, JSON.stringify(form.body)).toBe(200);
  expect((await postToBucket(form.body, signed, 'delega.pdf')).status).toBeLessThan(300);
  return api<Answer>('POST', `/seller/properties/${id}/delegations/${type}/signed`, { token: owner.token, body: { key: form.body.key } });
}

/** A property of `owner` with identity verified, single owner, the catasto delegation signed and the option signed. */
async function signedProperty(): Promise<string> {
  const id = await ownedProperty(owner.userId);
  const at = new Date().toISOString();
  await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', documentNumber: 'CA12345AB', confidence: 92, reason: 'Identità verificata', verifiedAt: at, checkedAt: at } }));
  expect((await generate(id, ['catasto'])).status).toBe(200);
  expect((await signDelegation(id, 'catasto')).status).toBe(200);
  expect((await api('POST', `/seller/properties/${id}/co-owners/skip`, { token: owner.token, body: {} })).status).toBe(200);
  const created = await api<Answer>('POST', `/admin/properties/${id}/option`, {
    token: admin,
    body: { propertyValue: 250_000, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  // the signature's lifecycle fact, as confirmOptionSigned writes it
  await markSigned(id);
  return id;
}

const reopen = (id: string, step: string, body: unknown, token = admin) => api<Answer<{ reopening: { step: string; reason: string; by: string; at: string } }>>('POST', `/admin/properties/${id}/onboarding/${step}/reopen`, { token, body });

describe('after the signature the seller cannot change identity, co-owners or delegations', () => {
  it('PUT delegations, PUT co-owners, POST co-owners/skip, POST identity: 409 and nothing changes', async () => {
    const id = await signedProperty();
    // identity uploads made before the attempt (their forms are not refused)
    const face = facePhoto('person-b');
    const front = await documentFront('person-c');
    const ask = (kind: string, size: number) =>
      api<Answer<PresignedUpload>>('POST', `/seller/properties/${id}/identity/uploads`, { token: owner.token, body: { kind, fileName: 'foto.jpg', contentType: 'image/jpeg', size } });
    const faceForm = (await ask('face', face.length)).body;
    const frontForm = (await ask('documentFront', front.length)).body;
    expect((await postToBucket(faceForm, face, 'foto.jpg')).status).toBeLessThan(300);
    expect((await postToBucket(frontForm, front, 'foto.jpg')).status).toBeLessThan(300);
    const before = await snapshot(id);

    const attempts: [string, () => Promise<{ status: number; body: Answer }>][] = [
      ['PUT delegations', () => generate(id, ['urbanistica', 'anagrafe'])],
      ['PUT co-owners', () => api<Answer>('PUT', `/seller/properties/${id}/co-owners`, { token: owner.token, body: { sellerShare: 50, coOwners: [{ email: 'anna.bianchi@example.com', fullName: 'Anna Bianchi', share: 25 }, { email: 'luca.verdi@example.com', fullName: 'Luca Verdi', share: 25 }] } })],
      ['POST co-owners/skip', () => api<Answer>('POST', `/seller/properties/${id}/co-owners/skip`, { token: owner.token, body: {} })],
      ['POST identity', () => api<Answer>('POST', `/seller/properties/${id}/identity`, { token: owner.token, body: { documentNumber: 'ZZ9999999', fullName: 'Altra Persona', faceKey: faceForm.key, documentFrontKey: frontForm.key } })],
      ['POST delegation signed', () => signDelegation(id, 'catasto')],
    ];
    for (const [name, attempt] of attempts) {
      const res = await attempt();
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(409);
      expect(res.body.message, name).toBe(LOCKED);
    }
    const after = await snapshot(id);
    expect(after.items).toEqual(before.items);
    // the signed delegation form of the last attempt is the only new object: an upload nothing links
    expect(after.objects.filter((o) => !o.includes('/delegations/signed-catasto-'))).toEqual(before.objects.filter((o) => !o.includes('/delegations/signed-catasto-')));
    expect(after.objects.filter((o) => o.includes('/evidence/'))).toEqual(before.objects.filter((o) => o.includes('/evidence/')));
    expect(ONBOARDING_MESSAGES.stepLocked).toBe(LOCKED);
  });
});

describe('only an admin reopens a step, with a reason', () => {
  it('refuses the seller (403), a missing or blank reason (400), an unknown step (400), an unsigned option (409)', async () => {
    const id = await signedProperty();
    const before = await snapshot(id);
    expect((await reopen(id, 'delegations', { reason: 'Rifare' }, owner.token)).status).toBe(403);
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      const res = await reopen(id, 'delegations', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(/^(Indica il motivo della riapertura|Il motivo può avere al massimo 500 caratteri)$/);
    }
    const wrong = await reopen(id, 'option', { reason: 'Rifare' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(ONBOARDING_MESSAGES.reopenStep);
    expect(await snapshot(id)).toEqual(before);

    const unsigned = await ownedProperty(owner.userId);
    const early = await reopen(unsigned, 'delegations', { reason: 'Rifare' });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(ONBOARDING_MESSAGES.reopenNotSigned);
    expect((await reopen('00000000-0000-4000-8000-000000000000', 'delegations', { reason: 'Rifare' })).status).toBe(404);
  });

  it('reopened delegations accept the seller again until completed; the dossier shows who, when and why', async () => {
    const id = await signedProperty();
    const res = await reopen(id, 'delegations', { reason: 'La copia firmata è illeggibile' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.reopening).toMatchObject({ step: 'delegations', reason: 'La copia firmata è illeggibile', by: expect.any(String), at: expect.any(String) });

    // only that step: co-owners stay closed
    expect((await api<Answer>('PUT', `/seller/properties/${id}/co-owners`, { token: owner.token, body: { sellerShare: 50, coOwners: [{ email: 'anna.bianchi@example.com', fullName: 'Anna Bianchi', share: 50 }] } })).status).toBe(409);

    const regenerated = await generate(id, ['catasto', 'urbanistica']);
    expect(regenerated.status, JSON.stringify(regenerated.body)).toBe(200);
    let d = await api<{ reopenings: { step: string; reason: string; by: string; at: string; closedAt: string | null }[] }>('GET', `/admin/properties/${id}`, { token: admin });
    expect(d.body.reopenings).toEqual([{ step: 'delegations', reason: 'La copia firmata è illeggibile', by: res.body.reopening.by, at: res.body.reopening.at, closedAt: null }]);

    // still open while one is unsigned
    expect((await signDelegation(id, 'catasto')).status).toBe(200);
    expect((await generate(id, ['catasto', 'urbanistica'])).status).toBe(200);
    // the last signature completes the step: closed again
    expect((await signDelegation(id, 'urbanistica')).status).toBe(200);
    const again = await generate(id, ['catasto']);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(LOCKED);
    d = await api('GET', `/admin/properties/${id}`, { token: admin });
    expect(d.body.reopenings[0]!.closedAt).toEqual(expect.any(String));
  });
});
