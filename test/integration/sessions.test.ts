/**
 * A removed right is removed now (docs/users.md, "Sessioni"): the server decides from its own
 * record whether a token still counts. A demoted admin's old token, a deleted user's token
 * and a pending agent's token from before the approval are refused with 401 SESSION_EXPIRED;
 * a token issued after the change works with the new groups; nobody changes their own role;
 * an e-mail typed into one's own Cognito account (UpdateUserAttributes) is not the e-mail the
 * server trusts until it is confirmed (keepOriginal).
 */
import {
  AssociateSoftwareTokenCommand,
  AdminListGroupsForUserCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  SetUserMFAPreferenceCommand,
  UpdateUserAttributesCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_EXPIRED_CODE, SESSION_EXPIRED_MESSAGE } from '../../functions/domain/roles';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { SESSION_CACHE_MS } from '../../functions/model/session';
import { newToken } from '../../functions/model/tokens';
import { api, signUp, stack, tokenForRole, totpCode, uniqueEmail, useStackEnv } from '../support/helpers';
import { apiFrom, fullBody, newClientIp, newId } from '../support/submission';

const PASSWORD = 'Sessione-prova-2026!';
const TABLE = () => stack().env.TABLE_NAME!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** JWT iat has a one-second grain: a change and a sign-in in different seconds */
const nextSecond = () => sleep(1_100);

let cognito: CognitoIdentityProviderClient;
let admin: string;

beforeAll(async () => {
  useStackEnv();
  cognito = new CognitoIdentityProviderClient({
    endpoint: stack().urls.cognito,
    region: 'eu-south-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  admin = await tokenForRole('admin');
});
afterAll(() => cognito.destroy());

const login = (email: string) =>
  cognito.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack().pool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: PASSWORD } }));

const refresh = async (refreshToken: string) =>
  (await cognito.send(new InitiateAuthCommand({ AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: stack().pool.userPoolClientId, AuthParameters: { REFRESH_TOKEN: refreshToken } })))
    .AuthenticationResult!;

async function groupsOf(sub: string): Promise<string[]> {
  const res = await cognito.send(new AdminListGroupsForUserCommand({ UserPoolId: stack().pool.userPoolId, Username: sub }));
  return (res.Groups ?? []).map((g) => g.GroupName!).sort();
}

function expectSessionExpired(res: { status: number; body: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body).toEqual({ error: SESSION_EXPIRED_CODE, message: SESSION_EXPIRED_MESSAGE });
}

/** A fresh seller made admin by the demo admin through the API, with TOTP set up: its admin token (after the TOTP code). */
async function freshAdmin(): Promise<{ sub: string; email: string; token: string }> {
  const email = uniqueEmail('admin.sessione');
  const res = await signUp({ email, password: PASSWORD, name: 'Admin Di Prova', userType: 'venditore' });
  const sub = res.UserSub!;
  const promoted = await api('PUT', `/users/${sub}/role`, { token: admin, body: { role: 'admin' } });
  expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
  await nextSecond();
  const first = (await login(email)).AuthenticationResult!;
  const { SecretCode } = await cognito.send(new AssociateSoftwareTokenCommand({ AccessToken: first.AccessToken! }));
  await cognito.send(new VerifySoftwareTokenCommand({ AccessToken: first.AccessToken!, UserCode: totpCode(SecretCode!) }));
  await cognito.send(new SetUserMFAPreferenceCommand({ AccessToken: first.AccessToken!, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
  const second = await login(email);
  const done = await cognito.send(
    new RespondToAuthChallengeCommand({
      ClientId: stack().pool.userPoolClientId,
      ChallengeName: 'SOFTWARE_TOKEN_MFA',
      Session: second.Session,
      ChallengeResponses: { USERNAME: second.ChallengeParameters!.USER_ID_FOR_SRP!, SOFTWARE_TOKEN_MFA_CODE: totpCode(SecretCode!) },
    }),
  );
  const token = done.AuthenticationResult!.IdToken!;
  expect(decodeJwt(token)).toMatchObject({ mfa: 'totp', 'cognito:groups': expect.arrayContaining(['admin']) });
  return { sub, email, token };
}

describe('a demoted admin', () => {
  it("keeps no admin right: the old token gets 401 on GET /users and cannot promote itself back", async () => {
    const demoted = await freshAdmin();
    expect((await api('GET', '/users', { token: demoted.token })).status).toBe(200);
    await nextSecond();

    const down = await api('PUT', `/users/${demoted.sub}/role`, { token: admin, body: { role: 'user' } });
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    expect(await groupsOf(demoted.sub)).toEqual(['seller']);

    // every container forgets what it read within SESSION_CACHE_MS
    await sleep(SESSION_CACHE_MS + 200);
    expectSessionExpired(await api('GET', '/users', { token: demoted.token }));
    expectSessionExpired(await api('PUT', `/users/${demoted.sub}/role`, { token: demoted.token, body: { role: 'admin' } }));
    expectSessionExpired(await api('GET', '/me', { token: demoted.token }));
    expect(await groupsOf(demoted.sub)).toEqual(['seller']);
  });
});

describe('a deleted user', () => {
  it("a deleted admin's token gets 401 on GET /users and POST /sources, and creates nothing", async () => {
    const gone = await freshAdmin();
    const del = await api('DELETE', `/users/${gone.sub}`, { token: admin });
    expect(del.status, JSON.stringify(del.body)).toBe(204);
    expectSessionExpired(await api('GET', '/users', { token: gone.token }));
    const name = `Fonte di un admin eliminato ${newId().slice(0, 6)}`;
    expectSessionExpired(await api('POST', '/sources', { token: gone.token, body: { name } }));
    const sources = await api<{ items: { name: string }[] }>('GET', '/sources', { token: admin });
    expect(sources.body.items.some((s) => s.name === name)).toBe(false);
  });

  it("a deleted seller's token cannot create a property (POST /seller/properties)", async () => {
    const email = uniqueEmail('venditore.eliminato');
    const res = await signUp({ email, password: PASSWORD, name: 'Venditore Eliminato', userType: 'venditore' });
    const token = (await login(email)).AuthenticationResult!.IdToken!;
    const del = await api('DELETE', `/users/${res.UserSub}`, { token: admin });
    expect(del.status, JSON.stringify(del.body)).toBe(204);

    const draftId = newId();
    const created = await apiFrom(newClientIp(), 'POST', '/seller/properties', fullBody(draftId), { authorization: `Bearer ${token}` });
    expectSessionExpired(created);
    const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(draftId), ConsistentRead: true }))).Item;
    expect(item).toBeUndefined();
    expectSessionExpired(await api('GET', '/me', { token }));
  });
});

