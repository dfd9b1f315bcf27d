/**
 * The identity review queue (issue 18): a check between 60 and 70 % goes to 'review' (not
 * verified, the seller reads "in verifica"); an admin sees it in GET /admin/identity-reviews
 * with both images, the confidence and the document's data, and approves or rejects it with a
 * reason, recorded with who and when, only while it is still in review. Sellers cannot call
 * the admin routes.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import type { IdentityRecord, IdentityReviewItem } from '../../functions/domain/identity';
import type { RequestDossier } from '../../functions/domain/requests';
import { api, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { newId } from '../support/submission';
import { checkIdentity } from '../support/identity';
import { documentFront, facePhoto, REVIEW_BAND_PERSON, reviewBandCard } from '../support/faces';
import { freshSeller, ownedProperty } from '../support/seller';

type Answer<T> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
const base = (id: string) => `/seller/properties/${id}/identity`;
const decide = (id: string) => `/admin/properties/${id}/identity/review`;
const IN_REVIEW = 'Verifica in corso: un operatore confronterà le foto entro un giorno lavorativo';

let seller: { token: string; userId: string };
let admin: { token: string; userId: string };

const check = (id: string, face: Buffer, front: Buffer) => checkIdentity(seller.token, id, face, front);

/** A property of the seller whose identity check landed in review. */
async function inReview(): Promise<string> {
  const id = await ownedProperty(seller.userId);
  const res = await check(id, facePhoto(REVIEW_BAND_PERSON), await reviewBandCard({ number: 'CA00000AA' }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ valid: false, status: 'review', reason: IN_REVIEW });
  return id;
}

