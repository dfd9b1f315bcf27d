import { describe, expect, it, beforeAll } from 'vitest';
import { createRequire } from 'node:module';
import path from 'node:path';
import { importJWK, SignJWT, decodeJwt } from 'jose';
import { CognitoIdentityProviderClient, CreateUserPoolClientCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { api, idTokenFor, signUp, stack, tokenForRole, uniqueEmail, useStackEnv } from '../support/helpers';
import { ddb } from '../../functions/lib/aws/ddb';
import { keys } from '../../functions/lib/keys';

const require = createRequire(import.meta.url);

/** Signs a token with the emulator's own key (the key cognito-local signs every token with). */
async function signWithEmulatorKey(claims: Record<string, unknown>, expiresAtSec: number) {
  const dir = path.dirname(require.resolve('cognito-local/package.json'));
  const { jwk } = require(path.join(dir, 'lib/keys/cognitoLocal.private.json')) as { jwk: { kid?: string } };
  const key = await importJWK(jwk as never, 'RS256');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid ?? 'CognitoLocal' })
    .setIssuedAt(expiresAtSec - 3600)
    .setExpirationTime(expiresAtSec)
    .sign(key);
}

describe('sign-up', () => {
  beforeAll(() => useStackEnv());

  it('creates the profile with full name, user type and phone, and adds the seller group', async () => {
    const email = uniqueEmail('venditore');
    const res = await signUp({ email, password: 'segreta1', name: 'Anna Gialli', userType: 'venditore', phone: '+393331112233' });
    expect(res.UserConfirmed).toBe(true);
    const token = await idTokenFor(email, 'segreta1');
    expect(decodeJwt(token)['cognito:groups']).toEqual(['seller']);
    const me = await api('GET', '/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, fullName: 'Anna Gialli', userType: 'venditore', phone: '+393331112233', groups: ['seller'] });
    const item = await ddb().send(new GetCommand({ TableName: stack().env.TABLE_NAME, Key: keys.profile(res.UserSub!) }));
    expect(item.Item).toMatchObject({ entity: 'profile', userType: 'venditore', fullName: 'Anna Gialli' });
  });

  it('leaves a self-registered agent pending, without the agent group, until an admin approves', async () => {
    const email = uniqueEmail('agente');
    await signUp({ email, password: 'segreta1', userType: 'agente_immobiliare' });
    const token = await idTokenFor(email, 'segreta1');
    const me = await api('GET', '/me', { token });
    expect(me.body).toMatchObject({ userType: 'agente_immobiliare', agentStatus: 'pending', groups: [], fullName: '' });
    expect(decodeJwt(token)['cognito:groups'] ?? []).toEqual([]);
  });

  it('refuses a password shorter than 6 characters, as the pool policy does', async () => {
    await expect(signUp({ email: uniqueEmail(), password: '12345', userType: 'venditore' })).rejects.toMatchObject({ name: 'InvalidPasswordException' });
  });

  it('refuses a user type nobody may choose (no self-made admins)', async () => {
    await expect(signUp({ email: uniqueEmail(), password: 'segreta1', userType: 'admin' })).rejects.toMatchObject({ name: 'UserLambdaValidationException' });
  });
});

describe('local gateway token checks (as the JWT authorizer)', () => {
  it('accepts a valid token', async () => {
    const res = await api('GET', '/me', { token: await tokenForRole('seller') });
    expect(res.status).toBe(200);
  });

  it('rejects a missing token with 401 and an Italian message', async () => {
    const res = await api('GET', '/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: 'Accesso richiesto' });
  });

  it('rejects a tampered token', async () => {
    const token = await tokenForRole('seller');
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    claims['cognito:groups'] = ['admin'];
    const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
    expect((await api('GET', '/me', { token: forged })).status).toBe(401);
  });

  it('rejects an expired token signed with the right key', async () => {
    const claims = decodeJwt(await tokenForRole('seller'));
    const now = Math.floor(Date.now() / 1000);
    const expired = await signWithEmulatorKey({ ...claims, exp: undefined, iat: undefined }, now - 60);
    expect((await api('GET', '/me', { token: expired })).status).toBe(401);
    // the same claims with a future expiry pass: the key and claims are right, only the expiry differs
    const fresh = await signWithEmulatorKey({ ...claims, exp: undefined, iat: undefined }, now + 600);
    expect((await api('GET', '/me', { token: fresh })).status).toBe(200);
  });

  it('rejects a token issued to another app client', async () => {
    const client = new CognitoIdentityProviderClient({ endpoint: stack().urls.cognito, region: 'eu-south-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
    const other = await client.send(
      new CreateUserPoolClientCommand({ UserPoolId: stack().pool.userPoolId, ClientName: `altro-${Date.now()}`, ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH'] }),
    );
    const seller = stack().accounts.find((a) => a.role === 'seller')!;
    const token = await idTokenFor(seller.email, seller.password, other.UserPoolClient!.ClientId!);
    expect(decodeJwt(token).aud).toBe(other.UserPoolClient!.ClientId);
    expect((await api('GET', '/me', { token })).status).toBe(401);
  });

  it('rejects a token from another issuer', async () => {
    const claims = decodeJwt(await tokenForRole('seller'));
    const token = await signWithEmulatorKey({ ...claims, iss: 'http://127.0.0.1:1/other_pool', exp: undefined, iat: undefined }, Math.floor(Date.now() / 1000) + 600);
    expect((await api('GET', '/me', { token })).status).toBe(401);
  });

  it('answers 404 with an Italian message for an unknown route', async () => {
    const res = await api('GET', '/non-esiste');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: 'Risorsa non trovata' });
  });
});
