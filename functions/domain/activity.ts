/**
 * The activity history: every change of a request, an option, an identity review, an
 * agent's approval, an agent's request and a payment leaves one entry (who, when, what,
 * before/after), written in the same transaction as the change (model/activity.ts). Shown on
 * the Istruttoria page (a property's entries) and in the admins' "Attività" feed.
 */
import { OPTION_STATE_LABELS } from './option-lifecycle';

export const ACTIVITY_KINDS = {
  'request.valued': 'Valutazione salvata',
  'request.estimate_sent': 'Stima inviata al venditore',
  'request.assigned': 'Richiesta collegata a un utente',
  'option.created': 'Opzione creata',
  'option.updated': 'Condizioni per gli agenti modificate',
  'option.notify': 'Opzione inviata al venditore',
  'option.sign': 'Opzione firmata dal venditore',
  'option.publish': 'Opzione pubblicata agli agenti',
  'option.withdraw': 'Opzione ritirata dagli agenti',
  'option.assign': "Opzione assegnata all'agente",
  'option.expire': 'Opzione scaduta',
  'option.exercise': 'Opzione esercitata',
  'option.cancel': 'Opzione annullata',
  'identity.reviewed': "Verifica dell'identità decisa",
  'agent.approved': 'Agente approvato',
  'agent.rejected': 'Agente rifiutato',
  'agent-request.approved': "Richiesta dell'agente approvata",
  'agent-request.rejected': "Richiesta dell'agente rifiutata",
  'payment.paid': "Pagamento dell'agente registrato",
  'visit.booked': "Visita prenotata dall'agente",
  'visit.moved': "Visita spostata dall'agente",
  'visit.cancelled': "Visita annullata dall'agente",
  'visit.declined': 'Visita rifiutata dal venditore',
  'visit.done': "Esito della visita registrato",
  'visit.optionClosed': "Visita annullata: l'opzione non è più in carico all'agente",
} as const;
export type ActivityKind = keyof typeof ACTIVITY_KINDS;

export type ActorRole = 'admin' | 'seller' | 'agent' | 'system';

export const ACTOR_LABELS: Record<ActorRole, string> = {
  admin: 'Amministratore',
  seller: 'Venditore',
  agent: 'Agente',
  system: 'Sistema',
};

export interface Actor {
  /** the user's id; null for the system (schedules, webhooks) */
  id: string | null;
  role: ActorRole;
  /** the name at the time of the change, when known */
  name?: string | null;
}

export const SYSTEM_ACTOR: Actor = { id: null, role: 'system', name: null };

/** One entry as the admin pages receive it. */
export interface ActivityEntry {
  id: string;
  at: string;
  kind: ActivityKind;
  actor: Actor;
  /** the request the change belongs to, when it belongs to one */
  propertyId: string | null;
  /** the property's address at the time, for the feed */
  propertyLabel: string | null;
  /** the user the change is about (an agent approved, the agent of a request) */
  userId: string | null;
  /** state codes before and after (option states, request and identity statuses) */
  before: string | null;
  after: string | null;
  /** a reason or a detail (the cancellation's reason, "bonifico", the fields changed) */
  note: string | null;
}

export type ActivityInput = Omit<ActivityEntry, 'id'>;

export interface ActivityPage {
  items: ActivityEntry[];
  nextCursor?: string;
}

export const ACTIVITY_PAGE_SIZE = 50;

const STATUS_LABELS: Record<string, string> = {
  ...OPTION_STATE_LABELS,
  pending: 'In Attesa',
  payment_pending: 'Attesa Pagamento',
  paid: 'Pagata',
  rejected: 'Rifiutata',
  verified: 'Verificata',
  review: 'Da verificare',
  approved: 'Approvato',
  booked: 'Prenotata',
  declined: 'Rifiutata',
  done: 'Svolta',
};

/** A state code in Italian (an unknown one as it is). */
export function activityValueLabel(code: string | null): string | null {
  if (code === null) return null;
  return STATUS_LABELS[code] ?? code;
}

/** "Firmata → Pubblicata agli agenti", or null when the entry moved no state. */
export function activityTransitionText(e: Pick<ActivityEntry, 'before' | 'after'>): string | null {
  if (!e.after) return null;
  const after = activityValueLabel(e.after);
  return e.before ? `${activityValueLabel(e.before)} → ${after}` : after;
}

export const activityKindLabel = (kind: string): string => ACTIVITY_KINDS[kind as ActivityKind] ?? kind;