const identityItem = async (id: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.identity(id), ConsistentRead: true }))).Item;
const propertyItem = async (id: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;
const queue = async () => {
  const res = await api<Answer<{ reviews: IdentityReviewItem[] }>>('GET', '/admin/identity-reviews', { token: admin.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.reviews;
};

beforeAll(async () => {
  useStackEnv();
  seller = await freshSeller('Anna Bianchi');
  const token = await tokenForRole('admin');
  admin = { token, userId: (await api<{ id: string }>('GET', '/me', { token })).body.id };
});

describe('identity review queue', () => {
  it('puts a 60-70 % check in review: not verified, the step not done, the seller reads "in verifica"', async () => {
    const id = await inReview();
    const item = (await identityItem(id))!;
    expect(item).toMatchObject({ status: 'review', reason: IN_REVIEW, verifiedAt: null, documentNumber: 'CA00000AA', gsi2pk: 'IDREVIEWS' });
    expect(item.confidence).toBeGreaterThanOrEqual(60);
    expect(item.confidence).toBeLessThan(70);
    const p = await propertyItem(id);
    expect(p.identityStatus).toBe('review');
    expect(p.identityCompletedAt).toBeUndefined();
    const own = await api<{ identity: IdentityRecord }>('GET', base(id), { token: seller.token });
    expect(own.body.identity).toMatchObject({ status: 'review', reason: IN_REVIEW, review: null });
  });

  it('lists the check for the admin with both images, the confidence and the document data; the dossier shows it too', async () => {
    const id = await inReview();
    const entry = (await queue()).find((r) => r.propertyId === id);
    expect(entry).toMatchObject({ documentType: 'carta_identita', documentNumber: 'CA00000AA', fullName: 'Anna Bianchi', reason: IN_REVIEW });
    expect(entry!.confidence).toBeGreaterThanOrEqual(60);
    expect(entry!.confidence).toBeLessThan(70);
    // presigned GETs of the sealed copies: the admin's browser loads them
    for (const url of [entry!.images.facePhoto, entry!.images.documentFront]) {
      const img = await fetch(url!);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toMatch(/^image\//);
    }
    expect(entry!.images.documentBack).toBeNull();
    const dossier = await api<RequestDossier>('GET', `/admin/properties/${id}`, { token: admin.token });
    expect(dossier.body.identity).toMatchObject({ documentNumber: 'CA00000AA', confidence: entry!.confidence, verifiedAt: null });
  });

  it('a decision names the check the admin looked at: one the seller replaced meanwhile is not decided (409), the new one stays in review', async () => {
    const id = await inReview();
    const looked = (await queue()).find((r) => r.propertyId === id)!;
    const dossier = await api<RequestDossier>('GET', `/admin/properties/${id}`, { token: admin.token });
    expect(dossier.body.identity?.checkedAt).toBe(looked.checkedAt);
    // the seller makes another check, which lands in review too, while the admin is on the first
    const again = await check(id, facePhoto(REVIEW_BAND_PERSON), await reviewBandCard({ number: 'CA00000AA' }));
    expect(again.body).toMatchObject({ status: 'review' });
    const newer = (await identityItem(id))!;
    expect(newer.checkedAt).not.toBe(looked.checkedAt);

    const stale = await api<Answer<object>>('POST', decide(id), { token: admin.token, body: { decision: 'approve', reason: 'Stessa persona', checkedAt: looked.checkedAt } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('La verifica non è più in attesa di revisione');
    expect(await identityItem(id)).toEqual(newer);
    const bad = await api<Answer<object>>('POST', decide(id), { token: admin.token, body: { decision: 'approve', reason: 'Stessa persona', checkedAt: 'ieri' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Verifica da decidere non valida: ricarica la pagina');

    const ok = await api<Answer<{ identity: IdentityRecord }>>('POST', decide(id), { token: admin.token, body: { decision: 'approve', reason: 'Stessa persona', checkedAt: String(newer.checkedAt) } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.identity.status).toBe('verified');
  });

  it('the admin approves with a reason: verified, recorded with who and when, out of the queue; a second decision is 409', async () => {
    const id = await inReview();
    const checkedAt = String((await identityItem(id))!.checkedAt);
    const ok = await api<Answer<{ identity: IdentityRecord }>>('POST', decide(id), { token: admin.token, body: { decision: 'approve', reason: 'Stessa persona: confrontate a vista', checkedAt } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.identity).toMatchObject({ status: 'verified', reason: 'Identità verificata da un operatore', review: { decision: 'approve', reason: 'Stessa persona: confrontate a vista', by: admin.userId } });
    const item = (await identityItem(id))!;
    expect(typeof item.verifiedAt).toBe('string');
    expect(item.review.at).toBe(item.verifiedAt);
    expect(item.gsi2pk).toBeUndefined();
    const p = await propertyItem(id);
    expect(p.identityStatus).toBe('verified');
    expect(typeof p.identityCompletedAt).toBe('string');
    expect((await queue()).map((r) => r.propertyId)).not.toContain(id);

    // a second decision (the same admin twice, or another admin later): 409, nothing changes
    const again = await api<Answer<object>>('POST', decide(id), { token: admin.token, body: { decision: 'reject', reason: 'Ci ho ripensato', checkedAt } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('La verifica non è più in attesa di revisione');
    expect(await identityItem(id)).toEqual(item);
    expect((await propertyItem(id)).identityStatus).toBe('verified');
  });

  it('the admin rejects with a reason: rejected, the seller reads the reason and may check again', async () => {
    const id = await inReview();
    const checkedAt = String((await identityItem(id))!.checkedAt);
    const no = await api<Answer<{ identity: IdentityRecord }>>('POST', decide(id), { token: admin.token, body: { decision: 'reject', reason: 'Il documento è scaduto', checkedAt } });
    expect(no.status, JSON.stringify(no.body)).toBe(200);
    expect(no.body.identity).toMatchObject({ status: 'rejected', verifiedAt: null, review: { decision: 'reject', reason: 'Il documento è scaduto', by: admin.userId } });
    const own = await api<{ identity: IdentityRecord }>('GET', base(id), { token: seller.token });
    expect(own.body.identity).toMatchObject({ status: 'rejected', reason: 'Identità rifiutata da un operatore: Il documento è scaduto' });
    expect((await propertyItem(id)).identityStatus).toBe('rejected');
    expect((await queue()).map((r) => r.propertyId)).not.toContain(id);
    // a new check by the seller replaces the decided one (and is decided again by the engine)
    const fresh = await check(id, facePhoto('person-a'), await documentFront('person-a', { number: 'CA00000AA' }));
    expect(fresh.body).toMatchObject({ valid: true, status: 'verified' });
    expect((await identityItem(id))!.review).toBeUndefined();
  });

  it('decides only a check in review: none is 404, a verified one 409; bad input is an Italian 400; nothing changes', async () => {
    const none = await ownedProperty(seller.userId);
    const checkedAt = new Date().toISOString();
    const missing = await api<Answer<object>>('POST', decide(none), { token: admin.token, body: { decision: 'approve', reason: 'ok', checkedAt } });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Verifica non trovata');
    expect(await identityItem(none)).toBeUndefined();
    const unknown = await api<Answer<object>>('POST', decide(newId()), { token: admin.token, body: { decision: 'approve', reason: 'ok', checkedAt } });
    expect(unknown.status).toBe(404);

    const verified = await ownedProperty(seller.userId);
    expect((await check(verified, facePhoto('person-b'), await documentFront('person-b', { number: 'CA00000AA' }))).body).toMatchObject({ status: 'verified' });
    const before = await identityItem(verified);
    const late = await api<Answer<object>>('POST', decide(verified), { token: admin.token, body: { decision: 'reject', reason: 'Non mi convince', checkedAt: String(before!.checkedAt) } });
    expect(late.status).toBe(409);
    expect(await identityItem(verified)).toEqual(before);

    const id = await inReview();
    const held = await identityItem(id);
    const looked = String(held!.checkedAt);
    for (const [body, message] of [
      [{ decision: 'approve', checkedAt: looked }, 'Indica il motivo della decisione'],
      [{ decision: 'approve', reason: '   ', checkedAt: looked }, 'Indica il motivo della decisione'],
      [{ decision: 'verified', reason: 'ok', checkedAt: looked }, 'Decisione non valida: approva o rifiuta'],
      [{ decision: 'reject', reason: 'x'.repeat(501), checkedAt: looked }, 'Il motivo può avere al massimo 500 caratteri'],
      // a decision that names no check (a page older than the check on screen): nothing is decided
      [{ decision: 'approve', reason: 'Stessa persona' }, 'Verifica da decidere non valida: ricarica la pagina'],
    ] as const) {
      const bad = await api<Answer<object>>('POST', decide(id), { token: admin.token, body });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe(message);
    }
    expect(await identityItem(id)).toEqual(held);
  });

  it('a seller (even the owner) cannot see the queue nor decide, and changes nothing', async () => {
    const id = await inReview();
    const held = await identityItem(id);
    const list = await api<Answer<object>>('GET', '/admin/identity-reviews', { token: seller.token });
    expect(list.status).toBe(403);
    const body = { decision: 'approve', reason: 'Sono io', checkedAt: String(held!.checkedAt) };
    for (const token of [seller.token, (await freshSeller()).token]) {
      const own = await api<Answer<object>>('POST', decide(id), { token, body });
      expect(own.status).toBe(403);
    }
    const anonymous = await api<Answer<object>>('POST', decide(id), { body });
    expect(anonymous.status).toBe(401);
    expect(await identityItem(id)).toEqual(held);
    expect((await propertyItem(id)).identityStatus).toBe('review');
    // nor can the seller move it out of review by its own routes but with a new check
    const own = await api<{ identity: IdentityRecord }>('GET', base(id), { token: seller.token });
    expect(own.body.identity.status).toBe('review');
  });
});
