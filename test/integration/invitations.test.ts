import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { api, idTokenFor, signUp, stack, tokenForRole, uniqueEmail, useStackEnv } from '../support/helpers';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { newToken } from '../../functions/model/tokens';

/** A submitted property with its invitation token, as the submission use case stores it. */
async function givenProperty(opts: { expiresInSec?: number } = {}) {
  const id = randomUUID();
  const token = newToken();
  const createdAt = new Date().toISOString();
  const table = stack().env.TABLE_NAME!;
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: table, Item: { ...keys.property(id), ...keys.propertyIndexes({ createdAt }), entity: 'property', id, createdAt, invitationToken: token, address: 'Via Roma 1' } } },
        { Put: { TableName: table, Item: { ...keys.invitation(token), entity: 'invitation', propertyId: id, expiresAt: Math.floor(Date.now() / 1000) + (opts.expiresInSec ?? 3600) } } },
      ],
    }),
  );
  return { id, token };
}

describe('claiming an invitation link', () => {
  beforeAll(() => useStackEnv());

  it('links the property to the signed-in seller', async () => {
    const { id, token } = await givenProperty();
    const res = await api('POST', '/invitations/claim', { token: await tokenForRole('seller'), body: { token } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ propertyId: id, token });
    const item = await ddb().send(new GetCommand({ TableName: stack().env.TABLE_NAME, Key: keys.property(id) }));
    const sellerId = (await api<{ id: string }>('GET', '/me', { token: await tokenForRole('seller') })).body.id;
    expect(item.Item).toMatchObject({ userId: sellerId, gsi1pk: `SELLER#${sellerId}` });
    // claiming again is harmless
    expect((await api('POST', '/invitations/claim', { token: await tokenForRole('seller'), body: { token } })).status).toBe(200);
  });

  it('refuses an expired link with the spec message and changes nothing', async () => {
    const { id, token } = await givenProperty({ expiresInSec: -10 });
    const res = await api('POST', '/invitations/claim', { token: await tokenForRole('seller'), body: { token } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: 'Proprietà non trovata o link scaduto' });
    const item = await ddb().send(new GetCommand({ TableName: stack().env.TABLE_NAME, Key: keys.property(id) }));
    expect(item.Item?.userId).toBeUndefined();
  });

  it('refuses an unknown or malformed token', async () => {
    const seller = await tokenForRole('seller');
    const unknown = await api('POST', '/invitations/claim', { token: seller, body: { token: newToken() } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ message: 'Proprietà non trovata o link scaduto' });
    const bad = await api('POST', '/invitations/claim', { token: seller, body: { token: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: 'Link non valido' });
  });

  it('does not let a second seller take a property already linked to someone else', async () => {
    const { id, token } = await givenProperty();
    expect((await api('POST', '/invitations/claim', { token: await tokenForRole('seller'), body: { token } })).status).toBe(200);
    const email = uniqueEmail('altro');
    await signUp({ email, password: 'segreta1', userType: 'venditore', name: 'Altro Venditore' });
    const other = await idTokenFor(email, 'segreta1');
    const res = await api('POST', '/invitations/claim', { token: other, body: { token } });
    expect(res.status).toBe(404);
    const item = await ddb().send(new GetCommand({ TableName: stack().env.TABLE_NAME, Key: keys.property(id) }));
    expect(item.Item?.userId).not.toBe((await api<{ id: string }>('GET', '/me', { token: other })).body.id);
  });

  it("answers another seller's claim of a live link exactly as an unknown or expired one: nothing reveals the link is live", async () => {
    const { id, token } = await givenProperty();
    expect((await api('POST', '/invitations/claim', { token: await tokenForRole('seller'), body: { token } })).status).toBe(200);
    const email = uniqueEmail('altro');
    await signUp({ email, password: 'segreta1', userType: 'venditore', name: 'Altro Venditore' });
    const other = await idTokenFor(email, 'segreta1');
    const before = (await ddb().send(new GetCommand({ TableName: stack().env.TABLE_NAME, Key: keys.property(id), ConsistentRead: true }))).Item;

    const live = await api('POST', '/invitations/claim', { token: other, body: { token } });
    const unknown = await api('POST', '/invitations/claim', { token: other, body: { token: newToken() } });
    const expired = await api('POST', '/invitations/claim', { token: other, body: { token: (await givenProperty({ expiresInSec: -10 })).token } });
    expect(live.status).toBe(404);
    expect(live.body).toEqual({ error: 'NOT_FOUND', message: 'Proprietà non trovata o link scaduto' });
    expect(live).toEqual(unknown);
    expect(live).toEqual(expired);
    // the KYC route answers the same
    const kyc = await api('GET', `/seller/kyc?token=${encodeURIComponent(token)}`, { token: other });
    expect(kyc).toEqual(live);
    // and nothing changed: the property is still the first seller's
    const after = (await ddb().send(new GetCommand({ TableName: stack().env.TABLE_NAME, Key: keys.property(id), ConsistentRead: true }))).Item;
    expect(after).toEqual(before);
  });

  it('does not link a property being deleted, and answers as for an unknown link', async () => {
    const { id, token } = await givenProperty();
    const table = stack().env.TABLE_NAME!;
    await ddb().send(new UpdateCommand({ TableName: table, Key: keys.property(id), UpdateExpression: 'SET deletingAt = :at', ExpressionAttributeValues: { ':at': new Date().toISOString() } }));
    const res = await api('POST', '/invitations/claim', { token: await tokenForRole('seller'), body: { token } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'NOT_FOUND', message: 'Proprietà non trovata o link scaduto' });
    const item = (await ddb().send(new GetCommand({ TableName: table, Key: keys.property(id), ConsistentRead: true }))).Item;
    expect(item?.userId).toBeUndefined();
  });
  it('a seller deleted by an admin: the property stays unlinked and the link e-mailed to them claims nothing any more', async () => {
    const { id, token } = await givenProperty();
    const table = stack().env.TABLE_NAME!;
    const email = uniqueEmail('eliminato');
    await signUp({ email, password: 'segreta1', userType: 'venditore', name: 'Venditore Eliminato' });
    const seller = await idTokenFor(email, 'segreta1');
    expect((await api('POST', '/invitations/claim', { token: seller, body: { token } })).status).toBe(200);
    const sellerId = (await api<{ id: string }>('GET', '/me', { token: seller })).body.id;
    const removed = await api('DELETE', `/users/${sellerId}`, { token: await tokenForRole('admin') });
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    const unlinked = (await ddb().send(new GetCommand({ TableName: table, Key: keys.property(id), ConsistentRead: true }))).Item!;
    expect(unlinked.userId).toBeUndefined();
    expect(unlinked.invitationToken).toBeUndefined();
    expect((await ddb().send(new GetCommand({ TableName: table, Key: keys.invitation(token), ConsistentRead: true }))).Item).toBeUndefined();

    // the same person signing up again, or anyone holding the e-mail: the old link is gone
    const again = uniqueEmail('rientrato');
    await signUp({ email: again, password: 'segreta1', userType: 'venditore', name: 'Venditore Rientrato' });
    const res = await api('POST', '/invitations/claim', { token: await idTokenFor(again, 'segreta1'), body: { token } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'NOT_FOUND', message: 'Proprietà non trovata o link scaduto' });
    expect((await ddb().send(new GetCommand({ TableName: table, Key: keys.property(id), ConsistentRead: true }))).Item!.userId).toBeUndefined();
  });
});
