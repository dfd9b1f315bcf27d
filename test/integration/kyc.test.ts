/**
 * /seller-kyc through the API: the invitation token resolves to the seller's state (an
 * unowned property is claimed; unknown, expired or another seller's: 404), the steps follow
 * the dossier, a co-owner's link answers the reduced state, and the seller signs the
 * purchase option (download, presigned upload, confirm once) so the admin's poll sees it.
 */
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys } from '../../functions/model/keys';
import { COMPLETION_MESSAGES } from '../../functions/domain/onboarding/rules';
import type { CoOwnerKycState, OptionDocumentLink, OptionSignedResult, SellerKycState } from '../../functions/domain/onboarding/kyc';
import type { OptionPoll } from '../../functions/domain/review/schemas';
import { optionExpiryDate } from '../../functions/domain/fees';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { newToken } from '../../functions/model/tokens';
import { api, stack, tokenForRole, uniqueEmail, useStackEnv } from '../support/helpers';
import { apiFrom, dossier, fullBody, newClientIp, newId, postToBucket } from '../support/submission';
import { catastoDelegation, freshSeller, type Seller } from '../support/seller';

type Answer<T> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
const NOT_FOUND = 'Proprietà non trovata o link scaduto';

const property = async (id: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;

/** A submitted property (no owner yet) and its invitation token, as the wizard leaves them. */
async function submitted(): Promise<{ id: string; token: string }> {
  const id = newId();
  const res = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(id), email: uniqueEmail('contatto') });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const token = (await property(id)).invitationToken as string;
  expect(token).toEqual(expect.any(String));
  return { id, token };
}

const kyc = <T = SellerKycState>(token: string | undefined, seller: Seller) =>
  api<Answer<T>>('GET', token === undefined ? '/seller/kyc' : `/seller/kyc?token=${encodeURIComponent(token)}`, { token: seller.token });

/** A property claimed by `seller` through GET /seller/kyc. */
async function claimed(seller: Seller): Promise<{ id: string; token: string }> {
  const p = await submitted();
  expect((await kyc(p.token, seller)).status).toBe(200);
  return p;
}

