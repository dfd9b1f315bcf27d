/**
 * Idempotent setup of the local resources: the table with its GSIs, the user pool with
 * its app client and groups, the IP hash salt of the data folder. Buckets (with CORS for the SPA origin) are configured when
 * s3rver starts. Running it again changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import {
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListGroupsCommand,
  ListUserPoolClientsCommand,
  SetUserPoolMfaConfigCommand,
  ListUserPoolsCommand,
  AdminUpdateUserAttributesCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { TABLE_GSIS, TABLE_KEYS, TTL_ATTRIBUTE } from '../../functions/model/table';
import { GROUPS, MIN_PASSWORD_LENGTH } from '../../functions/domain/roles';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
export const LOCAL_REGION = 'eu-south-1';

export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const ddb = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials });
  try {
    await ddb.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  const attrs = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
  const gsis: GlobalSecondaryIndex[] = TABLE_GSIS.map((g) => {
    attrs.add(g.partitionKey);
    attrs.add(g.sortKey);
    return {
      IndexName: g.indexName,
      KeySchema: [
        { AttributeName: g.partitionKey, KeyType: 'HASH' },
        { AttributeName: g.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    };
  });
  await ddb.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attrs].map((a) => ({ AttributeName: a, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: gsis,
    }),
  );
  await ddb
    .send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }))
    .catch(() => undefined);
  ddb.destroy();
}

/**
 * The salt of the per-IP rate limit's client hash (IP_HASH_SALT, functions/model/rate-limit.ts)
 * for a local data folder: made once (32 random bytes) in `{dir}/ip-hash-salt`, readable by
 * the user only, and kept across restarts, as a deployment keeps its salt on AWS. Another
 * folder (a test run's temporary one) gets another salt.
 */
export async function ensureIpHashSalt(dir: string): Promise<string> {
  const file = path.join(dir, 'ip-hash-salt');
  const existing = await readFile(file, 'utf8').then((s) => s.trim(), () => '');
  if (/^[A-Za-z0-9_-]{32,}$/.test(existing)) return existing;
  await mkdir(dir, { recursive: true });
  const salt = randomBytes(32).toString('base64url');
  await writeFile(file, `${salt}\n`, { mode: 0o600 });
  return salt;
}

export function corsXml(origins: string[]): string {
  const allowed = origins.map((o) => `<AllowedOrigin>${o}</AllowedOrigin>`).join('');
  return `<CORSConfiguration><CORSRule>${allowed}<AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>POST</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
}

export interface PoolIds {
  userPoolId: string;
  userPoolClientId: string;
}

/**
 * What Cognito does when a sign-up is confirmed with the e-mailed code and cognito-local does
 * not: the e-mail becomes verified (`email_verified` true in the ID token). The server trusts
 * an e-mail only when it is verified (functions/lib/auth.ts), so without this every local
 * account confirmed by code would have no e-mail. The local gateway calls it before the
 * PostConfirmation_ConfirmSignUp trigger (cognito-local saves the user before the trigger).
 */
export async function markEmailVerified(endpoint: string, userPoolId: string, username: string, email: string): Promise<void> {
  const cognito = new CognitoIdentityProviderClient({ endpoint, region: LOCAL_REGION, credentials });
  try {
    // cognito-local verifies an e-mail only together with the e-mail itself (the same address)
    const UserAttributes = [{ Name: 'email', Value: email }, { Name: 'email_verified', Value: 'true' }];
    await cognito.send(new AdminUpdateUserAttributesCommand({ UserPoolId: userPoolId, Username: username, UserAttributes }));
  } finally {
    cognito.destroy();
  }
}

export async function ensureUserPool(endpoint: string, poolName: string): Promise<PoolIds> {
  const cognito = new CognitoIdentityProviderClient({ endpoint, region: LOCAL_REGION, credentials });
  const pools = await cognito.send(new ListUserPoolsCommand({ MaxResults: 60 }));
  let userPoolId = pools.UserPools?.find((p) => p.Name === poolName)?.Id;
  if (!userPoolId) {
    const created = await cognito.send(
      new CreateUserPoolCommand({
        PoolName: poolName,
        UsernameAttributes: ['email'],
        AutoVerifiedAttributes: ['email'],
        // as on AWS (keepOriginal): a new e-mail counts only once its code is confirmed
        UserAttributeUpdateSettings: { AttributesRequireVerificationBeforeUpdate: ['email'] },
        Policies: { PasswordPolicy: { MinimumLength: MIN_PASSWORD_LENGTH } },
        Schema: [{ Name: 'user_type', AttributeDataType: 'String', Mutable: true }],
      }),
    );
    userPoolId = created.UserPool!.Id!;
  }
  // as on AWS (infra/stacks/auth-stack.ts): MFA OPTIONAL with TOTP only; set at every start so
  // a pool made by an older version gets it too (cognito-local's default is OFF)
  await cognito.send(
    new SetUserPoolMfaConfigCommand({ UserPoolId: userPoolId, MfaConfiguration: 'OPTIONAL', SoftwareTokenMfaConfiguration: { Enabled: true } }),
  );
  const clients = await cognito.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
  let userPoolClientId = clients.UserPoolClients?.find((c) => c.ClientName === 'web')?.ClientId;
  if (!userPoolClientId) {
    const created = await cognito.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: 'web',
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      }),
    );
    userPoolClientId = created.UserPoolClient!.ClientId!;
  }
  const groups = await cognito.send(new ListGroupsCommand({ UserPoolId: userPoolId }));
  for (const g of GROUPS) {
    if (!groups.Groups?.some((x) => x.GroupName === g)) {
      await cognito.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: g }));
    }
  }
  cognito.destroy();
  return { userPoolId, userPoolClientId };
}
