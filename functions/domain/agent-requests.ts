/**
 * The agent marketplace (spec 001: agent area, agent_assignment_requests, bank transfer
 * dialog, commission slider): statuses and their labels, the Italian messages, the commission
 * rule, the payment reference and the shapes of the /agent and /admin/agent-requests routes.
 * Shared by the handlers and the SPA.
 */
import type { OptionDuration } from './fees';
import * as z from 'zod';
import type { DossierRoom } from './requests';

export const AGENT_REQUEST_STATUSES = ['pending', 'payment_pending', 'paid', 'rejected'] as const;
export type AgentRequestStatus = (typeof AGENT_REQUEST_STATUSES)[number];
export const AGENT_REQUEST_STATUS_LABELS: Record<AgentRequestStatus, string> = {
  pending: 'In Attesa',
  payment_pending: 'Attesa Pagamento',
  paid: 'Pagata',
  rejected: 'Rifiutata',
};
/** The label of a status; an unknown value is shown raw. */
export function agentRequestStatusLabel(status: string): string {
  return AGENT_REQUEST_STATUS_LABELS[status as AgentRequestStatus] ?? status;
}

/** The statuses an admin still acts on: approve/reject (pending), mark paid (payment_pending). */
export const OPEN_AGENT_REQUEST_STATUSES = ['pending', 'payment_pending'] as const satisfies readonly AgentRequestStatus[];
export type OpenAgentRequestStatus = (typeof OPEN_AGENT_REQUEST_STATUSES)[number];

