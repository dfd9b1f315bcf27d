/**
 * A co-owner's identity check in the admins' review queue (issue 18): between 60 and 70 % it is
 * 'review' (not verified, the co-owner reads "in verifica"), the admin sees it in
 * GET /admin/identity-reviews named as a co-owner's, with both images, and approves or rejects
 * it with a reason on POST .../co-owners/{coOwnerId}/identity/review, recorded with who and
 * when, only while it is still in review. A new check by the co-owner replaces a decided one.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { IDENTITY_MESSAGES, type IdentityCheckResult, type IdentityFileKind, type IdentityReviewItem } from '../../functions/domain/identity';
import type { CoOwnerKycState, KycIdentity } from '../../functions/domain/onboarding/kyc';
import type { SavedCoOwners } from '../../functions/domain/onboarding/schemas';
import type { RequestDossier } from '../../functions/domain/requests';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { newToken } from '../../functions/model/tokens';
import { api, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { newId, postToBucket } from '../support/submission';
import { documentFront, facePhoto, REVIEW_BAND_PERSON, reviewBandCard } from '../support/faces';
import { freshSeller, ownedProperty, type Seller } from '../support/seller';

type Answer<T> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
const get = async (Key: Record<string, string>) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key, ConsistentRead: true }))).Item;
const put = (Item: Record<string, unknown>) => ddb().send(new PutCommand({ TableName: TABLE(), Item }));
/** the co-owner's card: the name the seller typed and the number the co-owner types */
const CARD = { surname: 'ROSSI', name: 'ANNA', number: 'CA11111BB' };
const decide = (id: string, coOwnerId: string) => `/admin/properties/${id}/co-owners/${coOwnerId}/identity/review`;

let owner: Seller;
let coOwner: Seller;
let admin: { token: string; userId: string };

beforeAll(async () => {
  useStackEnv();
  [owner, coOwner] = await Promise.all([freshSeller(), freshSeller('Anna Rossi')]);
  const token = await tokenForRole('admin');
  admin = { token, userId: (await api<{ id: string }>('GET', '/me', { token })).body.id };
});

