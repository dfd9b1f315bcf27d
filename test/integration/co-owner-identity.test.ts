/**
 * The co-owner's own identity check through the API (issue 10, local face-api engine):
 * authorised by the co-owner's link token for the invited e-mail (another account, an
 * expired token: 404), images under `{propertyId}/identity/coowner-{coOwnerId}-`, a valid
 * check sets the COOWNER item's verifiedAt (the owner's list shows 'Verificato') and never
 * touches the owner's IDENTITY item; different people set nothing; bad input is a 400 in
 * Italian that writes nothing.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import type { IdentityCheckResult, IdentityFileKind } from '../../functions/domain/identity';
import type { CoOwnerKycState, SellerKycState } from '../../functions/domain/onboarding/kyc';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { newToken } from '../../functions/model/tokens';
import { saveCoOwnerIdentity } from '../../functions/model/co-owner';
import { ONBOARDING_MESSAGES } from '../../functions/domain/onboarding/rules';
import { api, stack, uniqueEmail, useStackEnv } from '../support/helpers';
import { apiFrom, fullBody, newClientIp, newId, postToBucket } from '../support/submission';
import { documentFront, facePhoto } from '../support/faces';
import { freshSeller, type Seller } from '../support/seller';

type Answer<T> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
const NOT_FOUND = 'Proprietà non trovata o link scaduto';
/** the co-owner's card: the name the seller typed and the number the co-owner types */
const ANNA_ROSSI = { surname: 'ROSSI', name: 'ANNA', number: 'CA98765XY' };

const get = async (Key: Record<string, string>) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key, ConsistentRead: true }))).Item;
const put = (Item: Record<string, unknown>) => ddb().send(new PutCommand({ TableName: TABLE(), Item }));
const at = () => new Date().toISOString();
const kyc = <T>(token: string, seller: Seller) => api<Answer<T>>('GET', `/seller/kyc?token=${encodeURIComponent(token)}`, { token: seller.token });
const uploadsPath = (token: string) => `/seller/kyc/identity/uploads?token=${encodeURIComponent(token)}`;
const verifyPath = (token: string) => `/seller/kyc/identity?token=${encodeURIComponent(token)}`;

let owner: Seller;
let coOwner: Seller;
let other: Seller;

/** A property claimed by the owner with one invited co-owner (the invited e-mail is `coOwner`'s). */
async function invited(expiresInSeconds = 3600): Promise<{ id: string; coOwnerId: string; coToken: string; ownerToken: string }> {
  const id = newId();
  const res = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(id), email: uniqueEmail('contatto') });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const ownerToken = (await get(keys.property(id)))!.invitationToken as string;
  expect((await kyc(ownerToken, owner)).status).toBe(200);
  const coOwnerId = newId();
  const coToken = newToken();
  await put({ ...keys.coOwner(id, coOwnerId), entity: 'coOwner', propertyId: id, id: coOwnerId, email: coOwner.email, fullName: 'Anna Rossi', share: 40, invitedAt: at(), verifiedAt: null });
  await put({ ...keys.coOwnerInvitation(coToken), entity: 'coOwnerInvitation', propertyId: id, coOwnerId, email: coOwner.email, createdAt: at(), expiresAt: Math.floor(Date.now() / 1000) + expiresInSeconds });
  return { id, coOwnerId, coToken, ownerToken };
}

async function upload(seller: Seller, coToken: string, kind: IdentityFileKind, bytes: Buffer): Promise<string> {
  const form = await api<Answer<PresignedUpload>>('POST', uploadsPath(coToken), {
    token: seller.token,
    body: { kind, fileName: `${kind}.jpg`, contentType: 'image/jpeg', size: bytes.length },
  });
  expect(form.status, JSON.stringify(form.body)).toBe(200);
  const posted = await postToBucket(form.body, bytes, 'foto');
  expect(posted.status, posted.text).toBeLessThan(300);
  return form.body.key;
}

