import { formatEuro } from '../format';
import { appLink, renderSellerMail, type RenderedEmail } from './mail-layout';
import type { OptionDuration } from '../fees';
import { optionAmountLabel, paymentTypeLabel } from './rules';

/**
 * The option notification (send-purchase-option-notification, spec 001 section 7): option
 * amount, value and the onboarding link APP_URL + /seller-kyc?token={kycToken}.
 */
export interface OptionNotificationInput {
  sellerName: string;
  propertyAddress: string;
  propertyCity: string | null;
  optionAmount: number;
  /** null: an option stored before the duration was recorded */
  optionDuration: OptionDuration | null;
  propertyValue: number;
  paymentType: string;
  kycToken: string;
  appUrl: string;
}

export function kycUrl(appUrl: string, token: string): string {
  return appLink(appUrl, `/seller-kyc?token=${encodeURIComponent(token)}`);
}

export function renderOptionNotification(i: OptionNotificationInput): RenderedEmail {
  const where = [i.propertyAddress, i.propertyCity].filter(Boolean).join(', ');
  return renderSellerMail({
    subject: `Opzione di acquisto per il tuo immobile: ${where}`,
    title: 'La tua opzione di acquisto è pronta',
    greeting: `Gentile ${i.sellerName.trim() || 'cliente'},`,
    paragraphs: [
      `abbiamo preparato l'opzione di acquisto per il tuo immobile in ${where}.`,
      'Accedi dal link qui sotto per completare la verifica e firmare il documento.',
    ],
    rows: [
      ['Valore immobile', formatEuro(i.propertyValue)],
      [optionAmountLabel(i.optionDuration), formatEuro(i.optionAmount)],
      ['Pagamento', paymentTypeLabel(i.paymentType)],
    ],
    action: { label: "Visualizza l'opzione di acquisto", url: kycUrl(i.appUrl, i.kycToken) },
  });
}

/** The availability link: the seller enters the visit slots at APP_URL + /availability/{token}. */
export interface AvailabilityEmailInput {
  sellerName: string;
  propertyAddress: string;
  propertyCity: string | null;
  minMonthlySlots: number;
  token: string;
  appUrl: string;
}

export function availabilityUrl(appUrl: string, token: string): string {
  return appLink(appUrl, `/availability/${encodeURIComponent(token)}`);
}

export function renderAvailabilityEmail(i: AvailabilityEmailInput): RenderedEmail {
  const where = [i.propertyAddress, i.propertyCity].filter(Boolean).join(', ');
  return renderSellerMail({
    subject: `Indica le tue disponibilità per le visite: ${where}`,
    title: 'Le tue disponibilità per le visite',
    greeting: `Gentile ${i.sellerName.trim() || 'cliente'},`,
    paragraphs: [
      `grazie per aver firmato l'opzione di acquisto per il tuo immobile in ${where}.`,
      `Poiché le chiavi restano a te, ti chiediamo di indicare i giorni e gli orari in cui l'immobile può essere visitato: almeno ${i.minMonthlySlots} slot al mese.`,
    ],
    action: { label: 'Inserisci le disponibilità', url: availabilityUrl(i.appUrl, i.token) },
  });
}