/** The owner's property with `coOwner` invited, and the co-owner's check of `face` against `front`. */
async function checked(face: Buffer, front: Buffer): Promise<{ id: string; coOwnerId: string; coToken: string; res: Answer<IdentityCheckResult> }> {
  const id = await ownedProperty(owner.userId);
  const coOwnerId = newId();
  const coToken = newToken();
  const at = new Date().toISOString();
  await put({ ...keys.coOwner(id, coOwnerId), entity: 'coOwner', propertyId: id, id: coOwnerId, email: coOwner.email, fullName: 'Anna Rossi', share: 40, invitedAt: at, verifiedAt: null });
  await put({ ...keys.coOwnerInvitation(coToken), entity: 'coOwnerInvitation', propertyId: id, coOwnerId, email: coOwner.email, createdAt: at, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  return { id, coOwnerId, coToken, res: await check(coToken, face, front) };
}

async function check(coToken: string, face: Buffer, front: Buffer): Promise<Answer<IdentityCheckResult>> {
  const upload = async (kind: IdentityFileKind, bytes: Buffer) => {
    const form = await api<Answer<PresignedUpload>>('POST', `/seller/kyc/identity/uploads?token=${coToken}`, {
      token: coOwner.token,
      body: { kind, fileName: `${kind}.jpg`, contentType: 'image/jpeg', size: bytes.length },
    });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    expect((await postToBucket(form.body, bytes, 'foto')).status).toBeLessThan(300);
    return form.body.key;
  };
  const [faceKey, documentFrontKey] = [await upload('face', face), await upload('documentFront', front)];
  const res = await api<Answer<IdentityCheckResult>>('POST', `/seller/kyc/identity?token=${coToken}`, {
    token: coOwner.token,
    body: { documentNumber: 'CA 11111 BB', fullName: 'Anna Rossi', faceKey, documentFrontKey },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const queue = async () => {
  const res = await api<Answer<{ reviews: IdentityReviewItem[] }>>('GET', '/admin/identity-reviews', { token: admin.token });
  expect(res.status).toBe(200);
  return res.body.reviews;
};

describe("a co-owner's identity check in review", () => {
  it('is not verified, the co-owner reads "in verifica", the admin sees it as a co-owner\'s and approves it once', async () => {
    const { id, coOwnerId, coToken, res } = await checked(facePhoto(REVIEW_BAND_PERSON), await reviewBandCard(CARD));
    expect(res).toMatchObject({ valid: false, status: 'review', reason: IDENTITY_MESSAGES.inReview });
    expect(await get(keys.coOwner(id, coOwnerId))).toMatchObject({ identityStatus: 'review', verifiedAt: null, gsi2pk: 'IDREVIEWS' });
    const own = await api<CoOwnerKycState>('GET', `/seller/kyc?token=${coToken}`, { token: coOwner.token });
    expect(own.body.identity).toMatchObject({ status: 'review' });

    const entry = (await queue()).find((r) => r.propertyId === id && r.coOwner?.id === coOwnerId);
    expect(entry).toMatchObject({ coOwner: { id: coOwnerId, fullName: 'Anna Rossi' }, documentNumber: 'CA11111BB', fullName: 'Anna Rossi', reason: IDENTITY_MESSAGES.inReview });
    expect(entry!.confidence).toBeGreaterThanOrEqual(60);
    expect(entry!.confidence).toBeLessThan(70);
    for (const url of [entry!.images.facePhoto, entry!.images.documentFront]) expect((await fetch(url!)).status).toBe(200);
    const dossier = await api<RequestDossier>('GET', `/admin/properties/${id}`, { token: admin.token });
    expect(dossier.body.coOwners.find((c) => c.id === coOwnerId)).toMatchObject({ identityStatus: 'review', verifiedAt: null });

    // the seller cannot decide; a missing reason or check is 400; the owner's route does not decide a co-owner's check
    const checkedAt = entry!.checkedAt;
    expect((await api('POST', decide(id, coOwnerId), { token: owner.token, body: { decision: 'approve', reason: 'Io', checkedAt } })).status).toBe(403);
    expect((await api('POST', decide(id, coOwnerId), { token: admin.token, body: { decision: 'approve', reason: ' ', checkedAt } })).status).toBe(400);
    const unnamed = await api<Answer<object>>('POST', decide(id, coOwnerId), { token: admin.token, body: { decision: 'approve', reason: 'Stessa persona' } });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.message).toBe(IDENTITY_MESSAGES.reviewCheckInvalid);
    expect((await api('POST', decide(id, newId()), { token: admin.token, body: { decision: 'approve', reason: 'Stessa persona', checkedAt } })).status).toBe(404);
    expect((await get(keys.coOwner(id, coOwnerId)))!.identityStatus).toBe('review');

    // a decision names the check the admin looked at: another one is not decided
    const other = await api<Answer<object>>('POST', decide(id, coOwnerId), { token: admin.token, body: { decision: 'approve', reason: 'Stessa persona', checkedAt: '2020-01-01T00:00:00.000Z' } });
    expect(other.status).toBe(409);
    expect((await get(keys.coOwner(id, coOwnerId)))!.identityStatus).toBe('review');

    const ok = await api<Answer<{ identity: KycIdentity }>>('POST', decide(id, coOwnerId), {
      token: admin.token,
      body: { decision: 'approve', reason: 'Stessa persona: confrontate a vista', checkedAt },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.identity).toMatchObject({ status: 'verified', reason: IDENTITY_MESSAGES.reviewApproved, verifiedAt: expect.any(String) });
    const item = (await get(keys.coOwner(id, coOwnerId)))!;
    expect(item).toMatchObject({ identityStatus: 'verified', identityReview: { decision: 'approve', reason: 'Stessa persona: confrontate a vista', by: admin.userId } });
    expect(item.gsi2pk).toBeUndefined();
    expect((await queue()).some((r) => r.coOwner?.id === coOwnerId)).toBe(false);
    const history = await api<{ activity?: { kind: string; note: string | null }[] }>('GET', `/admin/properties/${id}`, { token: admin.token });
    expect(JSON.stringify(history.body)).toContain('Comproprietario: Stessa persona: confrontate a vista');

    // a second decision: 409, nothing changes
    const again = await api<Answer<object>>('POST', decide(id, coOwnerId), { token: admin.token, body: { decision: 'reject', reason: 'Ci ho ripensato', checkedAt } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(IDENTITY_MESSAGES.reviewNotPending);
    expect(await get(keys.coOwner(id, coOwnerId))).toEqual(item);
  });

  it('rejected with a reason: the co-owner reads it and a new check replaces the decided one', async () => {
    const { id, coOwnerId, coToken } = await checked(facePhoto(REVIEW_BAND_PERSON), await reviewBandCard(CARD));
    const checkedAt = String((await get(keys.coOwner(id, coOwnerId)))!.identityCheckedAt);
    const no = await api<Answer<{ identity: KycIdentity }>>('POST', decide(id, coOwnerId), { token: admin.token, body: { decision: 'reject', reason: 'Il documento è scaduto', checkedAt } });
    expect(no.status, JSON.stringify(no.body)).toBe(200);
    expect(no.body.identity).toMatchObject({ status: 'rejected', reason: `${IDENTITY_MESSAGES.reviewRejected}: Il documento è scaduto`, verifiedAt: null });
    const own = await api<CoOwnerKycState>('GET', `/seller/kyc?token=${coToken}`, { token: coOwner.token });
    expect(own.body.identity).toMatchObject({ status: 'rejected', reason: `${IDENTITY_MESSAGES.reviewRejected}: Il documento è scaduto` });
    const fresh = await check(coToken, facePhoto('person-a'), await documentFront('person-a', CARD));
    expect(fresh).toMatchObject({ valid: true, status: 'verified' });
    const item = (await get(keys.coOwner(id, coOwnerId)))!;
    expect(item).toMatchObject({ identityStatus: 'verified', verifiedAt: expect.any(String) });
    expect(item.identityReview).toBeUndefined();
  });
  it("the seller saving the list again keeps the co-owner's check, its evidence and its place in the queue; a new name starts the check again", async () => {
    const { id, coOwnerId } = await checked(facePhoto(REVIEW_BAND_PERSON), await reviewBandCard(CARD));
    const before = (await get(keys.coOwner(id, coOwnerId)))!;
    const save = (fullName: string, share: number) =>
      api<Answer<SavedCoOwners>>('PUT', `/seller/properties/${id}/co-owners`, {
        token: owner.token,
        body: { sellerShare: 100 - share, coOwners: [{ email: coOwner.email, fullName, share }] },
      });
    const kept = await save('anna rossi', 30);
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.coOwners).toEqual([expect.objectContaining({ id: coOwnerId, share: 30, verifiedAt: null })]);
    expect(await get(keys.coOwner(id, coOwnerId))).toMatchObject({
      share: 30,
      identityStatus: 'review',
      gsi2pk: 'IDREVIEWS',
      identityCheckedAt: before.identityCheckedAt,
      facePhotoKey: before.facePhotoKey,
      facePhotoSha256: before.facePhotoSha256,
      documentFrontSha256: before.documentFrontSha256,
    });
    expect((await queue()).some((r) => r.coOwner?.id === coOwnerId)).toBe(true);

    // another name is another person to the check that compared the document with the old one
    const renamed = await save('Anna Bianchi', 30);
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const after = (await get(keys.coOwner(id, coOwnerId)))!;
    expect(after).toMatchObject({ fullName: 'Anna Bianchi', verifiedAt: null });
    expect(after.identityStatus).toBeUndefined();
    expect(after.gsi2pk).toBeUndefined();
    expect((await queue()).some((r) => r.coOwner?.id === coOwnerId)).toBe(false);
    const late = await api<Answer<object>>('POST', decide(id, coOwnerId), { token: admin.token, body: { decision: 'approve', reason: 'Stessa persona', checkedAt: String(before.identityCheckedAt) } });
    expect(late.status).toBe(409);
    expect((await get(keys.coOwner(id, coOwnerId)))!.identityStatus).toBeUndefined();
  });
});
