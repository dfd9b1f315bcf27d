/**
 * Gestione Utenti (/users): the shapes of the /users routes, shared by the handlers and
 * the SPA. The spec's role (user_roles: user or admin) is membership of the Cognito
 * `admin` group.
 */
import * as z from 'zod';
import type { AgentStatus } from './agent-status';
import type { Profile } from './profile';
import { USER_TYPES, type UserType } from './roles';

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = { user: 'Utente', admin: 'Amministratore' };

export { AGENT_STATUSES, AGENT_STATUS_LABELS, agentStatusOf, awaitsApproval, type AgentStatus } from './agent-status';

export const AGENT_DECISIONS = ['approve', 'reject'] as const;
export type AgentDecision = (typeof AGENT_DECISIONS)[number];

/** A row of the Gestione Utenti table. */
export interface UserListItem extends Profile {
  role: Role;
  /** agents only; null for other user types */
  agentStatus: AgentStatus | null;
}

/** GET /users: pending agents first, then everyone by name. */
export interface UserList {
  items: UserListItem[];
}

/** Pending agents first, then by name (accent- and case-insensitive), then e-mail. */
export function sortUsers<T extends { fullName: string | null; email: string; agentStatus: AgentStatus | null }>(items: readonly T[]): T[] {
  const key = (u: T) => (u.fullName || u.email || '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
  return [...items].sort((a, b) => {
    const pa = a.agentStatus === 'pending' ? 0 : 1;
    const pb = b.agentStatus === 'pending' ? 0 : 1;
    if (pa !== pb) return pa - pb;
    return key(a).localeCompare(key(b), 'it') || a.email.localeCompare(b.email);
  });
}

export const USER_MESSAGES = {
  nameRequired: 'Il nome è obbligatorio',
  nameTooLong: 'Il nome può avere al massimo 200 caratteri',
  emailInvalid: 'Email non valida',
  userTypeInvalid: 'Tipo di utente non valido',
  fieldTooLong: 'Il campo può avere al massimo 200 caratteri',
  roleInvalid: 'Ruolo non valido: scegli Utente o Amministratore',
  decisionInvalid: 'Decisione non valida: scegli approva o rifiuta',
  notFound: 'Utente non trovato',
  emailTaken: 'Questa email è già usata da un altro account',
  selfRoleChange: 'Non puoi cambiare il tuo ruolo: chiedi a un altro amministratore',
  selfDelete: 'Non puoi eliminare il tuo account',
  notPending: 'La richiesta di questo agente è già stata decisa',
  beingDecided: 'Un altro amministratore sta decidendo questa richiesta: aggiorna la pagina tra qualche secondo',
} as const;

export const TEXT_MAX = 200;

// RFC 5322 dot-atom local part and a domain with a TLD of 2+ letters (the same rule as the mailer)
const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** An optional company field: trimmed; empty (or missing) becomes null. */
const optionalText = z
  .string({ error: USER_MESSAGES.fieldTooLong })
  .trim()
  .max(TEXT_MAX, USER_MESSAGES.fieldTooLong)
  .nullish()
  .transform((v) => (v ? v : null));

export const COMPANY_FIELDS = ['companyName', 'companyVat', 'companyRea', 'companyAddress', 'companyCity', 'companyProvince'] as const;
export type CompanyField = (typeof COMPANY_FIELDS)[number];

export const COMPANY_FIELD_LABELS: Record<CompanyField, string> = {
  companyName: 'Ragione sociale',
  companyVat: 'Partita IVA',
  companyRea: 'Numero REA',
  companyAddress: 'Indirizzo',
  companyCity: 'Città',
  companyProvince: 'Provincia',
};

/** PATCH /users/{userId}: the Edit user dialog (spec section 5). */
export const updateUserInput = z.object({
  fullName: z.string({ error: USER_MESSAGES.nameRequired }).trim().min(1, USER_MESSAGES.nameRequired).max(TEXT_MAX, USER_MESSAGES.nameTooLong),
  email: z
    .string({ error: USER_MESSAGES.emailInvalid })
    .trim()
    .toLowerCase()
    .max(254, USER_MESSAGES.emailInvalid)
    .regex(EMAIL_PATTERN, USER_MESSAGES.emailInvalid),
  userType: z.enum(USER_TYPES, { error: USER_MESSAGES.userTypeInvalid }),
  companyName: optionalText,
  companyVat: optionalText,
  companyRea: optionalText,
  companyAddress: optionalText,
  companyCity: optionalText,
  companyProvince: optionalText,
});
/** What the form holds (strings) and what the server stores (empty company fields as null). */
export type UpdateUserForm = z.input<typeof updateUserInput>;
export type UpdateUserInput = z.output<typeof updateUserInput>;

/** PUT /users/{userId}/role */
export const updateRoleInput = z.object({ role: z.enum(ROLES, { error: USER_MESSAGES.roleInvalid }) });
export type UpdateRoleInput = z.infer<typeof updateRoleInput>;

/** POST /users/{userId}/agent-approval */
export const agentDecisionInput = z.object({ decision: z.enum(AGENT_DECISIONS, { error: USER_MESSAGES.decisionInvalid }) });
export type AgentDecisionInput = z.infer<typeof agentDecisionInput>;

/** User types the Edit dialog offers: the spec's two, plus the user's current one if different. */
export function editableUserTypes(current: UserType): UserType[] {
  const base: UserType[] = ['venditore', 'agenzia'];
  return base.includes(current) ? base : [...base, current];
}
