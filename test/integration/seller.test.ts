/**
 * Seller area through the API: GET /seller/properties (only the caller's own properties,
 * newest first, identity state and option summary), PATCH /me/profile and DELETE /me (the
 * whole account: every own property with its dossier items, invitation and S3 objects, the
 * profile and the login). Only fresh sellers are changed, never the demo accounts.
 */
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys } from '../../functions/model/keys';
import type { SellerPropertyList } from '../../functions/domain/seller';
import type { Me } from '../../functions/domain/profile';
import { api, idTokenFor, signUp, stack, tokenForRole, uniqueEmail, useStackEnv } from '../support/helpers';
import { apiFrom, dossier, fullBody, invitationsOf, newClientIp, newId, pngBytes, upload } from '../support/submission';

const TABLE = () => stack().env.TABLE_NAME!;
const BUCKET = () => stack().env.MEDIA_BUCKET!;
const PASSWORD = 'segreta1';
type Err = { message: string; fields?: Record<string, string> };

beforeAll(() => {
  useStackEnv();
});

async function freshSeller(name = 'Venditore Test') {
  const email = uniqueEmail('int.venditore');
  const res = await signUp({ email, password: PASSWORD, name, userType: 'venditore' });
  const token = await idTokenFor(email, PASSWORD);
  return { sub: res.UserSub!, email, token };
}

/** Submits a request through the wizard route with PNG files per room; returns its id and the S3 keys it links. */
async function submit(rooms: number[] = [], overrides: Record<string, unknown> = {}): Promise<{ id: string; keys: string[] }> {
  const id = newId();
  const ip = newClientIp();
  const mediaKeys: string[] = [];
  const roomBodies = [];
  for (const [i, files] of rooms.entries()) {
    const roomId = newId();
    const media = [];
    for (let f = 0; f < files; f++) {
      const form = await upload(ip, id, roomId, `foto ${f + 1}.png`, 'image/png', pngBytes(4, 4));
      media.push({ key: form.key });
      mediaKeys.push(form.key);
    }
    roomBodies.push({ id: roomId, type: i % 2 ? 'bagno' : 'cucina', media });
  }
  const res = await apiFrom(ip, 'POST', '/properties', { ...fullBody(id, roomBodies), ...overrides });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  // what the request links: the submission's copies of the uploads (the uploads themselves are gone)
  const linked = (await dossier(id)).filter((i) => i.entity === 'media').map((i) => String(i.key));
  expect(linked).toHaveLength(mediaKeys.length);
  return { id, keys: linked };
}

/** Links a property to a seller as the invitation claim does: userId and the seller index. */
async function link(propertyId: string, userId: string) {
  const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(propertyId), ConsistentRead: true }))).Item!;
  const index = keys.sellerIndex(userId, item.createdAt as string);
  await ddb().send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: keys.property(propertyId),
      UpdateExpression: 'SET userId = :u, gsi1pk = :pk, gsi1sk = :sk',
      ExpressionAttributeValues: { ':u': userId, ':pk': index.gsi1pk, ':sk': index.gsi1sk },
    }),
  );
  return item;
}

const list = (token?: string) => api<SellerPropertyList & Err>('GET', '/seller/properties', { token });
const profileItem = async (sub: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.profile(sub), ConsistentRead: true }))).Item;
const objectExists = async (key: string) => {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: BUCKET(), Key: key }));
    return true;
  } catch {
    return false;
  }
};

