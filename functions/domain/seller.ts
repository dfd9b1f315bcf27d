/**
 * Seller area (/seller-dashboard, /seller-profile): the contract of GET /seller/properties,
 * the profile and account-deletion inputs, the identity badge. Shared by the server
 * (functions/seller) and the SPA (web/src/features/seller).
 */
import type { OptionDuration } from './fees';
import * as z from 'zod';
import { formatDateTime } from './format';
import { renderSellerMail, type RenderedEmail } from './review/mail-layout';

export const SELLER_MESSAGES = {
  fullNameRequired: 'Il nome è obbligatorio',
  fullNameTooLong: 'Il nome può avere al massimo 120 caratteri',
  confirmDelete: "Conferma l'eliminazione dell'account",
  profileNotFound: 'Profilo non trovato',
  sellersOnly: 'Questa funzione è riservata ai venditori',
} as const;

export const FULL_NAME_MAX = 120;

/** PATCH /me/profile */
export const updateOwnProfileInput = z.object({
  fullName: z
    .string({ error: SELLER_MESSAGES.fullNameRequired })
    .trim()
    .min(1, SELLER_MESSAGES.fullNameRequired)
    .max(FULL_NAME_MAX, SELLER_MESSAGES.fullNameTooLong),
});
export type UpdateOwnProfileInput = z.infer<typeof updateOwnProfileInput>;

/** DELETE /me: the body must say {confirm: true} (the dialog's explicit confirmation). */
export const deleteAccountInput = z.object({
  confirm: z.literal(true, { error: SELLER_MESSAGES.confirmDelete }),
});

/** Identity state of a property (spec: no record = not started, verified, anything else = pending). */
export type IdentityState = 'verified' | 'pending' | 'not_started';

export const IDENTITY_BADGES: Record<IdentityState, { label: string; variant: 'success' | 'warning' | 'secondary' }> = {
  verified: { label: 'Verificata', variant: 'success' },
  pending: { label: 'In corso', variant: 'warning' },
  not_started: { label: 'Da completare', variant: 'secondary' },
};

/** The identity state from a stored status (the PROPERTY's identityStatus or the IDENTITY item's). */
export function identityStateOf(status: unknown, exists: boolean): IdentityState {
  if (status === 'verified') return 'verified';
  if (status === 'not_started') return 'not_started';
  return exists || (typeof status === 'string' && status !== '') ? 'pending' : 'not_started';
}

export interface SellerOptionSummary {
  status: string;
  propertyValue: number | null;
  optionAmount: number | null;
  /** null: an option stored before the duration was recorded */
  optionDuration: OptionDuration | null;
  /** yyyy-MM-dd, set at the signature */
  expiresAt: string | null;
  signedAt: string | null;
  createdAt: string | null;
  /** the seller left the keys: no visit slots are asked for */
  hasKeys: boolean;
}

/** One card of the seller dashboard. */
export interface SellerProperty {
  id: string;
  address: string;
  city: string;
  province: string;
  propertyType: string | null;
  surfaceArea: number | null;
  desiredAmount: number | null;
  createdAt: string;
  identityStatus: IdentityState;
  option: SellerOptionSummary | null;
}

export interface SellerPropertyList {
  items: SellerProperty[];
}

/**
 * Account erasure (GET /me/erasure, DELETE /me). 'full': no option signed or in an agent's
 * charge, everything goes. 'contract': at least one property whose option is signed
 * ('opzione_firmata') or assigned to an agent: what the contract and the payment need stays,
 * restricted, the rest goes.
 */
export type ErasureCase = 'full' | 'contract';

/** One property kept for its contract, as the profile page names it. */
export interface KeptProperty {
  id: string;
  address: string;
  city: string;
}

