/**
 * The e-mails of a visit change (domain/visit-mail.ts has the words): to the seller, the agent
 * and the back office, each with the calendar invitation (lib/ics.ts: REQUEST, or CANCEL when
 * the visit ends), as outbox entries. Used by the visits area and by the option's closing
 * (options/lifecycle.ts), which cancels the visits still to come.
 */
import { config } from './config';
import { visitInvitation } from './ics';
import type { MailAttachment } from './mail';
import { cutoffOf } from '../domain/visits';
import { ENDING_VISIT_EVENTS, renderVisitMail, type VisitEvent, type VisitMailFacts, type VisitRecipient } from '../domain/visit-mail';

type Stored = Record<string, unknown>;
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The seller's name on the property item. */
export const sellerNameOf = (p: Stored) => `${text(p.firstName) ?? ''} ${text(p.lastName) ?? ''}`.trim();

/** What the mails say of the property (its item) and of the visit. */
export function factsOf(property: Stored, v: { date: string; start: string; end: string; agentName: string; agentEmail: string }): VisitMailFacts {
  return {
    address: text(property.address) ?? '',
    city: text(property.city),
    date: v.date,
    start: v.start,
    end: v.end,
    sellerName: sellerNameOf(property),
    sellerPhone: text(property.phone),
    agentName: v.agentName,
    agentEmail: v.agentEmail,
    cutoffAt: cutoffOf(v),
  };
}

/** The mails of a change, each with the invitation (REQUEST, or CANCEL when the visit ends). */
export function visitMails(
  event: VisitEvent,
  facts: VisitMailFacts,
  property: Stored,
  visit: { id: string; sequence: number },
  at: string,
  recipients: readonly VisitRecipient[] = ['seller', 'agent', 'backoffice'],
) {
  const appUrl = config().APP_URL;
  const all: Record<VisitRecipient, string | null> = { seller: text(property.email), agent: facts.agentEmail || null, backoffice: config().BACKOFFICE_EMAIL };
  const to = Object.fromEntries(recipients.map((r) => [r, all[r]])) as Partial<Record<VisitRecipient, string | null>>;
  const cancelled = ENDING_VISIT_EVENTS.includes(event);
  const host = new URL(appUrl).hostname || 'opzionecasa.it';
  const ics: MailAttachment | null =
    event === 'done'
      ? null
      : {
          fileName: 'visita.ics',
          contentType: `text/calendar; charset=utf-8; method=${cancelled ? 'CANCEL' : 'REQUEST'}`,
          content: visitInvitation({
            uid: `visita-${visit.id}@${host}`,
            sequence: visit.sequence,
            date: facts.date,
            start: facts.start,
            end: facts.end,
            summary: `Visita immobile: ${facts.city ? `${facts.address}, ${facts.city}` : facts.address}`,
            description: `Agente: ${facts.agentName} (${facts.agentEmail}). Venditore: ${facts.sellerName}${facts.sellerPhone ? `, ${facts.sellerPhone}` : ''}.`,
            location: facts.city ? `${facts.address}, ${facts.city}` : facts.address,
            organizer: { name: 'Opzione Casa', email: config().MAIL_FROM },
            cancelled,
          }),
        };
  return (Object.entries(to) as [VisitRecipient, string | null][])
    .filter(([, address]) => address)
    .map(([recipient, address]) => ({
      id: `visit-${event}-${recipient}-${visit.id}-${Date.parse(at)}`,
      kind: `visit-${event}`,
      ref: visit.id,
      mail: { to: [address!], ...renderVisitMail(event, recipient, facts, appUrl), ...(ics ? { attachments: [ics] } : {}) },
    }));
}