describe('GET /seller/properties', () => {
  it("returns only the caller's own properties, newest first, with identity state, token and option", async () => {
    const seller = await freshSeller();
    const older = await submit([1], { address: 'Via Roma 1', city: 'Milano', province: 'MI' });
    const newer = await submit([], { address: 'Corso Italia 2' });
    const unlinked = await submit();
    await link(older.id, seller.sub);
    await link(newer.id, seller.sub);
    // older: identity item pending, an option; newer: no identity item (not started)
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(older.id), entity: 'identity', status: 'pending' } }));
    await ddb().send(
      new PutCommand({
        TableName: TABLE(),
        Item: { ...keys.option(older.id), entity: 'option', id: 'opt-x', status: 'sent', propertyValue: 300000, optionAmount: 3000, createdAt: '2026-11-20T10:00:00.000Z' },
      }),
    );

    const res = await list(seller.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items.map((p) => p.id)).toEqual([newer.id, older.id]);
    expect(res.body.items.map((p) => p.id)).not.toContain(unlinked.id);
    const [n, o] = res.body.items;
    expect(n).toMatchObject({ address: 'Corso Italia 2', city: 'Milano', province: 'MI', desiredAmount: 320000, identityStatus: 'not_started', option: null });
    // the dashboard opens a property by id: no link token reaches the list
    expect(JSON.stringify(n)).not.toContain('invitationToken');
    expect(o).toMatchObject({ address: 'Via Roma 1', identityStatus: 'pending', option: { status: 'sent', propertyValue: 300000, optionAmount: 3000 } });
    expect(Date.parse(o!.createdAt)).toBeLessThanOrEqual(Date.parse(n!.createdAt));

    // a verified identity item, then the PROPERTY's own identityStatus wins over the item
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(newer.id), entity: 'identity', verificationStatus: 'verified' } }));
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.property(older.id), UpdateExpression: 'SET identityStatus = :s', ExpressionAttributeValues: { ':s': 'verified' } }));
    const again = await list(seller.token);
    expect(again.body.items.map((p) => p.identityStatus)).toEqual(['verified', 'verified']);

    // another fresh seller sees none of them
    const other = await freshSeller('Altro Venditore');
    const theirs = await list(other.token);
    expect(theirs.status).toBe(200);
    expect(theirs.body.items).toEqual([]);
  });

  it('refuses admins and agents (403) and anonymous callers (401)', async () => {
    expect((await list(await tokenForRole('admin'))).status).toBe(403);
    expect((await list(await tokenForRole('agent'))).status).toBe(403);
    const anon = await list();
    expect(anon.status).toBe(401);
    expect(typeof anon.body.message).toBe('string');
  });
});

