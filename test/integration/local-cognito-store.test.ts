/**
 * The local Cognito's store (infra/local/emulators.ts, keepStoreWrites): on disk (npm start)
 * every account made through the API is still there after a restart from the same folder,
 * also when many were made at once (their saves overlap and are written together), and the
 * pool's file is whole JSON; in memory (the test stacks) the accounts work but are not written.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  AdminConfirmSignUpCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  InitiateAuthCommand,
  ListUsersCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startCognito } from '../../infra/local/emulators';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'local-cognito-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cognitoAt(folder: string, persist: boolean) {
  const port = await freePort();
  const running = await startCognito({ port, dir: folder, lambdaEndpoint: 'http://127.0.0.1:1', triggerFunctions: {}, minPasswordLength: 8, persist });
  const client = new CognitoIdentityProviderClient({ endpoint: running.url, region: 'eu-south-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  return { running, client };
}

const PASSWORD = 'Password-2026';

/** A pool and client, then `count` accounts signed up, confirmed and signed in, all at once. */
async function accounts(client: CognitoIdentityProviderClient, count: number) {
  const pool = (await client.send(new CreateUserPoolCommand({ PoolName: 'prova', UsernameAttributes: ['email'] }))).UserPool!.Id!;
  const app = (await client.send(new CreateUserPoolClientCommand({ UserPoolId: pool, ClientName: 'spa' }))).UserPoolClient!.ClientId!;
  const emails = Array.from({ length: count }, (_, i) => `utente.${i}@example.it`);
  await Promise.all(
    emails.map(async (email) => {
      await client.send(new SignUpCommand({ ClientId: app, Username: email, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: email }] }));
      await client.send(new AdminConfirmSignUpCommand({ UserPoolId: pool, Username: email }));
      await client.send(new InitiateAuthCommand({ ClientId: app, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD } }));
    }),
  );
  return { pool, app, emails };
}

const usersOf = async (client: CognitoIdentityProviderClient, pool: string) =>
  ((await client.send(new ListUsersCommand({ UserPoolId: pool }))).Users ?? []).map((u) => u.Attributes?.find((a) => a.Name === 'email')?.Value).sort();

describe('local Cognito store', () => {
  it('on disk: 20 accounts made at once are all there after a restart, and the file is whole', async () => {
    const folder = path.join(dir, 'disk');
    const first = await cognitoAt(folder, true);
    const { pool, app, emails } = await accounts(first.client, 20);
    first.client.destroy();
    await first.running.stop();

    const file = JSON.parse(await readFile(path.join(folder, 'db', `${pool}.json`), 'utf8')) as { Users: Record<string, unknown> };
    expect(Object.keys(file.Users)).toHaveLength(20);

    const second = await cognitoAt(folder, true);
    try {
      expect(await usersOf(second.client, pool)).toEqual([...emails].sort());
      const signedIn = await second.client.send(new InitiateAuthCommand({ ClientId: app, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: emails[7]!, PASSWORD } }));
      expect(signedIn.AuthenticationResult?.IdToken).toBeTruthy();
    } finally {
      second.client.destroy();
      await second.running.stop();
    }
  });

  it('in memory: the accounts work while it runs, and no change is written to the folder', async () => {
    const folder = path.join(dir, 'memory');
    const { running, client } = await cognitoAt(folder, false);
    try {
      const { pool, emails } = await accounts(client, 5);
      expect(await usersOf(client, pool)).toEqual([...emails].sort());
      const written = JSON.parse(await readFile(path.join(folder, 'db', `${pool}.json`), 'utf8')) as { Users?: Record<string, unknown> };
      expect(Object.keys(written.Users ?? {})).toEqual([]);
      expect((await readdir(path.join(folder, 'db'))).sort()).toEqual(['clients.json', `${pool}.json`].sort());
    } finally {
      client.destroy();
      await running.stop();
    }
  });
});
