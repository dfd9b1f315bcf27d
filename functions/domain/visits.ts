/**
 * Visits booked by the agent in charge of an option on the seller's free slots (docs/visits.md):
 * one booking per slot, cancelled or moved by the agent up to a cut-off the seller sees,
 * declined by the seller with a reason, and an outcome the agent records after the visit.
 * The shapes of the /agent/options/{propertyId}/... and /seller/properties/{propertyId}/visits
 * routes, their Italian messages and the pure rules (times in Europe/Rome). No AWS here.
 *
 *   booked --cancel (agent, before the cut-off)--> cancelled
 *   booked --move (agent, before the cut-off; the old slot is freed, the new one taken)--> booked
 *   booked --decline (seller, before the start, with a reason)--> declined
 *   booked --outcome (agent, after the start)--> done
 */
import { ROME_TIME_ZONE, romeInstant } from './rome-time';
import { formatDate } from './format';

export { romeInstant };
import * as z from 'zod';

export const VISIT_TIME_ZONE = ROME_TIME_ZONE;
/** The agent cancels or moves a visit up to this many hours before it starts. */
export const VISIT_CUTOFF_HOURS = 24;
/** A slot is booked at least this many hours before it starts (the seller must be told). */
export const VISIT_MIN_LEAD_HOURS = 2;

export const VISIT_STATUSES = ['booked', 'cancelled', 'declined', 'done'] as const;
export type VisitStatus = (typeof VISIT_STATUSES)[number];
export const VISIT_STATUS_LABELS: Record<VisitStatus, string> = {
  booked: 'Prenotata',
  cancelled: "Annullata dall'agente",
  declined: 'Rifiutata dal venditore',
  done: 'Svolta',
};

export const INTEREST_LEVELS = ['alto', 'medio', 'basso', 'nessuno'] as const;
export type InterestLevel = (typeof INTEREST_LEVELS)[number];
export const INTEREST_LABELS: Record<InterestLevel, string> = {
  alto: 'Interesse alto',
  medio: 'Interesse medio',
  basso: 'Interesse basso',
  nessuno: 'Nessun interesse',
};

export const VISIT_MESSAGES = {
  optionNotFound: 'Opzione non trovata',
  propertyNotFound: 'Immobile non trovato',
  visitNotFound: 'Visita non trovata',
  slotNotFound: 'Fascia oraria non trovata: aggiorna la pagina',
  slotTaken: 'Questa fascia oraria è già stata prenotata: scegline un’altra',
  slotTooSoon: `Si può prenotare una fascia che inizia tra almeno ${VISIT_MIN_LEAD_HOURS} ore`,
  notAssigned: "L'opzione non è in carico a te: non puoi prenotare visite",
  pastCutoff: `La visita si può annullare o spostare fino a ${VISIT_CUTOFF_HOURS} ore prima dell'inizio`,
  notBooked: 'La visita non è più prenotata',
  sameSlot: 'Scegli una fascia oraria diversa da quella attuale',
  declineStarted: 'La visita è già iniziata: non si può più rifiutare',
  outcomeTooEarly: "L'esito si registra dopo l'inizio della visita",
  reasonRequired: 'Scrivi il motivo (almeno 5 caratteri)',
  reasonTooLong: 'Il motivo può avere al massimo 500 caratteri',
  noteTooLong: 'La nota può avere al massimo 1000 caratteri',
  interestRequired: "Indica l'interesse del visitatore",
  slotInvalid: 'Fascia oraria non valida',
  afterExpiry: (expiresAt: string) => `La visita deve svolgersi entro la scadenza dell'opzione (${formatDate(`${expiresAt}T12:00:00Z`)}): scegli una fascia fino a quel giorno`,
} as const;

/** Until when the agent may cancel or move the visit (ISO). */
export function cutoffOf(v: { date: string; start: string }): string {
  return new Date(romeInstant(v.date, v.start).getTime() - VISIT_CUTOFF_HOURS * 3_600_000).toISOString();
}

export const isBeforeCutoff = (v: { date: string; start: string }, now: Date) => now.getTime() < Date.parse(cutoffOf(v));
export const hasStarted = (v: { date: string; start: string }, now: Date) => now.getTime() >= romeInstant(v.date, v.start).getTime();
export const isBookable = (slot: { date: string; start: string }, now: Date) =>
  romeInstant(slot.date, slot.start).getTime() - now.getTime() >= VISIT_MIN_LEAD_HOURS * 3_600_000;

const uuid = z.string({ error: VISIT_MESSAGES.slotInvalid }).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, VISIT_MESSAGES.slotInvalid);

/** POST /agent/options/{propertyId}/visits and PUT .../visits/{visitId} (move). */
export const bookVisitSchema = z.object({ slotId: uuid });
export type BookVisitInput = z.input<typeof bookVisitSchema>;

const reason = z.string({ error: VISIT_MESSAGES.reasonRequired }).trim().min(5, VISIT_MESSAGES.reasonRequired).max(500, VISIT_MESSAGES.reasonTooLong);

/** POST /seller/properties/{propertyId}/visits/{visitId}/decline */
export const declineVisitSchema = z.object({ reason });
export type DeclineVisitInput = z.input<typeof declineVisitSchema>;

/** POST /agent/options/{propertyId}/visits/{visitId}/outcome */
export const visitOutcomeSchema = z.object({
  interest: z.enum(INTEREST_LEVELS, { error: VISIT_MESSAGES.interestRequired }),
  note: z.string({ error: VISIT_MESSAGES.noteTooLong }).trim().max(1000, VISIT_MESSAGES.noteTooLong).default(''),
});
export type VisitOutcomeInput = z.input<typeof visitOutcomeSchema>;

const propertyIdParam = z.string({ error: VISIT_MESSAGES.optionNotFound }).min(1, VISIT_MESSAGES.optionNotFound).max(100, VISIT_MESSAGES.optionNotFound);
export const dealParams = z.object({ propertyId: propertyIdParam });
export const visitParams = z.object({
  propertyId: propertyIdParam,
  visitId: z.string({ error: VISIT_MESSAGES.visitNotFound }).min(1, VISIT_MESSAGES.visitNotFound).max(100, VISIT_MESSAGES.visitNotFound),
});

/** A visit as every page shows it. */
export interface Visit {
  id: string;
  propertyId: string;
  slotId: string;
  date: string;
  start: string;
  end: string;
  status: VisitStatus;
  agentId: string;
  agentName: string;
  /** until when the agent may cancel or move it (ISO) */
  cutoffAt: string;
  createdAt: string;
  declineReason: string | null;
  outcome: { interest: InterestLevel; note: string; at: string } | null;
}

export interface FreeSlot {
  id: string;
  date: string;
  start: string;
  end: string;
}

/** GET /agent/options/{propertyId}/deal: what the agent in charge needs to work the sale. */
export interface AgentDeal {
  propertyId: string;
  address: string;
  city: string | null;
  province: string | null;
  seller: { name: string; phone: string | null; email: string | null };
  salePrice: number;
  propertyValue: number;
  hasKeys: boolean;
  expiresAt: string | null;
  /** the seller's free slots from now on (bookable ones only), by date and time */
  freeSlots: FreeSlot[];
  visits: Visit[];
}

export interface SellerVisits {
  visits: Visit[];
}
