/**
 * Co-owner invitations are not an open relay (issue 18): only a seller whose own identity is
 * verified may send them (409), at most CO_OWNER_INVITATION_LIMITS a day per property and per
 * seller (429, nothing sent, nothing counted), and the subject never carries the seller's text.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import {
  CO_OWNER_INVITATION_LIMITS as LIMITS,
  CO_OWNER_INVITATION_MESSAGES as INVITE,
  CO_OWNER_INVITATION_SUBJECT,
} from '../../functions/domain/onboarding/co-owner-email';
import type { SellerCoOwner } from '../../functions/domain/onboarding/schemas';
import { api, sentMail, stack, uniqueEmail, useStackEnv } from '../support/helpers';
import { awayFromWindowEdge, dossier } from '../support/submission';
import { freshSeller, ownedProperty, type Seller } from '../support/seller';

type Answer<T> = T & { message?: string };
const TABLE = () => stack().env.TABLE_NAME!;
const base = (id: string) => `/seller/properties/${id}/co-owners`;

async function identity(propertyId: string, status: 'verified' | 'rejected'): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: TABLE(),
      Item: { ...keys.identity(propertyId), entity: 'identity', propertyId, status, confidence: 90, reason: 'Identità verificata', documentType: 'carta_identita' },
    }),
  );
}

/** `count` new co-owners (fresh addresses), shares totalling 100 with the seller's SELLER_SHARE. */
const SELLER_SHARE = 40;
function coOwners(count: number, fullName = 'Anna Bianchi'): { email: string; fullName: string; share: number }[] {
  const share = Math.floor((100 - SELLER_SHARE) / count);
  return Array.from({ length: count }, (_, i) => ({ email: uniqueEmail('coprop'), fullName, share: i === 0 ? 100 - SELLER_SHARE - share * (count - 1) : share }));
}

async function replaceList(seller: Seller, propertyId: string, list: ReturnType<typeof coOwners>): Promise<void> {
  const res = await api<Answer<object>>('PUT', base(propertyId), { token: seller.token, body: { sellerShare: SELLER_SHARE, coOwners: list } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const invite = (seller: Seller, propertyId: string) =>
  api<Answer<{ invited: number; coOwners: SellerCoOwner[] }>>('POST', `${base(propertyId)}/invitations`, { token: seller.token, body: {} });

const mailTo = async (addresses: readonly string[]) => (await sentMail()).filter((m) => m.destination.to.some((t) => addresses.includes(t.toLowerCase())));

/** Nothing of a refused invitation: no mail, the co-owners still not invited. */
async function nothingSent(propertyId: string, addresses: readonly string[]): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  expect(await mailTo(addresses)).toEqual([]);
  const items = await dossier(propertyId);
  const mine = items.filter((i) => i.entity === 'coOwner' && addresses.includes(String(i.email)));
  expect(mine).toHaveLength(addresses.length);
  expect(mine.every((c) => c.invitedAt === null)).toBe(true);
}

beforeAll(async () => {
  useStackEnv();
  // the daily windows are UTC days: never straddle midnight within a test
  await awayFromWindowEdge(86_400, 180);
});

describe('who may invite', () => {
  it('a seller whose identity is not verified gets 409 and nothing is sent', async () => {
    const seller = await freshSeller();
    const propertyId = await ownedProperty(seller.userId);
    const list = coOwners(2);
    await replaceList(seller, propertyId, list);
    const res = await invite(seller, propertyId);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.message).toBe(INVITE.identityNotVerified);
    expect(res.body.message).toBe('Prima di invitare i comproprietari verifica la tua identità.');
    await nothingSent(propertyId, list.map((c) => c.email));

    // a failed check is not a verified identity
    await identity(propertyId, 'rejected');
    const rejected = await invite(seller, propertyId);
    expect(rejected.status).toBe(409);
    expect(rejected.body.message).toBe(INVITE.identityNotVerified);
    // nor is the identity verified on another of the seller's properties
    const other = await ownedProperty(seller.userId);
    await identity(other, 'verified');
    expect((await invite(seller, propertyId)).status).toBe(409);
    await nothingSent(propertyId, list.map((c) => c.email));

    // verified: the same list goes out
    await identity(propertyId, 'verified');
    const ok = await invite(seller, propertyId);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.invited).toBe(2);
  });

  it('an identity item without a verified status is not a verified identity', async () => {
    const seller = await freshSeller();
    const propertyId = await ownedProperty(seller.userId);
    const list = coOwners(1);
    await replaceList(seller, propertyId, list);
    await identity(propertyId, 'verified');
    // the IDENTITY item without a status: neither the read nor the transaction's condition sees 'verified'
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.identity(propertyId), UpdateExpression: 'REMOVE #s', ExpressionAttributeNames: { '#s': 'status' } }));
    const res = await invite(seller, propertyId);
    expect(res.status).toBe(409);
    await nothingSent(propertyId, list.map((c) => c.email));
  });
});

