/**
 * Demo accounts for the local runtime: one admin, one agent, one seller. Created through
 * the same Cognito admin API an operator would use on AWS, with their profiles written
 * by the same module the sign-up trigger uses. Idempotent.
 */
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { createProfile } from '../../functions/model/profile';
import type { Group, UserType } from '../../functions/domain/roles';
import { LOCAL_REGION } from './setup';

export interface DemoAccount {
  role: 'admin' | 'agent' | 'seller';
  email: string;
  password: string;
  fullName: string;
  userType: UserType;
  group: Group;
  phone: string | null;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { role: 'admin', email: 'admin@demo.opzionecasa.it', password: 'Admin-demo-2026', fullName: 'Giulia Bianchi', userType: 'agenzia', group: 'admin', phone: '+390212345678' },
  { role: 'agent', email: 'agente@demo.opzionecasa.it', password: 'Agente-demo-2026', fullName: 'Marco Rossi', userType: 'agente_immobiliare', group: 'agent', phone: '+393331234567' },
  { role: 'seller', email: 'venditore@demo.opzionecasa.it', password: 'Venditore-demo-2026', fullName: 'Laura Verdi', userType: 'venditore', group: 'seller', phone: '+393471234567' },
];

/**
 * Creates the account if missing (AdminCreateUser + permanent password), then its profile
 * and groups with the module the sign-up trigger uses. Idempotent. Also used on AWS for the
 * first admin (infra/scripts/create-admin.ts).
 */
export async function ensureAccount(
  cognito: CognitoIdentityProviderClient,
  userPoolId: string,
  a: Omit<DemoAccount, 'role'>,
): Promise<void> {
  let sub: string | undefined;
  let username: string | undefined;
  try {
    const existing = await cognito.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: a.email }));
    sub = existing.UserAttributes?.find((x) => x.Name === 'sub')?.Value;
    username = existing.Username;
  } catch (err) {
    if (!(err instanceof UserNotFoundException)) throw err;
  }
  if (!sub) {
    const created = await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: a.email,
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: a.email },
          { Name: 'email_verified', Value: 'true' },
          { Name: 'name', Value: a.fullName },
          { Name: 'custom:user_type', Value: a.userType },
        ],
      }),
    );
    sub = created.User?.Attributes?.find((x) => x.Name === 'sub')?.Value;
    username = created.User?.Username;
    await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: a.email, Password: a.password, Permanent: true }));
  }
  await createProfile({
    userId: sub!, email: a.email, fullName: a.fullName, userType: a.userType, phone: a.phone,
    userPoolId, username: username!, groups: [a.group],
    // the demo agent is an approved agent (self-registered agents wait for an admin)
    ...(a.userType === 'agente_immobiliare' ? { agentStatus: 'approved' as const } : {}),
  });
}

export async function seedDemoAccounts(endpoint: string, userPoolId: string): Promise<DemoAccount[]> {
  const cognito = new CognitoIdentityProviderClient({ endpoint, region: LOCAL_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  for (const a of DEMO_ACCOUNTS) await ensureAccount(cognito, userPoolId, a);
  cognito.destroy();
  return DEMO_ACCOUNTS;
}
