/**
 * The reminder e-mails of the daily job (docs/reminders.md), in the seller mails' layout
 * (../review/mail-layout). Pure: the outbox stores what these return.
 */
import type { OptionDuration } from '../fees';
import { formatEuro } from '../format';
import { registrationUrl } from '../review/estimate-email';
import { renderSellerMail, type RenderedEmail } from '../review/mail-layout';
import { availabilityUrl, kycUrl } from '../review/option-emails';
import { optionAmountLabel } from '../review/rules';
import type { OnboardingReminderKind } from './rules';

interface SellerProperty {
  sellerName: string;
  propertyAddress: string;
  propertyCity: string | null;
  appUrl: string;
}

const whereOf = (p: SellerProperty) => [p.propertyAddress, p.propertyCity].filter(Boolean).join(', ');
const greetingOf = (p: SellerProperty) => `Gentile ${p.sellerName.trim() || 'cliente'},`;

export interface OnboardingReminderInput extends SellerProperty {
  kind: OnboardingReminderKind;
  /** the seller has an account linked to the property (else the link is the registration) */
  registered: boolean;
  /** titles of the onboarding steps not done yet (STEP_TITLES) */
  missingSteps: readonly string[];
  /** the property's invitation token */
  token: string;
}

/** Onboarding incomplete, 3 or 7 days after the estimate e-mail. */
export function renderOnboardingReminder(i: OnboardingReminderInput): RenderedEmail {
  const where = whereOf(i);
  const opening =
    i.kind === 'onboarding-7d'
      ? `è passata una settimana da quando ti abbiamo inviato la valutazione del tuo immobile in ${where}.`
      : `qualche giorno fa ti abbiamo inviato la valutazione del tuo immobile in ${where}.`;
  return renderSellerMail({
    subject: `Promemoria: completa la tua richiesta per l'immobile in ${where}`,
    title: 'Completa la tua richiesta',
    greeting: greetingOf(i),
    paragraphs: [
      opening,
      i.registered
        ? "Per ricevere la proposta di opzione di acquisto mancano ancora alcuni passaggi: puoi completarli in pochi minuti dal link qui sotto."
        : "Per ricevere la proposta di opzione di acquisto registrati o accedi dal link qui sotto: ti guideremo nei passaggi successivi.",
    ],
    rows: i.registered && i.missingSteps.length ? [['Passaggi da completare', i.missingSteps.join(', ')]] : undefined,
    action: i.registered
      ? { label: 'Completa i passaggi', url: kycUrl(i.appUrl, i.token) }
      : { label: 'Registrati e prosegui', url: registrationUrl(i.appUrl, i.token) },
  });
}

export interface OptionReminderInput extends SellerProperty {
  optionAmount: number;
  /** null: an option stored before the duration was recorded */
  optionDuration: OptionDuration | null;
  propertyValue: number;
  token: string;
}

/** The option is ready but not signed, 3 days after the notification. */
export function renderOptionReminder(i: OptionReminderInput): RenderedEmail {
  const where = whereOf(i);
  return renderSellerMail({
    subject: `Promemoria: firma l'opzione di acquisto per l'immobile in ${where}`,
    title: "La tua opzione di acquisto attende la firma",
    greeting: greetingOf(i),
    paragraphs: [
      `ti ricordiamo che l'opzione di acquisto per il tuo immobile in ${where} è pronta e attende la tua firma.`,
      'Dal link qui sotto puoi scaricare il documento, firmarlo e caricarne la copia firmata.',
    ],
    rows: [
      ['Valore immobile', formatEuro(i.propertyValue)],
      [optionAmountLabel(i.optionDuration), formatEuro(i.optionAmount)],
    ],
    action: { label: "Firma l'opzione di acquisto", url: kycUrl(i.appUrl, i.token) },
  });
}

export interface AvailabilityReminderInput extends SellerProperty {
  /** "novembre 2026" */
  monthLabel: string;
  slotsCount: number;
  minMonthlySlots: number;
  /** the current availability link's token, or null when there is none (or it expired) */
  token: string | null;
}

/** This month's visit slots are below the option's monthly minimum. */
export function renderAvailabilityReminder(i: AvailabilityReminderInput): RenderedEmail {
  const where = whereOf(i);
  return renderSellerMail({
    subject: `Promemoria: le tue disponibilità per le visite di ${i.monthLabel}`,
    title: 'Le tue disponibilità per le visite',
    greeting: greetingOf(i),
    paragraphs: [
      `per ${i.monthLabel} hai indicato ${i.slotsCount} slot di visita per il tuo immobile in ${where}, su un minimo di ${i.minMonthlySlots} al mese.`,
      i.token
        ? 'Ti chiediamo di aggiungere le disponibilità mancanti dal link qui sotto.'
        : 'Ti chiediamo di aggiungere le disponibilità mancanti: se non hai più il link per inserirle, contatta il nostro team e te ne invieremo uno nuovo.',
    ],
    rows: [
      ['Mese', i.monthLabel],
      ['Slot indicati', String(i.slotsCount)],
      ['Minimo mensile', String(i.minMonthlySlots)],
    ],
    action: i.token ? { label: 'Inserisci le disponibilità', url: availabilityUrl(i.appUrl, i.token) } : undefined,
  });
}
