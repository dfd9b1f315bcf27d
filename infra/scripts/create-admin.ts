/**
 * Creates (or completes) an admin account on AWS: login, profile and `admin` group.
 *
 *   TABLE_NAME=... USER_POOL_ID=... AWS_REGION=eu-south-1 ADMIN_PASSWORD='...' \
 *     npm run create-admin -- admin@esempio.it "Giulia Bianchi"
 *
 * Users made by an administrator do not pass through the post-confirmation trigger, so
 * this writes the profile with the same module the trigger uses. ADMIN_PASSWORD must meet
 * the admin rule (12+ characters, upper and lower case, a digit, a symbol); at the first
 * sign-in the SPA asks the new admin to set up an authenticator app (TOTP MFA).
 */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import * as z from 'zod';
import { ensureAccount } from '../local/seed';
import { adminPasswordProblem } from '../../functions/domain/admin-security';

const [email, fullName] = process.argv.slice(2);
const input = z
  .object({
    email: z.string().email('E-mail non valida'),
    fullName: z.string().trim().min(1, 'Indica il nome completo'),
    // the admin rule, stronger than the pool's (docs/architecture.md, section 4)
    password: z.string().superRefine((v, ctx) => {
      const problem = adminPasswordProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: `ADMIN_PASSWORD: ${problem}` });
    }),
    userPoolId: z.string().min(1, 'Imposta USER_POOL_ID'),
    tableName: z.string().min(1, 'Imposta TABLE_NAME'),
  })
  .safeParse({ email, fullName, password: process.env.ADMIN_PASSWORD ?? '', userPoolId: process.env.USER_POOL_ID ?? '', tableName: process.env.TABLE_NAME ?? '' });
if (!input.success) {
  console.error(input.error.issues.map((i) => i.message).join('\n'));
  console.error('Uso: ADMIN_PASSWORD=... USER_POOL_ID=... TABLE_NAME=... npm run create-admin -- <email> "<nome>"');
  process.exit(2);
}
const cognito = new CognitoIdentityProviderClient({});
await ensureAccount(cognito, input.data.userPoolId, {
  email: input.data.email,
  fullName: input.data.fullName,
  password: input.data.password,
  userType: 'agenzia',
  group: 'admin',
  phone: null,
});
console.log(`Amministratore pronto: ${input.data.email} (al primo accesso configurerà l'app di autenticazione)`);