beforeAll(async () => {
  useStackEnv();
  [owner, coOwner, other] = await Promise.all([freshSeller(), freshSeller(), freshSeller()]);
});

describe("the co-owner's identity check", () => {
  it('verifies the invited co-owner: verifiedAt set, the owner sees Verificato, the owner\'s identity untouched', async () => {
    const { id, coOwnerId, coToken, ownerToken } = await invited();
    const faceKey = await upload(coOwner, coToken, 'face', facePhoto('person-a'));
    const documentFrontKey = await upload(coOwner, coToken, 'documentFront', await documentFront('person-a', ANNA_ROSSI));
    // each form has a key of its own: a random part after the time (docs/onboarding.md, evidence)
    expect(faceKey).toMatch(new RegExp(`^${id}/identity/coowner-${coOwnerId}-face-\\d+-[0-9a-f]{24}\\.jpg$`));
    expect(documentFrontKey).toMatch(new RegExp(`^${id}/identity/coowner-${coOwnerId}-documentFront-\\d+-[0-9a-f]{24}\\.jpg$`));

    const res = await api<Answer<IdentityCheckResult>>('POST', verifyPath(coToken), {
      token: coOwner.token,
      body: { documentNumber: 'ca 98765 xy', fullName: 'Anna Rossi', faceKey, documentFrontKey },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.valid).toBe(true);
    expect(res.body.confidence).toBeGreaterThanOrEqual(60);

    const item = (await get(keys.coOwner(id, coOwnerId)))!;
    expect(item).toMatchObject({ identityStatus: 'verified', documentType: 'carta_identita', documentNumber: 'CA98765XY', confidence: res.body.confidence, documentBackKey: null });
    // the record links the sealed copies of the checked images, with their hashes; the uploads are gone
    expect(item.facePhotoKey).toMatch(new RegExp(`^${id}/evidence/identity/coowner-${coOwnerId}-face-`));
    expect(item.documentFrontKey).toMatch(new RegExp(`^${id}/evidence/identity/coowner-${coOwnerId}-documentFront-`));
    expect(item.facePhotoSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(item.documentFrontSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(typeof item.verifiedAt).toBe('string');
    expect(await get(keys.identity(id))).toBeUndefined();

    const mine = await kyc<CoOwnerKycState>(coToken, coOwner);
    expect(mine.body).toMatchObject({
      role: 'coOwner',
      coOwner: { id: coOwnerId, verifiedAt: item.verifiedAt, badge: 'Verificato' },
      identity: { status: 'verified', verifiedAt: item.verifiedAt },
      steps: [{ id: 'identity', status: 'done' }],
      complete: true,
    });
    const owners = await kyc<SellerKycState>(ownerToken, owner);
    expect(owners.body.identity).toBeNull();
    expect(owners.body.coOwners.find((c) => c.id === coOwnerId)).toMatchObject({ verifiedAt: item.verifiedAt, badge: 'Verificato' });
  });

  it('answers 404 to another account, to the owner and to an expired token, and writes nothing', async () => {
    const { id, coOwnerId, coToken } = await invited();
    const faceKey = await upload(coOwner, coToken, 'face', facePhoto('person-b'));
    const documentFrontKey = await upload(coOwner, coToken, 'documentFront', await documentFront('person-b'));
    const before = await get(keys.coOwner(id, coOwnerId));
    for (const seller of [other, owner]) {
      const up = await api<Answer<object>>('POST', uploadsPath(coToken), { token: seller.token, body: { kind: 'face', fileName: 'volto.jpg', contentType: 'image/jpeg', size: 100 } });
      expect(up.status).toBe(404);
      expect(up.body.message).toBe(NOT_FOUND);
      const post = await api<Answer<object>>('POST', verifyPath(coToken), { token: seller.token, body: { documentNumber: 'X1', faceKey, documentFrontKey } });
      expect(post.status).toBe(404);
      expect(post.body.message).toBe(NOT_FOUND);
    }
    const expired = await invited(-60);
    const up = await api<Answer<object>>('POST', uploadsPath(expired.coToken), { token: coOwner.token, body: { kind: 'face', fileName: 'volto.jpg', contentType: 'image/jpeg', size: 100 } });
    expect(up.status).toBe(404);
    const post = await api<Answer<object>>('POST', verifyPath(expired.coToken), { token: coOwner.token, body: { documentNumber: 'X1', faceKey, documentFrontKey } });
    expect(post.status).toBe(404);
    expect(post.body.message).toBe(NOT_FOUND);
    expect(await get(keys.coOwner(id, coOwnerId))).toEqual(before);
    expect((await get(keys.coOwner(expired.id, expired.coOwnerId)))!.verifiedAt).toBeNull();
  });

  it("refuses a document the owner or another co-owner already used (409) and stores nothing: the seller cannot pass a co-owner's check as himself", async () => {
    for (const holder of ['owner', 'co-owner'] as const) {
      const { id, coOwnerId, coToken } = await invited();
      if (holder === 'owner') await put({ ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentNumber: ANNA_ROSSI.number, verifiedAt: at() });
      else await put({ ...keys.coOwner(id, 'altro'), entity: 'coOwner', propertyId: id, id: 'altro', email: 'altro@example.it', fullName: 'Altro Rossi', share: 10, documentNumber: ANNA_ROSSI.number, verifiedAt: at() });
      const faceKey = await upload(coOwner, coToken, 'face', facePhoto('person-a'));
      const documentFrontKey = await upload(coOwner, coToken, 'documentFront', await documentFront('person-a', ANNA_ROSSI));
      const before = await get(keys.coOwner(id, coOwnerId));
      const res = await api<Answer<IdentityCheckResult>>('POST', verifyPath(coToken), { token: coOwner.token, body: { documentNumber: ANNA_ROSSI.number, faceKey, documentFrontKey } });
      expect(res.status, `${holder}: ${JSON.stringify(res.body)}`).toBe(409);
      expect(res.body.message).toBe(ONBOARDING_MESSAGES.coOwnerDocumentTaken);
      expect(await get(keys.coOwner(id, coOwnerId))).toEqual(before);
    }
  });

  it("the owner's own account never opens a co-owner's link, even invited at the owner's address", async () => {
    const { id } = await invited();
    const coOwnerId = newId();
    const token = newToken();
    await put({ ...keys.coOwner(id, coOwnerId), entity: 'coOwner', propertyId: id, id: coOwnerId, email: owner.email, fullName: 'Mario Rossi', share: 10, invitedAt: at(), verifiedAt: null });
    await put({ ...keys.coOwnerInvitation(token), entity: 'coOwnerInvitation', propertyId: id, coOwnerId, email: owner.email, createdAt: at(), expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    const state = await kyc<object>(token, owner);
    expect(state.status).toBe(404);
    expect(state.body.message).toBe(NOT_FOUND);
    const up = await api<Answer<object>>('POST', uploadsPath(token), { token: owner.token, body: { kind: 'face', fileName: 'volto.jpg', contentType: 'image/jpeg', size: 100 } });
    expect(up.status).toBe(404);
  });

  it("a co-owner renamed while the check runs is not stored as verified under the new name (409: check again)", async () => {
    const { id, coOwnerId } = await invited();
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.coOwner(id, coOwnerId), UpdateExpression: 'SET fullName = :n', ExpressionAttributeValues: { ':n': 'Anna Bianchi' } }));
    const before = await get(keys.coOwner(id, coOwnerId));
    const write = saveCoOwnerIdentity({
      propertyId: id,
      coOwnerId,
      email: coOwner.email,
      // the name the document was compared with, read before the rename
      checkedFullName: 'Anna Rossi',
      otherCoOwnerIds: [],
      status: 'verified',
      reason: 'ok',
      confidence: 90,
      documentType: 'carta_identita',
      documentNumber: ANNA_ROSSI.number,
      fullName: null,
      faceKey: `${id}/evidence/identity/volto.jpg`,
      documentFrontKey: `${id}/evidence/identity/fronte.jpg`,
      documentBackKey: null,
      sha256: { facePhoto: 'a'.repeat(64), documentFront: 'b'.repeat(64), documentBack: null },
      engine: 'local',
      now: at(),
    });
    await expect(write).rejects.toMatchObject({ message: ONBOARDING_MESSAGES.coOwnerRenamed });
    expect(await get(keys.coOwner(id, coOwnerId))).toEqual(before);
  });

  it('does not verify different people', async () => {
    const { id, coOwnerId, coToken, ownerToken } = await invited();
    const faceKey = await upload(coOwner, coToken, 'face', facePhoto('person-b'));
    const documentFrontKey = await upload(coOwner, coToken, 'documentFront', await documentFront('person-c'));
    const res = await api<Answer<IdentityCheckResult>>('POST', verifyPath(coToken), { token: coOwner.token, body: { documentNumber: 'X1', faceKey, documentFrontKey } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: false, reason: 'Il volto non corrisponde alla foto del documento' });
    expect(await get(keys.coOwner(id, coOwnerId))).toMatchObject({ identityStatus: 'rejected', verifiedAt: null });
    const mine = await kyc<CoOwnerKycState>(coToken, coOwner);
    expect(mine.body).toMatchObject({ coOwner: { verifiedAt: null, badge: 'Invito inviato' }, identity: { status: 'rejected', verifiedAt: null }, complete: false });
    const owners = await kyc<SellerKycState>(ownerToken, owner);
    expect(owners.body.coOwners.find((c) => c.id === coOwnerId)!.badge).toBe('Invito inviato');
  });

  it('refuses bad input with Italian messages and writes nothing', async () => {
    const { id, coOwnerId, coToken } = await invited();
    const before = await get(keys.coOwner(id, coOwnerId));
    const faceKey = await upload(coOwner, coToken, 'face', facePhoto('person-a'));
    const documentFrontKey = await upload(coOwner, coToken, 'documentFront', await documentFront('person-a', ANNA_ROSSI));

    const pdf = await api<Answer<object>>('POST', uploadsPath(coToken), { token: coOwner.token, body: { kind: 'face', fileName: 'volto.pdf', contentType: 'application/pdf', size: 100 } });
    expect(pdf.status).toBe(400);
    expect(pdf.body.message).toBe('Sono ammesse solo immagini JPEG o PNG');
    const noNumber = await api<Answer<object>>('POST', verifyPath(coToken), { token: coOwner.token, body: { faceKey, documentFrontKey } });
    expect(noNumber.status).toBe(400);
    expect(noNumber.body.fields?.documentNumber).toBe('Il numero del documento è obbligatorio');
    // the owner's own images (no co-owner prefix) are not this check's
    const ownerKey = `${id}/identity/face-1.jpg`;
    const foreign = await api<Answer<object>>('POST', verifyPath(coToken), { token: coOwner.token, body: { documentNumber: 'X1', faceKey: ownerKey, documentFrontKey } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe('Il file non appartiene a questa verifica: caricalo di nuovo');
    const missing = await api<Answer<object>>('POST', verifyPath(coToken), {
      token: coOwner.token,
      body: { documentNumber: 'X1', faceKey: `${id}/identity/coowner-${coOwnerId}-face-1.jpg`, documentFrontKey },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Dati mancanti');
    const badToken = await api<Answer<object>>('POST', verifyPath('x'), { token: coOwner.token, body: { documentNumber: 'X1', faceKey, documentFrontKey } });
    expect(badToken.status).toBe(400);
    expect(await get(keys.coOwner(id, coOwnerId))).toEqual(before);
  });
});
