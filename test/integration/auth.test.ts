import { describe, expect, it, beforeAll } from 'vitest';
import { createRequire } from 'node:module';
import path from 'node:path';
import { importJWK, SignJWT, decodeJwt } from 'jose';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  AdminGetUserCommand,
  InitiateAuthCommand,
  ResendConfirmationCodeCommand,
  AdminAddUserToGroupCommand,
  AssociateSoftwareTokenCommand,
  VerifySoftwareTokenCommand,
  SetUserMFAPreferenceCommand,
  RespondToAuthChallengeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  api,
  confirmationCode,
  confirmSignUp,
  idTokenFor,
  sentMail,
  signUp,
  stack,
  tokenForRole,
  totpCode,
  uniqueEmail,
  useStackEnv,
} from '../support/helpers';
import { CONFIRMATION_MAIL_SUBJECT } from '../../functions/domain/auth-mail';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';

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

function cognitoAdmin() {
  return new CognitoIdentityProviderClient({
    endpoint: stack().urls.cognito,
    region: 'eu-south-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
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

  it('does not confirm the account at sign-up: the e-mailed code does, and only then the profile exists', async () => {
    const email = uniqueEmail('daconfermare');
    const res = await signUp({ email, password: 'segreta1', name: 'Paolo Neri', userType: 'venditore' }, { confirm: false });
    expect(res.UserConfirmed).toBe(false);
    expect(res.CodeDeliveryDetails).toMatchObject({ DeliveryMedium: 'EMAIL', Destination: email });
    const admin = cognitoAdmin();
    const user = await admin.send(new AdminGetUserCommand({ UserPoolId: stack().pool.userPoolId, Username: email }));
    expect(user.UserStatus).toBe('UNCONFIRMED');
    expect(user.UserAttributes?.find((a) => a.Name === 'email_verified')?.Value).not.toBe('true');
    // no profile yet, and no sign-in
    const profile = await ddb().send(new GetCommand({ TableName: stack().env.TABLE_NAME, Key: keys.profile(res.UserSub!) }));
    expect(profile.Item).toBeUndefined();
    await expect(
      admin.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack().pool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: 'segreta1' } })),
    ).rejects.toMatchObject({ name: 'UserNotConfirmedException' });

    // the code arrives as an e-mail in the local SES, in Italian
    const mail = (await sentMail({ confirmationCodes: true })).filter((m) => m.destination.to.includes(email));
    expect(mail.map((m) => m.subject)).toEqual([CONFIRMATION_MAIL_SUBJECT]);
    const code = await confirmationCode(email);
    expect(mail[0]!.body.text).toContain(code);

    // a wrong code is refused and changes nothing
    const wrong = code === '000000' ? '111111' : '000000';
    await expect(confirmSignUp(email, wrong)).rejects.toMatchObject({ name: 'CodeMismatchException' });
    expect((await admin.send(new AdminGetUserCommand({ UserPoolId: stack().pool.userPoolId, Username: email }))).UserStatus).toBe('UNCONFIRMED');

    // a resent code replaces the first one
    const before = Date.now();
    await admin.send(new ResendConfirmationCodeCommand({ ClientId: stack().pool.userPoolClientId, Username: email }));
    const second = await confirmationCode(email, { after: before });
    if (second !== code) await expect(confirmSignUp(email, code)).rejects.toMatchObject({ name: 'CodeMismatchException' });
    await confirmSignUp(email, second);

    const after = await admin.send(new AdminGetUserCommand({ UserPoolId: stack().pool.userPoolId, Username: email }));
    expect(after.UserStatus).toBe('CONFIRMED');
    const token = await idTokenFor(email, 'segreta1');
    expect(decodeJwt(token)['cognito:groups']).toEqual(['seller']);
    const me = await api('GET', '/me', { token });
    expect(me.body).toMatchObject({ email, fullName: 'Paolo Neri', userType: 'venditore' });
    // a confirmed account cannot ask for another code
    await expect(
      admin.send(new ResendConfirmationCodeCommand({ ClientId: stack().pool.userPoolClientId, Username: email })),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
    admin.destroy();
  });

  it('refuses a password shorter than 6 characters, as the pool policy does', async () => {
    await expect(signUp({ email: uniqueEmail(), password: '12345', userType: 'venditore' })).rejects.toMatchObject({ name: 'InvalidPasswordException' });
  });

  it('refuses a user type nobody may choose (no self-made admins)', async () => {
    await expect(signUp({ email: uniqueEmail(), password: 'segreta1', userType: 'admin' })).rejects.toMatchObject({ name: 'UserLambdaValidationException' });
  });
});

