import { formatDate, formatDecimal, formatEuro } from '../format';
import { paymentTypeLabel, salePriceOf } from './rules';

/** What the option document (PDF) says, as Italian lines; the server lays them out with pdf-lib. */
export interface OptionDocumentInput {
  optionId: string;
  createdAt: string;
  property: { address: string; city: string | null; province: string | null; surfaceArea: number | null };
  seller: { firstName: string; lastName: string; email: string | null };
  /** the company that buys the option (deploy configuration) */
  grantee: { name: string; vatNumber: string; address: string };
  propertyValue: number;
  optionAmount: number;
  paymentType: 'anticipato' | 'rateale';
  installments: number | null;
  hasKeys: boolean;
  agentCommissionPercentage: number;
  minAgentCommissionPercentage: number;
  salePricePercentage: number;
  minMonthlySlots: number;
}

export interface DocumentSection {
  title: string;
  lines: string[];
}

const pct = (v: number) => `${formatDecimal(v)}%`;

export function optionDocument(i: OptionDocumentInput): { title: string; subtitle: string; sections: DocumentSection[] } {
  const place = [i.property.city, i.property.province ? `(${i.property.province})` : null].filter(Boolean).join(' ');
  const payment =
    i.paymentType === 'anticipato'
      ? `${paymentTypeLabel(i.paymentType)}: ${formatEuro(i.optionAmount)} in un'unica soluzione alla firma`
      : `${paymentTypeLabel(i.paymentType)}: ${i.installments ?? 12} rate mensili da ${formatEuro(Math.round(i.optionAmount / (i.installments ?? 12)))} circa`;
  return {
    title: 'Opzione di acquisto immobiliare',
    subtitle: `Documento n. ${i.optionId} del ${formatDate(i.createdAt)}`,
    sections: [
      {
        title: 'Immobile',
        lines: [
          `Indirizzo: ${i.property.address}${place ? `, ${place}` : ''}`,
          ...(i.property.surfaceArea ? [`Superficie: ${formatDecimal(i.property.surfaceArea)} m²`] : []),
        ],
      },
      {
        title: 'Venditore',
        lines: [`Nome e cognome: ${`${i.seller.firstName} ${i.seller.lastName}`.trim() || '—'}`, ...(i.seller.email ? [`Email: ${i.seller.email}`] : [])],
      },
      {
        title: "Beneficiario dell'opzione",
        lines: [`Società: ${i.grantee.name}`, `Partita IVA: ${i.grantee.vatNumber}`, `Sede: ${i.grantee.address}`],
      },
      {
        title: 'Condizioni economiche',
        lines: [
          `Valore dell'immobile: ${formatEuro(i.propertyValue)}`,
          `Importo dell'opzione (1% del valore): ${formatEuro(i.optionAmount)}`,
          `Pagamento: ${payment}`,
          `Chiavi consegnate: ${i.hasKeys ? 'Sì' : 'No'}`,
          `Percentuale prezzo di vendita: ${pct(i.salePricePercentage)} (prezzo di vendita ${formatEuro(salePriceOf(i.propertyValue, i.salePricePercentage))})`,
          `Condivisione agenti: ${pct(i.agentCommissionPercentage)} (minima ${pct(i.minAgentCommissionPercentage)})`,
          ...(i.hasKeys ? [] : [`Disponibilità per le visite: almeno ${i.minMonthlySlots} slot al mese`]),
        ],
      },
      {
        title: 'Firma',
        lines: [
          `Il venditore concede a ${i.grantee.name} l'opzione di acquisto alle condizioni sopra indicate.`,
          'Luogo e data: ______________________________',
          'Firma del venditore: ______________________________',
        ],
      },
    ],
  };
}