describe('an agent approved while signed in', () => {
  it("the token from before the approval is refused; the refreshed one carries the agent group and works", async () => {
    const email = uniqueEmail('agente.sessione');
    const res = await signUp({ email, password: PASSWORD, name: 'Agente In Attesa', userType: 'agente_immobiliare' });
    const before = (await login(email)).AuthenticationResult!;
    expect((await api('GET', '/agent/options', { token: before.IdToken! })).status).toBe(403);
    await nextSecond();

    const approved = await api('POST', `/users/${res.UserSub}/agent-approval`, { token: admin, body: { decision: 'approve' } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expectSessionExpired(await api('GET', '/me', { token: before.IdToken! }));
    expectSessionExpired(await api('GET', '/agent/options', { token: before.IdToken! }));

    // what the SPA does on SESSION_EXPIRED (fetchAuthSession forceRefresh): the refresh token gives a new ID token
    const refreshed = await refresh(before.RefreshToken!);
    expect(decodeJwt(refreshed.IdToken!)['cognito:groups']).toEqual(['agent']);
    const options = await api('GET', '/agent/options', { token: refreshed.IdToken! });
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    expect((await api<{ agentStatus: string }>('GET', '/me', { token: refreshed.IdToken! })).body.agentStatus).toBe('approved');
  });
});

describe('nobody changes their own role', () => {
  it('refuses an admin promoting or demoting themselves (409, Italian), groups unchanged', async () => {
    const self = await freshAdmin();
    for (const role of ['user', 'admin']) {
      const res = await api<{ message: string }>('PUT', `/users/${self.sub}/role`, { token: self.token, body: { role } });
      expect(res.status, role).toBe(409);
      expect(res.body.message).toBe('Non puoi cambiare il tuo ruolo: chiedi a un altro amministratore');
    }
    expect(await groupsOf(self.sub)).toEqual(['admin', 'seller']);
    // and the token still works: a refusal changes nothing
    expect((await api('GET', '/users', { token: self.token })).status).toBe(200);
  });
});

describe('an e-mail typed into one\'s own account', () => {
  it('does not change the e-mail the server trusts: a co-owner link stays closed to whoever types the invited address', async () => {
    // a property with a co-owner invited at an address nobody has yet
    const id = newId();
    const submitted = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(id), email: uniqueEmail('contatto') });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    const invitedEmail = uniqueEmail('comproprietario');
    const coOwnerId = newId();
    const coToken = newToken();
    const now = new Date().toISOString();
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.coOwner(id, coOwnerId), entity: 'coOwner', propertyId: id, id: coOwnerId, email: invitedEmail, fullName: 'Anna Invitata', share: 50, invitedAt: now, verifiedAt: null } }));
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.coOwnerInvitation(coToken), entity: 'coOwnerInvitation', propertyId: id, coOwnerId, email: invitedEmail, createdAt: now, expiresAt: Math.floor(Date.now() / 1000) + 3600 } }));

    // the attacker, a seller, types the invited address into their own login
    const attackerEmail = uniqueEmail('attaccante');
    await signUp({ email: attackerEmail, password: PASSWORD, name: 'Attaccante', userType: 'venditore' });
    const signedIn = (await login(attackerEmail)).AuthenticationResult!;
    await cognito.send(new UpdateUserAttributesCommand({ AccessToken: signedIn.AccessToken!, UserAttributes: [{ Name: 'email', Value: invitedEmail }] }));

    // the login keeps the verified address until the code sent to the new one is confirmed
    const after = (await login(attackerEmail)).AuthenticationResult!.IdToken!;
    expect(decodeJwt(after).email).toBe(attackerEmail);
    const kyc = await api<{ message: string }>('GET', `/seller/kyc?token=${encodeURIComponent(coToken)}`, { token: after });
    expect(kyc.status, JSON.stringify(kyc.body)).toBe(404);
    expect(kyc.body.message).toBe('Proprietà non trovata o link scaduto');
  });
});
