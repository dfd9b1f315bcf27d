/**
 * The purchase option's lifecycle (docs/architecture.md, decisioni): explicit states changed
 * only by use cases, each allowed from a fixed set of states. The model states the same
 * table in the condition of every write (model/option.ts), so two concurrent changes cannot
 * both apply; this module is the table and its Italian words, and stays pure.
 *
 *   created --notify--> sent --sign--> signed --publish--> published --assign--> assigned
 *   created --sign--> signed            published --withdraw--> signed
 *   signed | published | assigned --expire (daily job, signature + duration)--> expired
 *   signed | published | assigned --exercise (admin)--> exercised
 *   created | sent | signed | published | assigned --cancel (admin, with a reason)--> cancelled
 */

export const OPTION_STATES = ['created', 'sent', 'signed', 'published', 'assigned', 'exercised', 'expired', 'cancelled'] as const;
export type OptionState = (typeof OPTION_STATES)[number];

export const OPTION_STATE_LABELS: Record<OptionState, string> = {
  created: 'Creata',
  sent: 'Inviata al venditore',
  signed: 'Firmata',
  published: 'Pubblicata agli agenti',
  assigned: 'Assegnata',
  exercised: 'Esercitata',
  expired: 'Scaduta',
  cancelled: 'Annullata',
};

/** The states after which nothing moves any more. */
export const FINAL_OPTION_STATES: readonly OptionState[] = ['exercised', 'expired', 'cancelled'];
/** The states of a signed option still running (availability, visits, expiry apply). */
export const RUNNING_OPTION_STATES: readonly OptionState[] = ['signed', 'published', 'assigned'];

export const OPTION_ACTIONS = ['notify', 'sign', 'publish', 'withdraw', 'assign', 'expire', 'exercise', 'cancel'] as const;
export type OptionAction = (typeof OPTION_ACTIONS)[number];

/** The actions an admin takes from the Istruttoria page (POST /admin/options/{propertyId}/transitions). */
export const ADMIN_OPTION_ACTIONS = ['publish', 'withdraw', 'exercise', 'cancel'] as const;
export type AdminOptionAction = (typeof ADMIN_OPTION_ACTIONS)[number];

export const OPTION_TRANSITIONS: Record<OptionAction, { from: readonly OptionState[]; to: OptionState }> = {
  // the notification may be sent again while the seller has not signed
  notify: { from: ['created', 'sent'], to: 'sent' },
  sign: { from: ['created', 'sent'], to: 'signed' },
  publish: { from: ['signed'], to: 'published' },
  withdraw: { from: ['published'], to: 'signed' },
  assign: { from: ['published'], to: 'assigned' },
  expire: { from: RUNNING_OPTION_STATES, to: 'expired' },
  exercise: { from: RUNNING_OPTION_STATES, to: 'exercised' },
  cancel: { from: ['created', 'sent', 'signed', 'published', 'assigned'], to: 'cancelled' },
};

export const OPTION_ACTION_LABELS: Record<OptionAction, string> = {
  notify: 'Notifica al venditore',
  sign: 'Firma del venditore',
  publish: 'Pubblica agli agenti',
  withdraw: 'Ritira dagli agenti',
  assign: 'Assegnazione all\'agente',
  expire: 'Scadenza',
  exercise: 'Segna come esercitata',
  cancel: 'Annulla opzione',
};

/** Why an action is refused in the option's current state (409), in Italian. */
export const OPTION_LIFECYCLE_MESSAGES = {
  notify: "L'opzione è già firmata o chiusa: la notifica per la firma non serve più",
  sign: "L'opzione non è più in attesa di firma",
  publish: "Si può pubblicare agli agenti solo un'opzione firmata e non ancora pubblicata",
  publishExpired: "L'opzione è scaduta: non si può più pubblicare agli agenti",
  withdraw: "Si può ritirare solo un'opzione pubblicata e non ancora assegnata",
  assign: "L'opzione non è più offerta agli agenti",
  expire: "L'opzione non è in corso",
  exercise: "Si può segnare come esercitata solo un'opzione firmata e in corso",
  cancel: "L'opzione è già chiusa (esercitata, scaduta o annullata)",
  editClosed: "Le condizioni per gli agenti non si possono più modificare: l'opzione è assegnata o chiusa",
  reasonRequired: "Scrivi il motivo dell'annullamento (almeno 5 caratteri)",
  reasonTooLong: 'Il motivo può avere al massimo 500 caratteri',
  actionInvalid: 'Azione non valida',
} as const satisfies Record<OptionAction | 'publishExpired' | 'editClosed' | 'reasonRequired' | 'reasonTooLong' | 'actionInvalid', string>;

export function canApply(state: OptionState, action: OptionAction): boolean {
  return OPTION_TRANSITIONS[action].from.includes(state);
}

/** The state after `action`, or null when the action is not allowed in `state`. */
export function nextOptionState(state: OptionState, action: OptionAction): OptionState | null {
  return canApply(state, action) ? OPTION_TRANSITIONS[action].to : null;
}

/** The admin's actions available in `state`, in the order the page shows them. */
export function adminActionsIn(state: OptionState): AdminOptionAction[] {
  return ADMIN_OPTION_ACTIONS.filter((a) => canApply(state, a));
}

/** The facts of an option stored before its state was recorded (status pending/approved/sent/completed/cancelled). */
export interface LegacyOptionFacts {
  status?: unknown;
  signedAt?: unknown;
  notifiedAt?: unknown;
  assignedAgentId?: unknown;
}

const filled = (v: unknown) => typeof v === 'string' && v !== '';

/**
 * The state of a stored option: its status when it is a state; a legacy status (the admin
 * dialog's free choice before the lifecycle) read from the option's facts.
 */
export function optionStateOf(o: LegacyOptionFacts): OptionState {
  const s = o.status;
  if (typeof s === 'string' && (OPTION_STATES as readonly string[]).includes(s)) return s as OptionState;
  if (s === 'completed') return 'exercised';
  if (s === 'cancelled') return 'cancelled';
  if (filled(o.assignedAgentId)) return 'assigned';
  if (filled(o.signedAt)) return s === 'approved' ? 'published' : 'signed';
  if (filled(o.notifiedAt) || s === 'sent') return 'sent';
  return 'created';
}

/** The option runs (signed, published or assigned): the seller gives visit slots, agents may book them. */
export const isRunningOption = (o: LegacyOptionFacts): boolean => RUNNING_OPTION_STATES.includes(optionStateOf(o));

export const isOptionState = (s: unknown): s is OptionState => typeof s === 'string' && (OPTION_STATES as readonly string[]).includes(s);

export const isLegacyOptionStatus = (status: unknown) => !(typeof status === 'string' && (OPTION_STATES as readonly string[]).includes(status));

/** An option with an expiry date (yyyy-MM-dd, Italy) has expired on `today` (yyyy-MM-dd, Italy) once that day is past. */
export function isPastExpiry(expiresAt: string | null | undefined, today: string): boolean {
  return typeof expiresAt === 'string' && expiresAt !== '' && expiresAt < today;
}

/** How the seller's dashboard names their option in each state. */
export const SELLER_OPTION_LABELS: Record<OptionState, string> = {
  created: 'Opzione di acquisto da firmare',
  sent: 'Opzione di acquisto da firmare',
  signed: 'Opzione firmata',
  published: 'Opzione firmata',
  assigned: 'Opzione firmata, agente incaricato',
  exercised: 'Opzione esercitata',
  expired: 'Opzione scaduta',
  cancelled: 'Opzione annullata',
};