const at = () => new Date().toISOString();
const put = (Item: Record<string, unknown>) => ddb().send(new PutCommand({ TableName: TABLE(), Item }));
const verifiedIdentity = (id: string) =>
  put({ ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', confidence: 92.5, reason: 'Identità verificata', verifiedAt: at(), checkedAt: at() });
const delegation = (id: string, signed: boolean) => put(catastoDelegation(id, signed ? at() : null));

let owner: Seller;
let other: Seller;
let admin: string;

beforeAll(async () => {
  useStackEnv();
  [owner, other] = await Promise.all([freshSeller(), freshSeller()]);
  admin = await tokenForRole('admin');
});

describe('GET /seller/kyc?token=', () => {
  it('claims an unowned property for the caller and answers its state', async () => {
    const { id, token } = await submitted();
    const res = await kyc(token, owner);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      role: 'owner',
      token,
      property: { id, address: 'Via Giuseppe Verdi 12', city: 'Milano', firstName: 'Giulia' },
      current: 'identity',
      identity: null,
      coOwners: [],
      singleOwner: false,
      delegations: [],
      option: null,
      complete: false,
      completionMessage: null,
    });
    expect(res.body.steps.map((s) => [s.id, s.status])).toEqual([
      ['identity', 'todo'],
      ['coOwners', 'locked'],
      ['delegations', 'locked'],
    ]);
    const item = await property(id);
    expect(item).toMatchObject({ userId: owner.userId, gsi1pk: `SELLER#${owner.userId}` });
    // opening it again is harmless; the seller dashboard lists it
    expect((await kyc(token, owner)).status).toBe(200);
    const list = await api<{ properties?: { id: string }[] }>('GET', '/seller/properties', { token: owner.token });
    expect(JSON.stringify(list.body)).toContain(id);
  });

  it('answers 404 for an unknown, an expired or another seller\'s token, and changes nothing', async () => {
    const unknown = await kyc(newToken(), owner);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(NOT_FOUND);

    const mine = await claimed(owner);
    const theirs = await kyc(mine.token, other);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe(NOT_FOUND);
    expect((await property(mine.id)).userId).toBe(owner.userId);

    const expired = await submitted();
    await ddb().send(
      new UpdateCommand({ TableName: TABLE(), Key: keys.invitation(expired.token), UpdateExpression: 'SET expiresAt = :e', ExpressionAttributeValues: { ':e': Math.floor(Date.now() / 1000) - 10 } }),
    );
    const res = await kyc(expired.token, owner);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(NOT_FOUND);
    expect((await property(expired.id)).userId ?? null).toBeNull();
  });

  it('refuses a missing or malformed token with 400 Link non valido', async () => {
    for (const token of [undefined, 'x', 'a'.repeat(80), 'abc#def!ghijklmnopqrstuvwxyz']) {
      const res = await kyc(token, owner);
      expect(res.status, String(token)).toBe(400);
      expect(res.body.message).toBe('Link non valido');
    }
  });

  it('moves through the steps as identity, co-owners and delegations are written', async () => {
    const { id, token } = await claimed(owner);
    await verifiedIdentity(id);
    let s = (await kyc(token, owner)).body;
    expect(s.identity).toMatchObject({ status: 'verified', documentType: 'carta_identita', confidence: 92.5, reason: 'Identità verificata' });
    expect(s.steps.map((x) => x.status)).toEqual(['done', 'todo', 'locked']);
    expect(s.current).toBe('coOwners');

    // co-owners through the existing route: badges and the share warning
    const saved = await api('PUT', `/seller/properties/${id}/co-owners`, {
      token: owner.token,
      body: { sellerShare: 50, coOwners: [{ email: 'anna@example.it', fullName: 'Anna Rossi', share: 25 }, { email: 'luca@example.it', fullName: 'Luca Verdi', share: 25 }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    s = (await kyc(token, owner)).body;
    expect(s.coOwners.map((c) => [c.fullName, c.share, c.badge])).toEqual(
      expect.arrayContaining([
        ['Anna Rossi', 25, null],
        ['Luca Verdi', 25, null],
      ]),
    );
    expect(s.shareWarning).toBeNull();
    expect(s.steps.map((x) => x.status)).toEqual(['done', 'done', 'todo']);
    const anna = s.coOwners.find((c) => c.fullName === 'Anna Rossi')!;
    await ddb().send(
      new UpdateCommand({ TableName: TABLE(), Key: keys.coOwner(id, anna.id), UpdateExpression: 'SET invitedAt = :a, verifiedAt = :a', ExpressionAttributeValues: { ':a': at() } }),
    );
    s = (await kyc(token, owner)).body;
    expect(s.coOwners.find((c) => c.id === anna.id)!.badge).toBe('Verificato');

    await delegation(id, false);
    s = (await kyc(token, owner)).body;
    expect(s.delegations).toEqual([{ type: 'catasto', label: expect.any(String), province: 'MI', municipality: 'Milano', generated: true, pages: null, signed: false, signedAt: null, signatureType: null, signers: [] }]);
    expect(s.canCompleteDelegations).toBe(false);
    expect(s.complete).toBe(false);
    expect(s.current).toBe('delegations');

    await delegation(id, true);
    s = (await kyc(token, owner)).body;
    expect(s.steps.map((x) => x.status)).toEqual(['done', 'done', 'done']);
    expect(s).toMatchObject({ canCompleteDelegations: true, complete: true, current: null, completionMessage: COMPLETION_MESSAGES.noOption });
  });

  it('counts "Salta (Proprietà Singola)" as the co-owners step', async () => {
    const { id, token } = await claimed(owner);
    await verifiedIdentity(id);
    expect((await api('POST', `/seller/properties/${id}/co-owners/skip`, { token: owner.token, body: {} })).status).toBe(200);
    const s = (await kyc(token, owner)).body;
    expect(s.singleOwner).toBe(true);
    expect(s.steps.map((x) => x.status)).toEqual(['done', 'done', 'todo']);
  });

  it('answers the reduced state of a co-owner who opens their own link with the invited e-mail', async () => {
    const { id } = await claimed(owner);
    const coOwner = await freshSeller();
    const coOwnerId = newId();
    const coToken = newToken();
    await put({ ...keys.coOwner(id, coOwnerId), entity: 'coOwner', propertyId: id, id: coOwnerId, email: coOwner.email, fullName: 'Anna Rossi', share: 40, invitedAt: at(), verifiedAt: null });
    await put({ ...keys.coOwnerInvitation(coToken), entity: 'coOwnerInvitation', propertyId: id, coOwnerId, email: coOwner.email, createdAt: at(), expiresAt: Math.floor(Date.now() / 1000) + 3600 });

    const res = await kyc<CoOwnerKycState>(coToken, coOwner);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      role: 'coOwner',
      token: coToken,
      property: { id, address: 'Via Giuseppe Verdi 12', city: 'Milano' },
      coOwner: { id: coOwnerId, fullName: 'Anna Rossi', share: 40, verifiedAt: null, badge: 'Invito inviato' },
      steps: [{ id: 'identity', number: 1, status: 'todo' }],
      complete: false,
    });
    // anyone else (the owner included) does not open it; the property is not claimed by it
    expect((await kyc(coToken, other)).status).toBe(404);
    expect((await kyc(coToken, owner)).status).toBe(404);
    expect((await property(id)).userId).toBe(owner.userId);
  });
});

describe('GET /seller/properties/{propertyId}/onboarding: the owner is never locked out', () => {
  const own = (id: string, seller: Seller) => api<Answer<SellerKycState>>('GET', `/seller/properties/${encodeURIComponent(id)}/onboarding`, { token: seller.token });

  it('answers the owner the same state by id once the link has expired or been replaced, without a token', async () => {
    const { id, token } = await claimed(owner);
    const byLink = await kyc(token, owner);
    // the invitation expires (30 days after the mail): the link no longer opens, the page by id does
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.invitation(token), UpdateExpression: 'SET expiresAt = :e', ExpressionAttributeValues: { ':e': Math.floor(Date.now() / 1000) - 60 } }));
    expect((await kyc(token, owner)).status).toBe(404);
    const res = await own(id, owner);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ...byLink.body, token: null });
    // a newer mail replaced the link: by id, still the same page
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.property(id), UpdateExpression: 'SET invitationToken = :t', ExpressionAttributeValues: { ':t': newToken() } }));
    expect((await own(id, owner)).status).toBe(200);
  });

  it("answers 404 'Immobile non trovato' to another seller, for an unclaimed or unknown property, and changes nothing", async () => {
    const { id } = await claimed(owner);
    const unclaimed = await submitted();
    for (const [pid, who] of [[id, other], [unclaimed.id, owner], [newId(), owner], ['non#valido', owner]] as const) {
      const res = await own(pid, who);
      expect(res.status, `${pid}: ${JSON.stringify(res.body)}`).toBe(404);
      expect(res.body.message).toBe('Immobile non trovato');
      expect(JSON.stringify(res.body)).not.toContain('Verdi');
    }
    // the unclaimed property stays unclaimed: only its link claims it
    expect((await property(unclaimed.id)).userId ?? null).toBeNull();
  });
});

