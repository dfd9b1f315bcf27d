import { formatEuro } from '../format';
import type { PriceTrend } from '../omi/trend';
import { renderTrendMail } from '../omi/trend-mail';
import { appLink, renderSellerMail, type RenderedEmail } from './mail-layout';

/**
 * The estimate e-mail to the seller (send-valuation-email, spec 001 section 7): the OMI range,
 * the cautious discount, the adjusted value and the registration link
 * APP_URL + /seller-register?token={registrationToken}. Pure: the outbox stores what this returns.
 */
export interface EstimateEmailInput {
  customerName: string;
  propertyAddress: string;
  propertyCity?: string | null;
  valuationMin: number;
  valuationMax: number;
  valuationAvg: number;
  /** percent, zero or negative */
  cautiousDiscount: number;
  adjustedAvg: number;
  registrationToken: string;
  appUrl: string;
  /** the valuation's price trend and what it is of (zone, type, state), when it has one */
  trend?: { trend: PriceTrend; zoneLabel: string } | null;
}

export function registrationUrl(appUrl: string, token: string): string {
  return appLink(appUrl, `/seller-register?token=${encodeURIComponent(token)}`);
}

export function renderEstimateEmail(i: EstimateEmailInput): RenderedEmail {
  const where = [i.propertyAddress, i.propertyCity].filter(Boolean).join(', ');
  const url = registrationUrl(i.appUrl, i.registrationToken);
  const trend = i.trend ? renderTrendMail(i.trend.trend, `Andamento dei prezzi nella zona OMI (${i.trend.zoneLabel})`) : undefined;
  return renderSellerMail({
    subject: `La valutazione del tuo immobile: ${where}`,
    title: 'La valutazione del tuo immobile',
    greeting: `Gentile ${i.customerName.trim() || 'cliente'},`,
    paragraphs: [
      `abbiamo completato la valutazione del tuo immobile in ${where}, basata sulle quotazioni dell'Osservatorio del Mercato Immobiliare (OMI) dell'Agenzia delle Entrate.`,
      `Applicando un ribasso prudenziale del ${Math.abs(i.cautiousDiscount)}%, il valore che ti proponiamo è di ${formatEuro(i.adjustedAvg)}.`,
      "Per vedere la proposta di opzione di acquisto e proseguire, registrati o accedi dal link qui sotto.",
    ],
    rows: [
      ['Valore minimo', formatEuro(i.valuationMin)],
      ['Valore massimo', formatEuro(i.valuationMax)],
      ['Valore medio', formatEuro(i.valuationAvg)],
      ['Ribasso prudenziale', `${i.cautiousDiscount}%`],
      ['Valore proposto', formatEuro(i.adjustedAvg)],
    ],
    blocks: trend ? [trend] : [],
    action: { label: 'Registrati e prosegui', url },
  });
}