describe('daily limits', () => {
  it(`per property: rounds of 6 new co-owners, the 4th is refused with 429 (limit ${LIMITS.perPropertyPerDay} a day) and nothing is sent`, async () => {
    const seller = await freshSeller();
    const propertyId = await ownedProperty(seller.userId);
    await identity(propertyId, 'verified');
    for (let round = 1; round <= 3; round++) {
      const list = coOwners(6);
      await replaceList(seller, propertyId, list);
      const res = await invite(seller, propertyId);
      expect(res.status, `round ${round}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.invited).toBe(6);
    }
    const fourth = coOwners(6);
    await replaceList(seller, propertyId, fourth);
    const refused = await invite(seller, propertyId);
    expect(refused.status, JSON.stringify(refused.body)).toBe(429);
    expect(refused.body.message).toBe(INVITE.tooManyForProperty);
    expect(refused.body.message).toBe('Oggi hai già inviato il numero massimo di inviti per questo immobile (20). Riprova domani.');
    await nothingSent(propertyId, fourth.map((c) => c.email));
    // retrying does not help
    expect((await invite(seller, propertyId)).status).toBe(429);
    // the refusal counted nothing: the 2 left of 20 still go out, then the property is spent
    const last = coOwners(2);
    await replaceList(seller, propertyId, last);
    expect((await invite(seller, propertyId)).status).toBe(200);
    expect(await mailTo(last.map((c) => c.email))).toHaveLength(2);
    const one = coOwners(1);
    await replaceList(seller, propertyId, one);
    expect((await invite(seller, propertyId)).status).toBe(429);
    await nothingSent(propertyId, one.map((c) => c.email));
  });

  it(`per seller: ${LIMITS.perSellerPerDay} a day across properties, a new property does not reset it`, async () => {
    const seller = await freshSeller();
    for (let i = 0; i < LIMITS.perSellerPerDay / LIMITS.perPropertyPerDay; i++) {
      const propertyId = await ownedProperty(seller.userId);
      await identity(propertyId, 'verified');
      await replaceList(seller, propertyId, coOwners(LIMITS.perPropertyPerDay));
      const res = await invite(seller, propertyId);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const fresh = await ownedProperty(seller.userId);
    await identity(fresh, 'verified');
    const list = coOwners(1);
    await replaceList(seller, fresh, list);
    const refused = await invite(seller, fresh);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(INVITE.tooManyForSeller);
    await nothingSent(fresh, list.map((c) => c.email));
    // another seller is not affected
    const other = await freshSeller();
    const theirs = await ownedProperty(other.userId);
    await identity(theirs, 'verified');
    await replaceList(other, theirs, coOwners(1));
    expect((await invite(other, theirs)).status).toBe(200);
  });
});

describe('the mail', () => {
  it("has the fixed subject even when the co-owner's name and the address hold attacker text, and the body escapes them", async () => {
    const seller = await freshSeller();
    const propertyId = await ownedProperty(seller.userId);
    await identity(propertyId, 'verified');
    const attack = 'Vinci 1000€ su https://truffa.example <a href="https://truffa.example">qui</a>';
    await ddb().send(
      new UpdateCommand({ TableName: TABLE(), Key: keys.property(propertyId), UpdateExpression: 'SET address = :a', ExpressionAttributeValues: { ':a': attack } }),
    );
    const list = coOwners(1, `Anna ${attack}`.slice(0, 120));
    await replaceList(seller, propertyId, list);
    expect((await invite(seller, propertyId)).status).toBe(200);
    const [mail] = await mailTo([list[0]!.email]);
    expect(mail!.subject).toBe(CO_OWNER_INVITATION_SUBJECT);
    expect(mail!.subject).toBe('Invito a verificare la tua identità di comproprietario');
    expect(mail!.body.html).not.toContain('<a href="https://truffa.example">');
    expect(mail!.body.html).toContain('&lt;a href=');
  });
});