describe('signing the purchase option', () => {
  const base = (id: string) => `/seller/properties/${id}/option`;
  const PDF_FORM = { fileName: 'opzione firmata.pdf', contentType: 'application/pdf' };

  it('answers 404 while the property has no option', async () => {
    const { id } = await claimed(owner);
    const res = await api<Answer<object>>('GET', `${base(id)}/document`, { token: owner.token });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Opzione di acquisto non trovata');
    const up = await api<Answer<object>>('POST', `${base(id)}/uploads`, { token: owner.token, body: { ...PDF_FORM, size: 1000 } });
    expect(up.status).toBe(404);
  });

  it('downloads the PDF, uploads the signed copy, confirms it once; the admin poll sees it', async () => {
    const { id, token } = await claimed(owner);
    await verifiedIdentity(id);
    await delegation(id, true);
    expect((await api('POST', `/seller/properties/${id}/co-owners/skip`, { token: owner.token, body: {} })).status).toBe(200);
    expect((await kyc(token, owner)).body.steps).toHaveLength(3);

    const created = await api<Answer<{ id: string }>>('POST', `/admin/properties/${id}/option`, {
      token: admin,
      body: { propertyValue: 300_000, optionDuration: 8, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    let s = (await kyc(token, owner)).body;
    expect(s.steps.map((x) => [x.id, x.status])).toEqual([
      ['identity', 'done'],
      ['coOwners', 'done'],
      ['delegations', 'done'],
      ['option', 'todo'],
    ]);
    expect(s.option).toEqual({
      id: created.body.id,
      propertyValue: 300_000,
      // 8 months: 1.000 euro per 100.000
      optionAmount: 3000,
      optionDuration: 8,
      expiresAt: null,
      paymentType: 'rateale',
      installments: 12,
      hasKeys: false,
      documentReady: true,
      pages: expect.any(Number),
      signedAt: null,
      signatureType: null,
      signers: [],
    });
    expect(s.complete).toBe(false);

    // download
    const doc = await api<Answer<OptionDocumentLink>>('GET', `${base(id)}/document`, { token: owner.token });
    expect(doc.status, JSON.stringify(doc.body)).toBe(200);
    const pdf = Buffer.from(await (await fetch(doc.body.url)).arrayBuffer());
    expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');
    // the page count the seller's photographed copy must match is the document's
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(s.option!.pages);

    // other sellers: 404; admin and agent: 403
    expect((await api('GET', `${base(id)}/document`, { token: other.token })).status).toBe(404);
    expect((await api('POST', `${base(id)}/uploads`, { token: other.token, body: { ...PDF_FORM, size: pdf.length } })).status).toBe(404);
    for (const role of ['admin', 'agent'] as const) {
      const t = await tokenForRole(role);
      expect((await api('GET', `${base(id)}/document`, { token: t })).status).toBe(403);
      expect((await api('POST', `${base(id)}/signed`, { token: t, body: { key: 'x' } })).status).toBe(403);
    }

    // a .txt, a mismatched type, a file over 20 MB, an empty body: 400 in Italian
    const txt = await api<Answer<object>>('POST', `${base(id)}/uploads`, { token: owner.token, body: { fileName: 'firma.txt', contentType: 'text/plain', size: 10 } });
    expect(txt.status).toBe(400);
    expect(txt.body.message).toBe('Formato non ammesso: carica un file pdf, jpg, jpeg o png');
    expect((await api('POST', `${base(id)}/uploads`, { token: owner.token, body: { fileName: 'firma.pdf', contentType: 'image/png', size: 10 } })).status).toBe(400);
    const big = await api<Answer<object>>('POST', `${base(id)}/uploads`, { token: owner.token, body: { ...PDF_FORM, size: 20 * 1024 * 1024 + 1 } });
    expect(big.status).toBe(400);
    expect(big.body.message).toMatch(/^Il file supera la dimensione massima di 20 MB/);
    const empty = await api<Answer<object>>('POST', `${base(id)}/signed`, { token: owner.token, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Documento non valido');

    // upload through the presigned POST
    const form = await api<Answer<PresignedUpload>>('POST', `${base(id)}/uploads`, { token: owner.token, body: { ...PDF_FORM, size: pdf.length } });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    expect(form.body.key).toMatch(new RegExp(`^${id}/option/signed-\\d{13}-[0-9a-f]{24}\\.pdf$`));
    expect(form.body.maxBytes).toBe(20 * 1024 * 1024);
    // not uploaded yet, or a key outside the property's option prefix: 400, nothing signed
    expect((await api('POST', `${base(id)}/signed`, { token: owner.token, body: { key: form.body.key } })).status).toBe(400);
    expect((await api('POST', `${base(id)}/signed`, { token: owner.token, body: { key: `${id}/documents/opzione-${created.body.id}.pdf` } })).status).toBe(400);
    const posted = await postToBucket(form.body, pdf, 'opzione firmata.pdf');
    expect(posted.status, posted.text).toBeLessThan(300);
    expect((await api('POST', `${base(id)}/signed`, { token: other.token, body: { key: form.body.key } })).status).toBe(404);
    const unsigned = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id), ConsistentRead: true }))).Item!;
    expect(unsigned.signedAt ?? null).toBeNull();
    expect((await dossier(id)).filter((i) => i.kind === 'signed-option')).toEqual([]);

    // confirm
    const signed = await api<Answer<OptionSignedResult>>('POST', `${base(id)}/signed`, { token: owner.token, body: { key: form.body.key } });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.option).toMatchObject({ id: created.body.id, signatureType: 'fisica', signedAt: expect.any(String) });
    // the expiry: the signature's calendar day in Italy + 8 months, recorded with the signature
    const expiresAt = optionExpiryDate(signed.body.option.signedAt!, 8);
    expect(signed.body.option.expiresAt).toBe(expiresAt);

    const poll = await api<OptionPoll>('GET', `/admin/properties/${id}/option`, { token: admin });
    expect(poll.status).toBe(200);
    expect(poll.body.option).toMatchObject({
      signatureType: 'fisica',
      signedAt: signed.body.option.signedAt,
      optionDuration: 8,
      expiresAt,
      // the sealed copy under the property's evidence/ prefix, not the upload (test/integration/evidence.test.ts)
      signatureData: { signedDocumentKey: expect.stringMatching(new RegExp(`^${id}/evidence/option/`)), uploadedAt: signed.body.option.signedAt, format: null, signers: [] },
    });
    expect((await property(id)).optionSignedAt).toBe(signed.body.option.signedAt);
    const docs = (await dossier(id)).filter((i) => i.kind === 'signed-option');
    expect(docs).toEqual([expect.objectContaining({ key: expect.stringMatching(new RegExp(`^${id}/evidence/option/`)), contentType: 'application/pdf', size: pdf.length })]);
    const adminDossier = await api<{ documents?: { kind: string }[] }>('GET', `/admin/properties/${id}`, { token: admin });
    expect(JSON.stringify(adminDossier.body)).toContain('signed-option');

    // once only
    const again = await api<Answer<object>>('POST', `${base(id)}/signed`, { token: owner.token, body: { key: form.body.key } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Opzione già firmata');
    expect((await api('POST', `${base(id)}/uploads`, { token: owner.token, body: { ...PDF_FORM, size: 100 } })).status).toBe(409);

    s = (await kyc(token, owner)).body;
    expect(s.steps.map((x) => x.status)).toEqual(['done', 'done', 'done', 'done']);
    expect(s).toMatchObject({ complete: true, current: null, completionMessage: COMPLETION_MESSAGES.optionSigned, option: { signatureType: 'fisica', optionDuration: 8, expiresAt } });
    // the seller dashboard shows it too
    const mine = await api<{ properties?: { id: string; option: { expiresAt: string | null } | null }[] }>('GET', '/seller/properties', { token: owner.token });
    expect(JSON.stringify(mine.body)).toContain(`"expiresAt":"${expiresAt}"`);
  });

  it('signs an option stored before the duration was recorded without inventing an expiry', async () => {
    const { id, token } = await claimed(owner);
    await verifiedIdentity(id);
    await delegation(id, true);
    const created = await api('POST', `/admin/properties/${id}/option`, {
      token: admin,
      body: { propertyValue: 300_000, hasKeys: true, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // a legacy option: 1% of the value, no duration
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.option(id), UpdateExpression: 'SET optionAmount = :a REMOVE optionDuration, expiresAt', ExpressionAttributeValues: { ':a': 3000 } }));
    expect((await kyc(token, owner)).body.option).toMatchObject({ optionAmount: 3000, optionDuration: null, expiresAt: null });
    const pdf = Buffer.from('%PDF-1.4 firmato');
    const form = await api<Answer<PresignedUpload>>('POST', `${base(id)}/uploads`, { token: owner.token, body: { ...PDF_FORM, size: pdf.length } });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    expect((await postToBucket(form.body, pdf, 'opzione firmata.pdf')).status).toBeLessThan(300);
    const signed = await api<Answer<OptionSignedResult>>('POST', `${base(id)}/signed`, { token: owner.token, body: { key: form.body.key } });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.option).toMatchObject({ signatureType: 'fisica', optionDuration: null, expiresAt: null });
    const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id), ConsistentRead: true }))).Item!;
    expect(item.signedAt).toBe(signed.body.option.signedAt);
    expect(item.expiresAt).toBeUndefined();
  });

  it('refuses an uploaded object whose type does not match its extension, and deletes it', async () => {
    const { id } = await claimed(owner);
    await verifiedIdentity(id);
    await delegation(id, true);
    const created = await api('POST', `/admin/properties/${id}/option`, {
      token: admin,
      body: { propertyValue: 200_000, hasKeys: true, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const form = await api<Answer<PresignedUpload>>('POST', `${base(id)}/uploads`, { token: owner.token, body: { fileName: 'firma.png', contentType: 'image/png', size: 20 } });
    expect(form.status).toBe(200);
    // the policy binds the declared Content-Type: S3 refuses another one
    const refused = await postToBucket(form.body, Buffer.from('not really an image'), 'firma.png', { 'Content-Type': 'image/jpeg' });
    expect(refused.status).toBe(403);
    // an object that got there with another type anyway: the confirmation's HeadObject refuses it
    await s3().send(new PutObjectCommand({ Bucket: stack().env.MEDIA_BUCKET, Key: form.body.key, Body: 'testo', ContentType: 'text/plain' }));
    const res = await api<Answer<object>>('POST', `${base(id)}/signed`, { token: owner.token, body: { key: form.body.key } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Formato non ammesso: carica un file pdf, jpg, jpeg o png');
    const option = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id), ConsistentRead: true }))).Item!;
    expect(option.signedAt ?? null).toBeNull();
    await expect(s3().send(new HeadObjectCommand({ Bucket: stack().env.MEDIA_BUCKET, Key: form.body.key }))).rejects.toThrow();
  });
});