describe('admins need TOTP MFA', () => {
  beforeAll(() => useStackEnv());

  it('refuses admin routes to an admin without TOTP, then accepts the token issued after the TOTP code', async () => {
    const email = uniqueEmail('nuovo.admin');
    const password = 'Ammin-istra-2026!';
    const res = await signUp({ email, password, name: 'Nuovo Admin', userType: 'venditore' });
    const admin = cognitoAdmin();
    await admin.send(new AdminAddUserToGroupCommand({ UserPoolId: stack().pool.userPoolId, Username: res.UserSub!, GroupName: 'admin' }));
    const login = () =>
      admin.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack().pool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }));

    // no TOTP yet: signed in, but the admin routes answer 403 MFA_REQUIRED; /me says why
    const first = await login();
    const idToken = first.AuthenticationResult!.IdToken!;
    expect(decodeJwt(idToken)['cognito:groups']).toContain('admin');
    expect(decodeJwt(idToken).mfa).toBeUndefined();
    const refused = await api('GET', '/users', { token: idToken });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'MFA_REQUIRED', message: expect.stringContaining('verifica in due passaggi') });
    const me = await api<{ mfaRequired: boolean }>('GET', '/me', { token: idToken });
    expect(me.status).toBe(200);
    expect(me.body.mfaRequired).toBe(true);

    // the authenticator app: associate, verify with a code, make it the MFA
    const accessToken = first.AuthenticationResult!.AccessToken!;
    const { SecretCode } = await admin.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
    await expect(admin.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: '000000' }))).rejects.toMatchObject({
      name: 'CodeMismatchException',
    });
    await admin.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: totpCode(SecretCode!) }));
    await admin.send(new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));

    // from now on Cognito asks for the code at sign-in; a wrong one is refused
    const second = await login();
    expect(second.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    expect(second.AuthenticationResult).toBeUndefined();
    const answer = (code: string) =>
      admin.send(
        new RespondToAuthChallengeCommand({
          ClientId: stack().pool.userPoolClientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: second.Session,
          ChallengeResponses: { USERNAME: second.ChallengeParameters!.USER_ID_FOR_SRP!, SOFTWARE_TOKEN_MFA_CODE: code },
        }),
      );
    const code = totpCode(SecretCode!);
    await expect(answer(code === '000000' ? '111111' : '000000')).rejects.toMatchObject({ name: 'CodeMismatchException' });
    const done = await answer(code);
    const mfaToken = done.AuthenticationResult!.IdToken!;
    expect(decodeJwt(mfaToken).mfa).toBe('totp');
    expect((await api('GET', '/users', { token: mfaToken })).status).toBe(200);
    expect((await api<{ mfaRequired: boolean }>('GET', '/me', { token: mfaToken })).body.mfaRequired).toBe(false);
    admin.destroy();
  });

  it('exempts only the local demo admin (MFA_EXEMPT_EMAILS), and asks nothing of sellers', async () => {
    const adminToken = await tokenForRole('admin');
    expect(decodeJwt(adminToken).mfa).toBe('exempt');
    expect((await api('GET', '/users', { token: adminToken })).status).toBe(200);
    const sellerToken = await tokenForRole('seller');
    expect(decodeJwt(sellerToken).mfa).toBeUndefined();
    expect((await api<{ mfaRequired: boolean }>('GET', '/me', { token: sellerToken })).body.mfaRequired).toBe(false);
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

  it('refuses a token once it expires, though it was accepted before (the gateway keeps verified tokens)', async () => {
    const claims = decodeJwt(await tokenForRole('seller'));
    // expires at the start of the second after next: accepted now, refused once that second begins
    const expiresAt = Math.floor(Date.now() / 1000) + 2;
    const shortLived = await signWithEmulatorKey({ ...claims, exp: undefined, iat: undefined }, expiresAt);
    expect((await api('GET', '/me', { token: shortLived })).status).toBe(200);
    expect((await api('GET', '/me', { token: shortLived })).status).toBe(200);
    await new Promise((r) => setTimeout(r, expiresAt * 1000 - Date.now() + 50));
    expect((await api('GET', '/me', { token: shortLived })).status).toBe(401);
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
