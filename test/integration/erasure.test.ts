/**
 * Account erasure that keeps the contract (GET /me/erasure, DELETE /me): with no option
 * signed or assigned everything goes, co-owner invitations (COINVITE) included; with a
 * signed and assigned option the login and the profile go, while the option, its signed
 * document, the agent's request and payment stay, the property is marked as belonging to an
 * erased account and the back office is mailed. Only fresh sellers, never the demo ones.
 */
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys } from '../../functions/model/keys';
import { tokenExpiryFields } from '../../functions/model/tokens';
import type { ErasurePlan } from '../../functions/domain/seller';
import type { CreateAgentRequestResult } from '../../functions/domain/agent-requests';
import { api, sentMail, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { freshAgent, listedOption } from '../support/agent';
import { freshSeller, giveProperty, ownedProperty, SELLER_PASSWORD } from '../support/seller';
import { newId } from '../support/submission';

const TABLE = () => stack().env.TABLE_NAME!;
const BUCKET = () => stack().env.MEDIA_BUCKET!;
type Err = { message: string };

beforeAll(() => {
  useStackEnv();
});

const item = async (k: { pk: string; sk: string }) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: k, ConsistentRead: true }))).Item;
const objectExists = async (key: string) => {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: BUCKET(), Key: key }));
    return true;
  } catch {
    return false;
  }
};
/** A real sign-in against the user pool (idTokenFor caches tokens). */
const signIn = (email: string) =>
  new CognitoIdentityProviderClient({ endpoint: stack().urls.cognito, region: 'eu-south-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }).send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack().pool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: SELLER_PASSWORD } }),
  );
const plan = (token?: string) => api<ErasurePlan & Err>('GET', '/me/erasure', { token });
const erase = (token: string) => api<Err>('DELETE', '/me', { token, body: { confirm: true } });

/** A co-owner invitation of the property, as recordCoOwnerInvitations writes it (in the token expiry index). */
async function coInvite(propertyId: string): Promise<{ pk: string; sk: string }> {
  const token = newId();
  await ddb().send(
    new PutCommand({
      TableName: TABLE(),
      Item: { ...keys.coOwnerInvitation(token), entity: 'coOwnerInvitation', propertyId, coOwnerId: newId(), email: `comproprietario.${token.slice(0, 8)}@example.it`, createdAt: new Date().toISOString(), ...tokenExpiryFields() },
    }),
  );
  return keys.coOwnerInvitation(token);
}

describe('GET /me/erasure and DELETE /me without a signed option', () => {
  it('tells the full case, then erases everything, the co-owner invitations included, and the login', async () => {
    const seller = await freshSeller();
    const id = await ownedProperty(seller.userId);
    const invite = await coInvite(id);
    // another seller's property and its invitation must survive
    const other = await freshSeller();
    const otherId = await ownedProperty(other.userId);
    const otherInvite = await coInvite(otherId);

    const before = await plan(seller.token);
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.case).toBe('full');
    expect(before.body.keptProperties).toEqual([]);
    expect(before.body.erased).toContain('i comproprietari e i loro inviti');
    expect(before.body.kept.join(' ')).toContain('per 30 giorni');
    expect(before.body.sentMailRetentionDays).toBe(30);

    const res = await erase(seller.token);
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(await item(keys.property(id))).toBeUndefined();
    expect(await item(invite)).toBeUndefined();
    expect(await item(keys.profile(seller.userId))).toBeUndefined();
    await expect(signIn(seller.email)).rejects.toThrow();

    expect(await item(keys.property(otherId))).toMatchObject({ userId: other.userId });
    expect(await item(otherInvite)).toBeDefined();
    expect((await plan(other.token)).body.case).toBe('full');
  });

  it('is for sellers only (403), signed in (401)', async () => {
    expect((await plan(await tokenForRole('admin'))).status).toBe(403);
    expect((await plan(await tokenForRole('agent'))).status).toBe(403);
    expect((await plan()).status).toBe(401);
  });
});

