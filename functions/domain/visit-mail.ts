/**
 * The visit e-mails to the seller, the agent and the back office (booked, moved, cancelled,
 * declined, tomorrow's reminder), in the seller mails' layout. The calendar invitation is
 * attached by the use case (lib/ics.ts); these are the words.
 */
import { formatDateTime, formatSlotDate } from './format';
import { renderSellerMail, type MailRow, type RenderedEmail } from './review/mail-layout';
import { INTEREST_LABELS, VISIT_CUTOFF_HOURS, type InterestLevel } from './visits';

export type VisitRecipient = 'seller' | 'agent' | 'backoffice';
export type VisitEvent = 'booked' | 'moved' | 'cancelled' | 'declined' | 'reminder' | 'done' | 'optionClosed';

/** The events that take the visit off the calendars (the invitation is a CANCEL). */
export const ENDING_VISIT_EVENTS: readonly VisitEvent[] = ['cancelled', 'declined', 'optionClosed'];

export interface VisitMailFacts {
  address: string;
  city: string | null;
  date: string;
  start: string;
  end: string;
  /** the previous time, for a move */
  previous?: { date: string; start: string; end: string };
  sellerName: string;
  sellerPhone: string | null;
  agentName: string;
  agentEmail: string;
  cutoffAt: string;
  reason?: string | null;
  outcome?: { interest: InterestLevel; note: string } | null;
  /** a reminder sent on the visit's own day (the run of the day before missed it) */
  sameDay?: boolean;
}

const when = (f: { date: string; start: string; end: string }) => `${formatSlotDate(f.date)}, ${f.start}–${f.end}`;
const place = (f: VisitMailFacts) => (f.city ? `${f.address}, ${f.city}` : f.address);

const SUBJECTS: Record<VisitEvent, (f: VisitMailFacts) => string> = {
  booked: (f) => `Visita prenotata: ${place(f)}, ${when(f)}`,
  moved: (f) => `Visita spostata: ${place(f)}, ${when(f)}`,
  cancelled: (f) => `Visita annullata: ${place(f)}, ${when(f)}`,
  declined: (f) => `Visita rifiutata dal venditore: ${place(f)}, ${when(f)}`,
  reminder: (f) => `Promemoria: visita ${f.sameDay ? 'oggi' : 'domani'}, ${place(f)}, ${f.start}–${f.end}`,
  done: (f) => `Esito della visita: ${place(f)}`,
  optionClosed: (f) => `Visita annullata: ${place(f)}, ${when(f)}`,
};

function lead(event: VisitEvent, to: VisitRecipient, f: VisitMailFacts): string {
  const agent = `l'agente ${f.agentName}`;
  switch (event) {
    case 'booked':
      return to === 'agent' ? `hai prenotato una visita all'immobile in ${place(f)}.` : `${agent} ha prenotato una visita all'immobile in ${place(f)}.`;
    case 'moved':
      return `${to === 'agent' ? 'hai spostato' : `${agent} ha spostato`} la visita all'immobile in ${place(f)}${f.previous ? ` (era ${when(f.previous)})` : ''}.`;
    case 'cancelled':
      return `${to === 'agent' ? 'hai annullato' : `${agent} ha annullato`} la visita all'immobile in ${place(f)}.`;
    case 'declined':
      return `${to === 'seller' ? 'hai rifiutato' : 'il venditore ha rifiutato'} la visita all'immobile in ${place(f)}${f.reason ? `: ${f.reason}` : '.'}`;
    case 'reminder':
      return `${f.sameDay ? 'oggi' : 'domani'} c'è la visita all'immobile in ${place(f)}.`;
    case 'done':
      return `${agent} ha registrato l'esito della visita all'immobile in ${place(f)}.`;
    case 'optionClosed':
      return to === 'agent'
        ? `la visita all'immobile in ${place(f)} è annullata: l'opzione di acquisto non è più in tuo carico.`
        : `la visita all'immobile in ${place(f)} con ${agent} è annullata: l'opzione di acquisto non è più in carico all'agente.`;
  }
}

export function renderVisitMail(event: VisitEvent, to: VisitRecipient, f: VisitMailFacts, appUrl: string): RenderedEmail {
  const rows: MailRow[] = [
    ['Immobile', place(f)],
    ['Quando', when(f)],
  ];
  if (to !== 'agent') rows.push(['Agente', `${f.agentName} (${f.agentEmail})`]);
  if (to !== 'seller') rows.push(['Venditore', f.sellerPhone ? `${f.sellerName}, ${f.sellerPhone}` : f.sellerName]);
  if (event === 'booked' || event === 'moved' || event === 'reminder') rows.push(['Si può annullare o spostare fino al', formatDateTime(f.cutoffAt)]);
  if (event === 'done' && f.outcome) {
    rows.push(['Esito', INTEREST_LABELS[f.outcome.interest]]);
    if (f.outcome.note) rows.push(['Nota', f.outcome.note]);
  }
  const base = appUrl.replace(/\/+$/, '');
  const action =
    to === 'seller'
      ? { label: 'Apri la tua area venditore', url: `${base}/seller-dashboard` }
      : to === 'agent'
        ? { label: 'Apri la tua area agente', url: `${base}/agent-area/purchase-options?tab=assigned` }
        : undefined;
  const paragraphs = [lead(event, to, f)];
  if (ENDING_VISIT_EVENTS.includes(event)) paragraphs.push("L'invito allegato toglie la visita dal tuo calendario.");
  else if (event !== 'done') paragraphs.push("Trovi l'invito in allegato: aprilo per aggiungere la visita al tuo calendario.");
  if (to === 'seller' && (event === 'booked' || event === 'moved'))
    paragraphs.push(`Se non puoi esserci, rifiuta la visita dalla tua area venditore indicando il motivo. L'agente può annullarla o spostarla fino a ${VISIT_CUTOFF_HOURS} ore prima.`);
  return renderSellerMail({
    subject: SUBJECTS[event](f),
    title: SUBJECTS[event](f).split(':')[0]!,
    greeting: to === 'seller' ? `Gentile ${f.sellerName || 'cliente'},` : to === 'agent' ? `Gentile ${f.agentName},` : 'Ciao,',
    paragraphs,
    rows,
    ...(action ? { action } : {}),
  });
}
