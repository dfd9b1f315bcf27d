/**
 * Nothing of the deal changes after the signature (issue 18, section 4), nor once the option is
 * written from it: once the option is created ('opzione_creata': its document names the owners
 * and shares) or signed, identity, co-owners and delegations are read-only for the seller
 * (409 in Italian, refused by the write's own guard: nothing changes, items or S3 objects);
 * only an admin reopens a step, with a reason recorded with who and when; the reopened step
 * accepts the seller's writes until the seller completes it again, then it is closed again.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys } from '../../functions/model/keys';
import { ONBOARDING_MESSAGES } from '../../functions/domain/onboarding/rules';
import type { SavedCoOwners } from '../../functions/domain/onboarding/schemas';
import { REVIEW_MESSAGES } from '../../functions/domain/review/rules';
import { newToken } from '../../functions/model/tokens';
import { createOption } from '../../functions/review/option';
import { sellerKycState } from '../../functions/onboarding/state';
import { loadDossier } from '../../functions/model/dossier';
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

const OPTION_BODY = { propertyValue: 250_000, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 };

/** A property of `owner` with identity verified, single owner and the catasto delegation signed: the option may be created. */
async function readyProperty(): Promise<string> {
  const id = await ownedProperty(owner.userId);
  const at = new Date().toISOString();
  await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', documentNumber: 'CA12345AB', confidence: 92, reason: 'Identità verificata', verifiedAt: at, checkedAt: at } }));
  expect((await generate(id, ['catasto'])).status).toBe(200);
  expect((await signDelegation(id, 'catasto')).status).toBe(200);
  expect((await api('POST', `/seller/properties/${id}/co-owners/skip`, { token: owner.token, body: {} })).status).toBe(200);
  return id;
}

/** readyProperty with the option created by the admin (not signed). */
async function createdProperty(): Promise<string> {
  const id = await readyProperty();
  const created = await api<Answer>('POST', `/admin/properties/${id}/option`, { token: admin, body: OPTION_BODY });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return id;
}

/** createdProperty with the option signed. */
async function signedProperty(): Promise<string> {
  const id = await createdProperty();
  // the signature's lifecycle fact, as confirmOptionSigned writes it
  await markSigned(id);
  return id;
}

const reopen = (id: string, step: string, body: unknown, token = admin) => api<Answer<{ reopening: { step: string; reason: string; by: string; at: string } }>>('POST', `/admin/properties/${id}/onboarding/${step}/reopen`, { token, body });

/** Every write of the seller's steps on `id`: 409 with `message`, and nothing changes. */
async function sellerStepsRefused(id: string, message: string): Promise<void> {
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
    expect(res.body.message, name).toBe(message);
  }
  const after = await snapshot(id);
  expect(after.items).toEqual(before.items);
  // the signed delegation form of the last attempt is the only new object: an upload nothing links
  expect(after.objects.filter((o) => !o.includes('/delegations/signed-catasto-'))).toEqual(before.objects.filter((o) => !o.includes('/delegations/signed-catasto-')));
  expect(after.objects.filter((o) => o.includes('/evidence/'))).toEqual(before.objects.filter((o) => o.includes('/evidence/')));
}

describe('after the signature the seller cannot change identity, co-owners or delegations', () => {
  it('PUT delegations, PUT co-owners, POST co-owners/skip, POST identity: 409 and nothing changes', async () => {
    await sellerStepsRefused(await signedProperty(), LOCKED);
    expect(ONBOARDING_MESSAGES.stepLocked).toBe(LOCKED);
  });
});

