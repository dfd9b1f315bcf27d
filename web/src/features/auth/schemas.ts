import * as z from 'zod';
import { MIN_PASSWORD_LENGTH } from '@domain/roles';
import { normalizePhone } from '@/lib/phone';

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
