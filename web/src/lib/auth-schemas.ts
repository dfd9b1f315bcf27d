import * as z from 'zod';
import { MIN_PASSWORD_LENGTH } from '@domain/roles';
import { adminPasswordProblem } from '@domain/admin-security';
import { normalizePhone } from '@domain/phone';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const email = z
  .string()
  .trim()
  .min(1, 'Inserisci la tua email')
  .refine((v) => EMAIL_RE.test(v), 'Email non valida');

const newPassword = z.string().min(MIN_PASSWORD_LENGTH, `Minimo ${MIN_PASSWORD_LENGTH} caratteri`);

export const loginSchema = z.object({
  email: z.string().trim().min(1, 'Inserisci la tua email'),
  password: z.string().min(1, 'Inserisci la password'),
});
export type LoginValues = z.infer<typeof loginSchema>;

export const agentSignUpSchema = z.object({
  fullName: z.string().trim(),
  email,
  password: newPassword,
});
export type AgentSignUpValues = z.infer<typeof agentSignUpSchema>;

export const sellerSignUpSchema = z.object({
  fullName: z.string().trim().min(1, 'Inserisci il tuo nome completo'),
  email,
  password: newPassword,
  phone: z
    .string()
    .trim()
    .refine((v) => v === '' || normalizePhone(v) !== null, 'Numero di telefono non valido'),
});
export type SellerSignUpValues = z.infer<typeof sellerSignUpSchema>;

/** Spec: login and agent sign-up without e-mail or password -> toast 'Campi mancanti'. */
export function missingCredentials(values: { email?: string; password?: string }): boolean {
  return !values.email?.trim() || !values.password;
}

export const MISSING_FIELDS_TOAST = ['Campi mancanti', { description: 'Inserisci email e password', id: 'missing-fields' }] as const;
export const SIGN_UP_DONE_TOAST = ['Registrazione completata!', { description: 'Puoi ora effettuare il login' }] as const;

/** A 6-digit code (Cognito's e-mailed codes and TOTP codes); spaces are ignored. */
function sixDigitCode(emptyMessage: string) {
  return z.object({
    code: z
      .string()
      .transform((v) => v.replace(/\s+/g, ''))
      .pipe(z.string().min(1, emptyMessage).regex(/^\d{6}$/, 'Il codice è formato da 6 cifre')),
  });
}

/** The e-mailed sign-up confirmation code. */
export const confirmCodeSchema = sixDigitCode('Inserisci il codice di conferma');
/** The code of the authenticator app (TOTP). */
export const totpCodeSchema = sixDigitCode("Inserisci il codice dell'app di autenticazione");
export type ConfirmCodeInput = z.input<typeof confirmCodeSchema>;
export type ConfirmCodeValues = z.output<typeof confirmCodeSchema>;

/** An admin's new password: the admin rule (functions/domain/admin-security.ts), typed twice. */
export const adminPasswordSchema = z
  .object({
    password: z.string().superRefine((v, ctx) => {
      const problem = adminPasswordProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    confirm: z.string().min(1, 'Ripeti la nuova password'),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'Le due password non coincidono' });
export type AdminPasswordValues = z.infer<typeof adminPasswordSchema>;
