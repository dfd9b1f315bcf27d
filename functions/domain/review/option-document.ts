import type { OptionDuration } from '../fees';
import { formatDate, formatDecimal, formatEuro } from '../format';
import { optionRateLabel, paymentTypeLabel, salePriceOf } from './rules';

/** An owner the option names: full name and share in percent (null: never stated, older co-owner lists). */
export interface OptionOwner {
  name: string;
  share: number | null;
}

/** What the option document (PDF) says, as Italian lines; the server lays them out with pdf-lib. */
export interface OptionDocumentInput {
  optionId: string;
  createdAt: string;
  property: { address: string; city: string | null; province: string | null; surfaceArea: number | null };
  seller: { firstName: string; lastName: string; email: string | null };
  /** every owner with their share, the seller first */
  owners: readonly OptionOwner[];
  /** the company that buys the option (deploy configuration) */
  grantee: { name: string; vatNumber: string; address: string };
  propertyValue: number;
  optionAmount: number;
  /** 6, 8 or 12 months; null only for an option stored before the duration was recorded */
  optionDuration: OptionDuration | null;
  /** yyyy-MM-dd once signed (a document regenerated after the signature), else null */
  expiresAt: string | null;
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
  const duration =
    i.optionDuration === null
      ? ['Durata: non registrata (opzione creata prima che la durata fosse indicata)']
      : [
          `Durata: ${i.optionDuration} mesi`,
          `Scadenza: l'opzione scade dopo ${i.optionDuration} mesi dalla firma${i.expiresAt ? `, il ${formatDate(i.expiresAt)}` : ' (la data è fissata alla firma)'}`,
        ];
  const owners = i.owners.length ? i.owners : [{ name: `${i.seller.firstName} ${i.seller.lastName}`.trim(), share: null }];
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
        title: owners.length > 1 ? 'Proprietari e quote' : 'Proprietario e quota',
        lines: owners.map((o) => `${o.name || '—'}: ${o.share === null ? 'quota non indicata' : `quota ${pct(o.share)}`}`),
      },
      {
        title: "Beneficiario dell'opzione",
        lines: [`Società: ${i.grantee.name}`, `Partita IVA: ${i.grantee.vatNumber}`, `Sede: ${i.grantee.address}`],
      },
      {
        title: 'Condizioni economiche',
        lines: [
          `Prezzo concordato (valore dell'immobile): ${formatEuro(i.propertyValue)}`,
          `Importo dell'opzione (${optionRateLabel(i.optionDuration)}): ${formatEuro(i.optionAmount)}`,
          `Pagamento: ${payment}`,
          ...duration,
          `Chiavi consegnate: ${i.hasKeys ? 'Sì' : 'No'}`,
          `Percentuale prezzo di vendita: ${pct(i.salePricePercentage)} (prezzo di vendita ${formatEuro(salePriceOf(i.propertyValue, i.salePricePercentage))})`,
          `Condivisione agenti: ${pct(i.agentCommissionPercentage)} (minima ${pct(i.minAgentCommissionPercentage)})`,
          ...(i.hasKeys ? [] : [`Disponibilità per le visite: almeno ${i.minMonthlySlots} slot al mese`]),
        ],
      },
      {
        title: 'Firma',
        lines: [
          `${owners.length > 1 ? 'I proprietari concedono' : 'Il venditore concede'} a ${i.grantee.name} l'opzione di acquisto alle condizioni sopra indicate.`,
          'Luogo e data: ______________________________',
          ...(owners.length > 1
            ? owners.map((o) => `Firma di ${o.name || 'proprietario'}: ______________________________`)
            : ['Firma del venditore: ______________________________']),
        ],
      },
    ],
  };
}