describe('DELETE /me with a signed option assigned to an agent', () => {
  it('keeps the contract (option, signed PDF, agent request, payment), marks the property, mails the back office, removes login and profile', async () => {
    const seller = await freshSeller();
    const option = await listedOption();
    const id = option.propertyId;
    await giveProperty(id, seller.userId);

    // an agent asks, the admin approves, the payment is received: the option is the agent's
    const agent = await freshAgent();
    const admin = await tokenForRole('admin');
    const created = await api<CreateAgentRequestResult & Err>('POST', `/agent/options/${id}/requests`, { token: agent.token, body: { commissionPercentage: 3 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const requestId = created.body.request.id;
    expect((await api('POST', `/admin/agent-requests/${requestId}/approve`, { token: admin })).status).toBe(200);
    expect((await api('POST', `/admin/agent-requests/${requestId}/paid`, { token: admin })).status).toBe(200);

    // the seller signed the option
    const signedKey = `${id}/option/signed-${Date.now()}.pdf`;
    await s3().send(new PutObjectCommand({ Bucket: BUCKET(), Key: signedKey, Body: Buffer.from('%PDF-1.4 firmato'), ContentType: 'application/pdf' }));
    const at = new Date().toISOString();
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.property(id), UpdateExpression: 'SET optionSignedAt = :at', ExpressionAttributeValues: { ':at': at } }));
    await ddb().send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: keys.option(id),
        UpdateExpression: 'SET signedAt = :at, signedDocumentKey = :k',
        ExpressionAttributeValues: { ':at': at, ':k': signedKey },
      }),
    );
    const invite = await coInvite(id);
    // an unsigned property of the same seller goes whole
    const unsigned = await ownedProperty(seller.userId);

    const before = await plan(seller.token);
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.case).toBe('contract');
    expect(before.body.keptProperties.map((p) => p.id)).toEqual([id]);
    expect(before.body.kept.join(' ')).toContain("l'opzione di acquisto con il documento firmato");
    expect(before.body.kept.join(' ')).toContain('per 30 giorni');

    const res = await erase(seller.token);
    expect(res.status, JSON.stringify(res.body)).toBe(204);

    // the login and the profile are gone
    await expect(signIn(seller.email)).rejects.toThrow();
    expect(await item(keys.profile(seller.userId))).toBeUndefined();
    // the contract stays
    const property = await item(keys.property(id));
    expect(property).toMatchObject({ erasedUserId: seller.userId, optionSignedAt: at });
    expect(typeof property!.erasedAccountAt).toBe('string');
    expect(property!.userId).toBeUndefined();
    expect(property!.gsi1pk).toBeUndefined();
    expect(property!.deletingAt).toBeUndefined();
    expect(await item(keys.option(id))).toMatchObject({ assignedAgentId: agent.userId, signedDocumentKey: signedKey });
    expect(await objectExists(signedKey)).toBe(true);
    expect(await item(keys.identity(id))).toMatchObject({ status: 'verified' });
    expect(await item(keys.delegation(id, 'catasto'))).toBeDefined();
    expect(await item(keys.agentRequest(id, agent.userId))).toMatchObject({ id: requestId, status: 'paid', paidVia: 'bonifico' });
    // what the contract does not need goes
    expect(await item(invite)).toBeUndefined();
    expect(await item(keys.property(unsigned))).toBeUndefined();
    // the back office is told, through the outbox
    const outbox = await item(keys.outbox(`erased-account-${id}`));
    expect(outbox).toMatchObject({ kind: 'seller-account-erased', ref: id, mail: { to: [stack().env.BACKOFFICE_EMAIL ?? 'backoffice@opzionecasa.it'] } });
    const mails = (await sentMail()).filter((m) => m.subject.startsWith('Account venditore eliminato') && (m.body.text ?? '').includes(id));
    expect(mails).toHaveLength(1);
    // the admin's dossier says the account was erased, and when
    const dossier = await api<{ property: { erasedAccountAt: string | null; userId: string | null } }>('GET', `/admin/properties/${id}`, { token: await tokenForRole('admin') });
    expect(dossier.status).toBe(200);
    expect(dossier.body.property).toMatchObject({ erasedAccountAt: property!.erasedAccountAt, userId: null });
    // the agent still has the option in charge
    const assigned = await api<{ items: { propertyId: string }[] }>('GET', '/agent/options/assigned', { token: agent.token });
    expect(assigned.body.items.some((o) => o.propertyId === id)).toBe(true);

    // a retry with the old token changes nothing more and mails nobody again
    const retry = await erase(seller.token);
    expect([204, 401]).toContain(retry.status);
    expect(await item(keys.agentRequest(id, agent.userId))).toMatchObject({ status: 'paid' });
    expect((await sentMail()).filter((m) => m.subject.startsWith('Account venditore eliminato') && (m.body.text ?? '').includes(id))).toHaveLength(1);
  });
});
