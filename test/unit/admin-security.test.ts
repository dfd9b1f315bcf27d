import { describe, expect, it } from 'vitest';
import { adminPasswordProblem } from '../../functions/domain/admin-security';
import { handler as preSignUp } from '../../functions/auth/pre-sign-up';
import { needsAdminMfa } from '../../functions/lib/http';
import type { PreSignUpTriggerEvent } from 'aws-lambda';

describe('admin password rule', () => {
  it('asks for 12 characters, upper and lower case, a digit and a symbol', () => {
    expect(adminPasswordProblem('Corta-1')).toMatch(/almeno 12 caratteri/);
    expect(adminPasswordProblem('tuttominuscolo-2026')).toMatch(/maiuscola/);
    expect(adminPasswordProblem('TUTTOMAIUSCOLO-2026')).toMatch(/minuscola/);
    expect(adminPasswordProblem('Senza-Numeri-qui')).toMatch(/numero/);
    expect(adminPasswordProblem('SenzaSimboli2026')).toMatch(/simbolo/);
    expect(adminPasswordProblem('Ammin-istra-2026!')).toBeNull();
    // the local demo admin's password meets it
    expect(adminPasswordProblem('Admin-demo-2026')).toBeNull();
  });
});

describe('admin routes need MFA', () => {
  it('only when the caller reaches the route as an admin', () => {
    expect(needsAdminMfa(['admin'], ['admin'])).toBe(true);
    expect(needsAdminMfa(['admin', 'agent'], ['admin'])).toBe(true);
    expect(needsAdminMfa(['admin', 'agent'], ['admin', 'agent'])).toBe(false);
    expect(needsAdminMfa(['seller'], ['admin', 'seller'])).toBe(false);
    expect(needsAdminMfa('authenticated', ['admin'])).toBe(false);
    expect(needsAdminMfa('public', ['admin'])).toBe(false);
  });
});

describe('pre sign-up', () => {
  const event = (userType: string) =>
    ({
      triggerSource: 'PreSignUp_SignUp',
      request: { userAttributes: { email: 'a@b.it', 'custom:user_type': userType } },
      response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
    }) as unknown as PreSignUpTriggerEvent;

  it('confirms nothing and verifies nothing: the e-mailed code does', async () => {
    const out = await preSignUp(event('venditore'));
    expect(out.response).toMatchObject({ autoConfirmUser: false, autoVerifyEmail: false });
  });

  it('refuses a user type nobody may choose', async () => {
    await expect(preSignUp(event('agenzia'))).rejects.toThrow('Tipo di utente non valido');
  });
});