describe('once the option is created the steps it was written from are closed', () => {
  it('the same writes before the signature: 409, the option names what the seller can no longer change', async () => {
    const ready = await readyProperty();
    const editable = async (id: string) => sellerKycState((await loadDossier(id))!, null).steps.filter((s) => s.id !== 'option').map((s) => [s.id, s.editable]);
    expect(await editable(ready)).toEqual([['identity', true], ['coOwners', true], ['delegations', true]]);
    const id = await createdProperty();
    // the page offers no change where the server refuses one
    expect(await editable(id)).toEqual([['identity', false], ['coOwners', false], ['delegations', false]]);
    await sellerStepsRefused(id, ONBOARDING_MESSAGES.stepLockedByOption);
  });

  it("a co-owner still verifies their own identity until the signature (the option may be created before)", async () => {
    const coOwner = await freshSeller('Anna Rossi');
    const id = await ownedProperty(owner.userId);
    const at = new Date().toISOString();
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', documentNumber: 'CA12345AB', confidence: 92, reason: 'Identità verificata', verifiedAt: at, checkedAt: at } }));
    const saved = await api<Answer<SavedCoOwners>>('PUT', `/seller/properties/${id}/co-owners`, { token: owner.token, body: { sellerShare: 60, coOwners: [{ email: coOwner.email, fullName: 'Anna Rossi', share: 40 }] } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await generate(id, ['catasto'])).status).toBe(200);
    expect((await signDelegation(id, 'catasto')).status).toBe(200);
    const created = await api<Answer>('POST', `/admin/properties/${id}/option`, { token: admin, body: OPTION_BODY });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const coOwnerId = saved.body.coOwners[0]!.id;
    const coToken = newToken();
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.coOwnerInvitation(coToken), entity: 'coOwnerInvitation', propertyId: id, coOwnerId, email: coOwner.email, createdAt: at, expiresAt: Math.floor(Date.now() / 1000) + 3600 } }));
    const card = { surname: 'ROSSI', name: 'ANNA', number: 'CA11111BB' };
    const upload = async (kind: string, bytes: Buffer) => {
      const form = await api<Answer<PresignedUpload>>('POST', `/seller/kyc/identity/uploads?token=${coToken}`, { token: coOwner.token, body: { kind, fileName: `${kind}.jpg`, contentType: 'image/jpeg', size: bytes.length } });
      expect(form.status, JSON.stringify(form.body)).toBe(200);
      expect((await postToBucket(form.body, bytes, 'foto')).status).toBeLessThan(300);
      return form.body.key;
    };
    const faceKey = await upload('face', facePhoto('person-a'));
    const documentFrontKey = await upload('documentFront', await documentFront('person-a', card));
    const res = await api<Answer<{ valid: boolean; status: string }>>('POST', `/seller/kyc/identity?token=${coToken}`, { token: coOwner.token, body: { documentNumber: 'CA 11111 BB', fullName: 'Anna Rossi', faceKey, documentFrontKey } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ valid: true, status: 'verified' });
  });

  it('an option is not stored from a read the seller changed before it landed: 409, no option, no document', async () => {
    const id = await readyProperty();
    const client = ddb();
    const send = client.send.bind(client);
    // the seller's co-owners land after the admin's read of the dossier, before the option's transaction
    const spy = vi.spyOn(client, 'send').mockImplementation((async (cmd: unknown) => {
      const items = cmd instanceof TransactWriteCommand ? (cmd.input.TransactItems ?? []) : [];
      if (items.some((i) => i.Put?.Item?.sk === keys.option(id).sk && i.Put.Item.pk === keys.option(id).pk)) {
        const changed = await api<Answer>('PUT', `/seller/properties/${id}/co-owners`, { token: owner.token, body: { sellerShare: 50, coOwners: [{ email: 'anna.bianchi@example.com', fullName: 'Anna Bianchi', share: 50 }] } });
        expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      }
      return send(cmd as never);
    }) as never);
    try {
      await expect(createOption(id, OPTION_BODY, { id: 'admin-test', role: 'admin', name: 'Amministratore di prova' })).rejects.toThrow(REVIEW_MESSAGES.onboardingChanged);
    } finally {
      spy.mockRestore();
    }
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id), ConsistentRead: true }))).Item).toBeUndefined();
    expect((await objects(`${id}/`)).filter((o) => o.includes('opzione'))).toEqual([]);
    // read again, the admin creates it from what the seller saved
    const created = await api<Answer>('POST', `/admin/properties/${id}/option`, { token: admin, body: OPTION_BODY });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
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