/** How a request was paid: card through Stripe Checkout, or a bank transfer an admin confirmed. */
export const PAYMENT_METHODS = ['carta', 'bonifico'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * Open requests one option may have at once: paying one rejects (and mails) all the others in
 * the same transaction, and a transaction holds at most 100 writes (2 per other request).
 */
export const MAX_OPEN_REQUESTS_PER_OPTION = 40;

/** Feature badges on an option card: the first 3, then "+N". */
export const CARD_FEATURES = 3;

export const AGENT_MESSAGES = {
  // agent area (spec 001 section 8)
  optionsLoadFailed: 'Impossibile caricare le opzioni disponibili',
  assignedLoadFailed: 'Impossibile caricare le opzioni in carico',
  requestsLoadFailed: 'Impossibile caricare le richieste',
  mediaLoadFailed: 'Impossibile caricare le foto e i video',
  sendFailed: 'Impossibile inviare la richiesta',
  duplicate: 'Hai già richiesto questa opzione. Ricarica la pagina.',
  existsTitle: 'Richiesta Già Presente',
  exists: (statusLabel: string) => `Hai già una richiesta in stato: ${statusLabel}`,
  sent: 'Richiesta Inviata',
  sentDescription: "La tua richiesta è in attesa di approvazione: il link di pagamento ti arriverà dall'amministratore.",
  updated: 'Richiesta Aggiornata',
  updatedDescription: "La richiesta è di nuovo in attesa di approvazione con la nuova provvigione: il link di pagamento ti arriverà dall'amministratore.",
  paymentLinkFailed: 'Impossibile creare il link di pagamento',
  cardNotConfigured: 'Il pagamento con carta non è configurato: scegli il bonifico bancario.',
  noOptions: 'Nessuna opzione disponibile con i filtri selezionati',
  noRequests: 'Non hai ancora richieste',
  noAssigned: 'Non hai ancora opzioni in carico',
  noMedia: 'Nessun materiale disponibile per questo immobile',
  noPhotos: 'Nessuna foto disponibile',
  optionNotFound: 'Opzione non trovata',
  optionUnavailable: 'Questa opzione non è più disponibile: ricarica la pagina.',
  tooManyOpen: 'Troppe richieste aperte per questa opzione: riprova più tardi.',
  requestNotFound: 'Richiesta non trovata',
  commissionRequired: 'Indica la percentuale di provvigione',
  commissionRange: (min: string, max: string) => `La provvigione deve essere tra ${min}% e ${max}%`,
  commissionStep: "La provvigione si sceglie a passi dell'1%",
  payOnlyApproved: 'Il pagamento è possibile solo per una richiesta approvata e in attesa di pagamento.',
  // admin, /active-options (spec 001 section 8)
  adminLoadFailed: 'Impossibile caricare le richieste di assegnazione',
  approved: 'Richiesta approvata',
  approvedDescription: "Il link di pagamento ora può essere inviato all'agente: l'e-mail con il link gli è già stata spedita.",
  rejected: 'Richiesta rifiutata',
  approveFailed: 'Impossibile approvare la richiesta',
  rejectFailed: 'Impossibile rifiutare la richiesta',
  markedPaid: 'Pagamento registrato',
  markedPaidDescription: "L'opzione è ora in carico all'agente; le altre richieste sull'opzione sono state rifiutate.",
  markPaidFailed: 'Impossibile registrare il pagamento',
  notPending: (statusLabel: string) => `La richiesta non è più in attesa di decisione (stato: ${statusLabel}). Ricarica la pagina.`,
  notAwaitingPayment: (statusLabel: string) => `La richiesta non è in attesa di pagamento (stato: ${statusLabel}). Ricarica la pagina.`,
  assignedToOther: "L'opzione è già in carico a un altro agente.",
  statusInvalid: 'Stato non valido',
  // Stripe webhook
  signatureInvalid: 'Firma del webhook non valida',
} as const;

const EPSILON = 1e-6;
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The commission slider (spec 001 section 5): step 1 from the option's minimum to its
 * maximum, starting at the minimum. Empty when the maximum is below the minimum.
 */
export function commissionChoices(min: number, max: number): number[] {
  const out: number[] = [];
  for (let v = min; v <= max + EPSILON && out.length < 101; v += 1) out.push(round2(v));
  return out;
}

/** Null when the percentage is one of the slider's values, otherwise the Italian reason. */
export function commissionError(min: number, max: number, value: number): string | null {
  const range = AGENT_MESSAGES.commissionRange(formatPercent(min), formatPercent(max));
  if (!Number.isFinite(value) || value < min - EPSILON || value > max + EPSILON) return range;
  const steps = value - min;
  if (Math.abs(steps - Math.round(steps)) > EPSILON) return AGENT_MESSAGES.commissionStep;
  return null;
}

function formatPercent(n: number): string {
  return String(round2(n)).replace('.', ',');
}

/** Commission amount = option amount x percent / 100, to the cent (spec 001 section 9). */
export function commissionAmountOf(optionAmount: number, percent: number): number {
  // in cents first: amount x percent is the cents exactly (18.5 % of 101 € is 1868.5 cents, 18.69 €),
  // while dividing before rounding lost the half cent (18.68 €)
  return Math.round(optionAmount * percent) / 100;
}

/** The amount in cents, as Stripe wants it. */
export function toCents(euro: number): number {
  return Math.round(euro * 100);
}

/** The bank transfer's reference: "OPZ-" plus the first 8 characters of the request id. */
export function paymentReference(requestId: string): string {
  return `OPZ-${requestId.slice(0, 8)}`;
}

// ---- inputs ------------------------------------------------------------------------------

/** POST /agent/options/{propertyId}/requests; the range is the option's (checked by the use case). */
export const createAgentRequestSchema = z.object({
  commissionPercentage: z
    .number({ error: AGENT_MESSAGES.commissionRequired })
    .min(0, AGENT_MESSAGES.commissionRequired)
    .max(100, AGENT_MESSAGES.commissionRequired),
});
export type CreateAgentRequestInput = z.infer<typeof createAgentRequestSchema>;

/** GET /admin/agent-requests?status=pending|payment_pending */
export const adminAgentRequestsQuery = z.object({
  status: z.enum(OPEN_AGENT_REQUEST_STATUSES, { error: AGENT_MESSAGES.statusInvalid }).default('pending'),
});

// ---- shapes ------------------------------------------------------------------------------

/** An option as an agent sees it: the property without the seller's personal data. */
export interface AgentOption {
  propertyId: string;
  optionId: string;
  address: string;
  city: string | null;
  province: string | null;
  propertyType: string | null;
  surfaceArea: number | null;
  numRooms: number | null;
  numBathrooms: number | null;
  floor: string | null;
  condition: string | null;
  /** feature keys (FEATURE_LABELS) in the seller's order */
  features: string[];
  propertyValue: number;
  optionAmount: number;
  /** null: an option stored before the duration was recorded */
  optionDuration: OptionDuration | null;
  /** yyyy-MM-dd, set at the signature */
  expiresAt: string | null;
  minAgentCommissionPercentage: number;
  agentCommissionPercentage: number;
  paymentType: 'anticipato' | 'rateale';
  hasKeys: boolean;
  createdAt: string;
  /** 'In Carico' for the caller's own assigned options, otherwise 'Disponibile' */
  assignedToMe: boolean;
  /** the caller's request on this option, if any */
  myRequest: { id: string; status: AgentRequestStatus; requestedCommissionPercentage: number } | null;
}

export interface AgentOptionList {
  items: AgentOption[];
}

/** GET /agent/options/{propertyId}/media: rooms in wizard order with short-lived URLs. */
export interface AgentOptionMedia {
  rooms: DossierRoom[];
}

/** A request as its agent sees it (Le Mie Richieste). */
export interface AgentRequestView {
  id: string;
  propertyId: string;
  optionId: string;
  propertyAddress: string;
  propertyCity: string | null;
  propertyValue: number;
  optionAmount: number;
  requestedCommissionPercentage: number;
  commissionAmount: number;
  status: AgentRequestStatus;
  createdAt: string;
  updatedAt: string;
  paidAt: string | null;
  paidVia: PaymentMethod | null;
  /** the bank transfer's reference */
  reference: string;
}

export interface AgentRequestList {
  items: AgentRequestView[];
}

export interface CreateAgentRequestResult {
  outcome: 'created' | 'updated';
  request: AgentRequestView;
}

/** A row of the admin's tables on /active-options. */
export interface AdminAgentRequest extends AgentRequestView {
  agentId: string;
  agentName: string;
  agentEmail: string;
  approvedAt: string | null;
}

export interface AdminAgentRequestList {
  items: AdminAgentRequest[];
}

/** POST /agent/requests/{requestId}/payment: the Stripe Checkout page, opened in a new tab. */
export interface AgentPaymentLink {
  url: string;
}
