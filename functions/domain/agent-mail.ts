/**
 * The e-mails to an agent about an assignment request (Italian, values escaped by the layout):
 * approved (the payment link), rejected by an admin, closed because another agent took the
 * option in charge. Pure: the outbox stores what these return.
 */
import { formatEuroCents } from './format';
import { renderSellerMail, type RenderedEmail } from './review/mail-layout';
import { commissionAmountOf, paymentReference } from './agent-requests';

export interface RequestMailFacts {
  id: string;
  agentName: string;
  propertyAddress: string;
  propertyCity: string | null;
  optionAmount: number;
  requestedCommissionPercentage: number;
}

const greeting = (r: RequestMailFacts) => (r.agentName.trim() ? `Gentile ${r.agentName.trim()},` : 'Gentile agente,');
const place = (r: RequestMailFacts) => (r.propertyCity ? `${r.propertyAddress}, ${r.propertyCity}` : r.propertyAddress);
const amount = (r: RequestMailFacts) => formatEuroCents(commissionAmountOf(r.optionAmount, r.requestedCommissionPercentage));

/** The agent's page with 'Le Mie Richieste'. */
export function requestsPageUrl(appUrl: string): string {
  return `${appUrl.replace(/\/+$/, '')}/agent-area/purchase-options?tab=requests`;
}

export function approvedMail(r: RequestMailFacts, appUrl: string): RenderedEmail {
  return renderSellerMail({
    subject: 'Richiesta approvata: puoi pagare e prendere in carico l’opzione',
    title: 'Richiesta approvata',
    greeting: greeting(r),
    paragraphs: [
      `la tua richiesta per l'opzione di acquisto dell'immobile in ${place(r)} è stata approvata.`,
      "Per prendere in carico l'opzione paga la provvigione da 'Le Mie Richieste' nella tua area agente, con carta oppure con bonifico bancario (nella causale il riferimento qui sotto).",
    ],
    rows: [
      ['Immobile', place(r)],
      ['Provvigione', `${String(r.requestedCommissionPercentage).replace('.', ',')}%`],
      ['Importo da pagare', amount(r)],
      ['Riferimento', paymentReference(r.id)],
    ],
    action: { label: 'Vai al pagamento', url: requestsPageUrl(appUrl) },
  });
}

export function rejectedMail(r: RequestMailFacts, appUrl: string): RenderedEmail {
  return renderSellerMail({
    subject: 'Richiesta di assegnazione non approvata',
    title: 'Richiesta non approvata',
    greeting: greeting(r),
    paragraphs: [
      `la tua richiesta per l'opzione di acquisto dell'immobile in ${place(r)} non è stata approvata.`,
      "Finché l'opzione resta disponibile puoi inviarne una nuova dalla tua area agente.",
    ],
    action: { label: 'Apri la tua area agente', url: requestsPageUrl(appUrl) },
  });
}

/** To the agents whose open request closed because another agent paid first. */
export function assignedToOtherMail(r: RequestMailFacts & { wasApproved: boolean }, appUrl: string): RenderedEmail {
  return renderSellerMail({
    subject: 'Opzione assegnata a un altro agente',
    title: 'Opzione assegnata a un altro agente',
    greeting: greeting(r),
    paragraphs: [
      `l'opzione di acquisto dell'immobile in ${place(r)} è stata presa in carico da un altro agente: la tua richiesta è stata chiusa.`,
      ...(r.wasApproved ? ['Non effettuare il pagamento di questa richiesta: non è più possibile completarla.'] : []),
      'Trovi le altre opzioni disponibili nella tua area agente.',
    ],
    action: { label: 'Apri la tua area agente', url: requestsPageUrl(appUrl) },
  });
}

/** The option an agent asked for is no longer offered (withdrawn, cancelled or marked exercised by an admin, or expired): the request is closed. */
export function optionClosedMail(r: RequestMailFacts & { wasApproved: boolean; why: 'withdrawn' | 'cancelled' | 'expired' | 'exercised' }, appUrl: string): RenderedEmail {
  const what = { withdrawn: 'è stata ritirata dalle opzioni disponibili', cancelled: 'è stata annullata', expired: 'è scaduta', exercised: 'è stata esercitata' }[r.why];
  return renderSellerMail({
    subject: 'Opzione non più disponibile',
    title: 'Opzione non più disponibile',
    greeting: greeting(r),
    paragraphs: [
      `l'opzione di acquisto dell'immobile in ${place(r)} ${what}: la tua richiesta è stata chiusa.`,
      ...(r.wasApproved ? ['Non effettuare il pagamento di questa richiesta: non è più possibile completarla.'] : []),
      'Trovi le altre opzioni disponibili nella tua area agente.',
    ],
    action: { label: 'Apri la tua area agente', url: requestsPageUrl(appUrl) },
  });
}