describe("POST /seller/properties ('Nuova Richiesta')", () => {
  it('stores the request as the caller\'s at once: it is on their dashboard, on nobody else\'s', async () => {
    const seller = await freshSeller();
    const other = await freshSeller('Altro Venditore');
    const id = newId();
    const res = await api<{ propertyId: string; status: string }>('POST', '/seller/properties', {
      token: seller.token,
      body: { ...fullBody(id), address: 'Via Nuova Richiesta 3' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ propertyId: id, status: 'submitted' });
    const stored = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item;
    expect(stored).toMatchObject({ userId: seller.sub, gsi1pk: `SELLER#${seller.sub}` });
    expect((await list(seller.token)).body.items.map((p) => p.id)).toEqual([id]);
    expect((await list(other.token)).body.items).toEqual([]);
  });

  it('validates like the public wizard (400 in Italian, nothing stored) and refuses admins and agents', async () => {
    const seller = await freshSeller();
    const id = newId();
    const bad = await api<{ message: string; fields: Record<string, string> }>('POST', '/seller/properties', {
      token: seller.token,
      body: { ...fullBody(id), address: '' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.address).toBe("Inserisci l'indirizzo dell'immobile per continuare");
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item).toBeUndefined();
    for (const role of ['admin', 'agent'] as const) {
      expect((await api('POST', '/seller/properties', { token: await tokenForRole(role), body: fullBody(newId()) })).status).toBe(403);
    }
  });
});

describe('PATCH /me/profile', () => {
  it("changes the caller's full name and keeps the name index in step; the name is required", async () => {
    const seller = await freshSeller('Nome Vecchio');
    const empty = await api<Err>('PATCH', '/me/profile', { token: seller.token, body: { fullName: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Il nome è obbligatorio');
    expect(empty.body.fields?.fullName).toBe('Il nome è obbligatorio');
    expect((await api<Err>('PATCH', '/me/profile', { token: seller.token, body: {} })).body.message).toBe('Il nome è obbligatorio');

    const res = await api<Me & Err>('PATCH', '/me/profile', { token: seller.token, body: { fullName: '  Élodie Ferri  ' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: seller.sub, fullName: 'Élodie Ferri', email: seller.email, userType: 'venditore' });
    const me = await api<Me>('GET', '/me', { token: seller.token });
    expect(me.body.fullName).toBe('Élodie Ferri');
    const stored = await profileItem(seller.sub);
    expect(stored).toMatchObject({ fullName: 'Élodie Ferri', gsi1pk: 'PROFILES', gsi1sk: `elodie ferri#${seller.sub}` });
  });

  it('is for sellers only', async () => {
    const res = await api<Err>('PATCH', '/me/profile', { token: await tokenForRole('agent'), body: { fullName: 'Agente' } });
    expect(res.status).toBe(403);
  });
});

describe('DELETE /me', () => {
  it('removes every own property (items, invitation, S3 objects), the profile and the login; retry-safe', async () => {
    const seller = await freshSeller('Da Eliminare');
    const a = await submit([2, 1]);
    const b = await submit([1]);
    const survivor = await submit([1]);
    await link(a.id, seller.sub);
    await link(b.id, seller.sub);
    // a dossier file written by another feature (identity document) under the property's prefix
    const identityKey = `${a.id}/identity/front.png`;
    await s3().send(new PutObjectCommand({ Bucket: BUCKET(), Key: identityKey, Body: pngBytes(), ContentType: 'image/png' }));
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(a.id), entity: 'identity', status: 'verified', documentFrontKey: identityKey } }));
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.coOwner(a.id, 'c1'), entity: 'coOwner', id: 'c1', email: 'co@example.it' } }));
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.delegation(b.id, 'catasto'), entity: 'delegation', type: 'catasto' } }));
    const files = [...a.keys, ...b.keys, identityKey];
    expect(files).toHaveLength(5);
    for (const key of files) expect(await objectExists(key)).toBe(true);
    expect((await invitationsOf(a.id)).length).toBe(1);

    // no confirmation: 400 and nothing removed
    const refused = await api<Err>('DELETE', '/me', { token: seller.token, body: {} });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("Conferma l'eliminazione dell'account");
    expect(await profileItem(seller.sub)).toBeDefined();
    expect((await dossier(a.id)).length).toBeGreaterThan(0);

    const res = await api<Err>('DELETE', '/me', { token: seller.token, body: { confirm: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(204);

    for (const id of [a.id, b.id]) {
      expect(await dossier(id)).toEqual([]);
      expect(await invitationsOf(id)).toEqual([]);
    }
    for (const key of files) expect(await objectExists(key)).toBe(false);
    expect(await profileItem(seller.sub)).toBeUndefined();
    // the login is gone: signing in fails
    const cognito = new CognitoIdentityProviderClient({ endpoint: stack().urls.cognito, region: 'eu-south-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await expect(
      cognito.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack().pool.userPoolClientId, AuthParameters: { USERNAME: seller.email, PASSWORD } })),
    ).rejects.toThrow();

    // somebody else's property is untouched
    expect((await dossier(survivor.id)).length).toBeGreaterThan(1);
    for (const key of survivor.keys) expect(await objectExists(key)).toBe(true);

    // a retry (the same still-valid token) finishes without error
    const retry = await api<Err>('DELETE', '/me', { token: seller.token, body: { confirm: true } });
    expect(retry.status, JSON.stringify(retry.body)).toBe(204);
  });

  it('refuses other roles and never touches the demo seller without confirmation', async () => {
    expect((await api('DELETE', '/me', { token: await tokenForRole('admin'), body: { confirm: true } })).status).toBe(403);
    expect((await api('DELETE', '/me', { token: await tokenForRole('agent'), body: { confirm: true } })).status).toBe(403);
    expect((await api('DELETE', '/me', { body: { confirm: true } })).status).toBe(401);
    expect((await api('DELETE', '/me', { token: await tokenForRole('seller'), body: { confirm: 'si' } })).status).toBe(400);
  });
});
