import { formatDate } from '../format';
import type { DocumentSection } from '../review/option-document';
import { DOCUMENT_TYPE_LABELS, type DocumentType } from '../identity';
import { DELEGATION_LABELS, type DelegationType } from './rules';

/** What a delegation form (PDF) says, as Italian lines; the server lays them out with pdf-lib. */
export interface DelegationDocumentInput {
  type: DelegationType;
  createdAt: string;
  province: { code: string; name: string };
  municipality: string;
  property: { address: string; city: string | null; province: string | null };
  delegator: {
    fullName: string;
    fiscalCode: string;
    /** the identity document (absent on delegations generated before it was asked: a blank to fill by hand) */
    documentType?: DocumentType;
    documentNumber?: string;
    birthDate?: string;
    birthPlace?: string;
    address?: string;
  };
  delegatee: { company: string; administrator: string };
}

const PURPOSE: Record<DelegationType, string> = {
  catasto: "la consultazione e il rilascio di copia degli atti catastali (visure, planimetrie, estratti di mappa) relativi all'immobile",
  urbanistica: "l'accesso agli atti urbanistici ed edilizi (titoli abilitativi, pratiche, agibilità) relativi all'immobile",
  ipotecario: "l'ispezione ipotecaria e il rilascio di note, certificati e copie di formalità relativi all'immobile",
  anagrafe: 'il rilascio dei certificati anagrafici (residenza, stato di famiglia, stato civile) del delegante',
};

export function delegationDocument(i: DelegationDocumentInput): { title: string; subtitle: string; sections: DocumentSection[] } {
  const d = i.delegator;
  const place = [i.property.city, i.property.province ? `(${i.property.province})` : null].filter(Boolean).join(' ');
  return {
    title: `Delega - ${DELEGATION_LABELS[i.type]}`,
    subtitle: `Comune di ${i.municipality} (${i.province.name}) - ${formatDate(i.createdAt)}`,
    sections: [
      {
        title: 'Il delegante',
        lines: [
          `Nome e cognome: ${d.fullName}`,
          `Codice fiscale: ${d.fiscalCode}`,
          `Documento di identità: ${d.documentType ? DOCUMENT_TYPE_LABELS[d.documentType] : '______________'} n. ${d.documentNumber || '______________'}`,
          ...(d.birthDate || d.birthPlace ? [`Nato/a a ${d.birthPlace || '______________'} il ${d.birthDate ? formatDate(d.birthDate) : '______________'}`] : []),
          ...(d.address ? [`Residente in: ${d.address}`] : []),
        ],
      },
      {
        title: 'Delega',
        lines: [
          `la società ${i.delegatee.company}, in persona dell'amministratore ${i.delegatee.administrator}, o suo incaricato,`,
          `a richiedere presso gli uffici competenti del Comune di ${i.municipality} (${i.province.code}) ${PURPOSE[i.type]}.`,
        ],
      },
      {
        title: 'Immobile',
        lines: [`Indirizzo: ${i.property.address}${place ? `, ${place}` : ''}`],
      },
      {
        title: 'Firma',
        lines: [
          'Si allega copia del documento di identità del delegante.',
          'Luogo e data: ______________________________',
          'Firma del delegante: ______________________________',
        ],
      },
    ],
  };
}