/** GET /me/erasure: what DELETE /me would do, said before the confirmation. */
export interface ErasurePlan {
  case: ErasureCase;
  /** what is erased, in the dialog's words */
  erased: string[];
  /** what is kept, for what and how long */
  kept: string[];
  /** the properties kept for their contract ('contract' case only) */
  keptProperties: KeptProperty[];
  /** days the copies of mails already sent stay in the outbox (model/outbox RETENTION_DAYS) */
  sentMailRetentionDays: number;
}

const sentMailLine = (days: number) =>
  `le copie delle e-mail che ti abbiamo già inviato restano nel registro degli invii per ${days} giorni, per l'assistenza, poi vengono cancellate automaticamente`;

/** The texts of each case (Italian, the dialog lists them as they are). */
export function erasurePlan(kept: readonly KeptProperty[], sentMailRetentionDays: number): ErasurePlan {
  if (kept.length === 0) {
    return {
      case: 'full',
      erased: [
        'il profilo',
        'gli immobili e le richieste',
        "le verifiche d'identità",
        'i comproprietari e i loro inviti',
        'le deleghe',
        'i documenti, le foto e i video caricati',
        "l'accesso al sito (e-mail e password)",
      ],
      kept: [sentMailLine(sentMailRetentionDays)],
      keptProperties: [],
      sentMailRetentionDays,
    };
  }
  return {
    case: 'contract',
    erased: [
      "il profilo e l'accesso al sito (e-mail e password)",
      "gli immobili senza un'opzione firmata o affidata a un agente, con tutti i loro dati e file",
      'gli inviti ai comproprietari e i link di invito e di disponibilità',
    ],
    kept: [
      "per gli immobili con l'opzione firmata o affidata a un agente conserviamo, solo per il contratto e gli obblighi di legge e con accesso riservato all'amministrazione: i dati dell'immobile, l'opzione di acquisto con il documento firmato, le verifiche d'identità e le deleghe firmate, la richiesta dell'agente e il suo pagamento",
      "l'amministrazione riceve una notifica dell'eliminazione e resta il tuo riferimento per il contratto",
      sentMailLine(sentMailRetentionDays),
    ],
    keptProperties: [...kept],
    sentMailRetentionDays,
  };
}

/** What the back office mail about an erased account with a kept contract shows. */
export interface ErasedAccountMailFacts {
  propertyId: string;
  address: string;
  city: string;
  sellerName: string;
  sellerEmail: string;
  optionSigned: boolean;
  assignedAgentId: string | null;
  erasedAt: string;
}

/** The back office's mail: a seller erased their account, a property is kept for its contract. */
export function erasedAccountMail(f: ErasedAccountMailFacts): RenderedEmail {
  const place = f.city ? `${f.address}, ${f.city}` : f.address;
  return renderSellerMail({
    subject: `Account venditore eliminato: contratto da seguire per ${place}`,
    title: 'Account venditore eliminato',
    greeting: 'Gentile amministrazione,',
    paragraphs: [
      `il venditore dell'immobile in ${place} ha eliminato il proprio account. L'opzione di acquisto è firmata o affidata a un agente, quindi l'immobile resta nella Dashboard Admin, segnato come appartenente a un account eliminato.`,
      "Sono conservati solo i dati che servono al contratto e al pagamento: l'immobile, l'opzione con il documento firmato, le verifiche d'identità, le deleghe firmate, la richiesta dell'agente e il pagamento. Il venditore non può più accedere al sito: per il contratto contattatelo all'indirizzo e-mail qui sotto.",
    ],
    rows: [
      ['Immobile', place],
      ['Codice immobile', f.propertyId],
      ['Venditore', f.sellerName || 'N/D'],
      ['E-mail del venditore', f.sellerEmail || 'N/D'],
      ['Opzione', f.optionSigned ? 'Firmata' : 'Non ancora firmata'],
      ['Agente assegnato', f.assignedAgentId ?? 'Nessuno'],
      ['Eliminato il', formatDateTime(f.erasedAt)],
    ],
  });
}
