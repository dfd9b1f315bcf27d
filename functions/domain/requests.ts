/**
 * The admin back office's view of a request (a submitted property): the shapes of the
 * /admin/properties routes, shared by the handlers and the SPA (Dashboard Admin and
 * Istruttoria Immobile), and the lifecycle every screen shows the same way.
 */
import type { DigitalSigner, SignatureFormat, SignatureType } from './onboarding/digital-signature';
import type { OptionDuration } from './fees';
import { OPTION_STATE_LABELS, type OptionState } from './option-lifecycle';
import type { ActivityEntry } from './activity';
import type { Visit } from './visits';
import type { PropertyAttributes } from './property/schema';
import type { RoomType } from './property/enums';
import type { ValuationResult } from './valuation';

/** The Italian messages of the /admin/properties routes (spec 001 sections 5 and 8). */
export const REQUEST_MESSAGES = {
  notFound: 'Immobile non trovato',
  userRequired: 'Seleziona un utente da assegnare',
  userNotFound: 'Utente non trovato',
  confirmDelete: "Per eliminare la richiesta scrivi 'elimina'",
  roomNotFound: 'Stanza non trovata',
  mediaNotFound: 'Foto non trovata',
  mediaKey: 'Il file non appartiene a questa stanza: caricalo di nuovo',
  mediaMissing: 'Il file non risulta caricato: caricalo di nuovo',
  searchTooShort: 'Scrivi almeno 2 caratteri per cercare',
  searchTooLong: 'La ricerca può avere al massimo 200 caratteri',
  cursor: 'Pagina non valida: ricarica la lista',
  limit: 'Il numero di richieste per pagina deve essere tra 1 e 100',
} as const;

/** The word the admin types to delete a request (case-insensitive). */
export const DELETE_CONFIRM_WORD = 'elimina';
export const isDeleteConfirmed = (typed: string) => typed.trim().toLowerCase() === DELETE_CONFIRM_WORD;

/** Page size of GET /admin/properties. */
export const REQUESTS_PAGE_SIZE = 50;
export const REQUESTS_PAGE_MAX = 100;
export const SEARCH_MIN_LENGTH = 2;

/**
 * Where a request stands, derived from what its dossier holds (never stored twice):
 * new -> valued -> estimate sent -> option created -> option signed.
 */
export const LIFECYCLE = ['nuova', 'valutata', 'stima_inviata', 'opzione_creata', 'opzione_firmata'] as const;
export type Lifecycle = (typeof LIFECYCLE)[number];

export const LIFECYCLE_LABELS: Record<Lifecycle, string> = {
  nuova: 'Nuova',
  valutata: 'Valutata',
  stima_inviata: 'Stima inviata',
  opzione_creata: 'Opzione creata',
  opzione_firmata: 'Opzione firmata',
};

/** The summary fields the PROPERTY item keeps up to date, so the list needs no other item. */
export interface LifecycleFacts {
  valuedAt?: string | null;
  estimateSentAt?: string | null;
  optionCreatedAt?: string | null;
  optionSignedAt?: string | null;
}

/**
 * Each state with the PROPERTY attribute that marks it, in order: the state is the latest one
 * whose attribute is set (the model's write guards state "in these states" from this too).
 */
export const LIFECYCLE_ORDER: readonly { state: Lifecycle; attribute: keyof LifecycleFacts | null }[] = [
  { state: 'nuova', attribute: null },
  { state: 'valutata', attribute: 'valuedAt' },
  { state: 'stima_inviata', attribute: 'estimateSentAt' },
  { state: 'opzione_creata', attribute: 'optionCreatedAt' },
  { state: 'opzione_firmata', attribute: 'optionSignedAt' },
];

export function lifecycleOf(p: LifecycleFacts): Lifecycle {
  for (let i = LIFECYCLE_ORDER.length - 1; i > 0; i--) if (p[LIFECYCLE_ORDER[i]!.attribute!]) return LIFECYCLE_ORDER[i]!.state;
  return 'nuova';
}

/** A row of the Dashboard Admin table (spec 001: date, first name, last name, e-mail, desired amount, comune, province). */
export interface RequestListItem extends LifecycleFacts {
  id: string;
  createdAt: string;
  firstName: string;
  lastName: string;
  email: string;
  desiredAmount: number | null;
  city: string | null;
  province: string | null;
  address: string;
  sourceId: string | null;
  /**
   * the source's name: copied at submission, else read from the source; null without a
   * source, or when the source was deleted before its name was copied ('Fonte eliminata')
   */
  sourceName: string | null;
  lifecycle: Lifecycle;
  /** the option's state once there is one (kept on the PROPERTY item by every option transition) */
  optionState: OptionState | null;
}

/**
 * GET /admin/properties?q=&state=&source=&from=&to=&sort=&cursor=&limit= (domain/request-list.ts):
 * newest first unless sorted otherwise; `total` counts every request matching the search and filters.
 */
export interface RequestList {
  items: RequestListItem[];
  total: number;
  /** opaque; absent on the last page */
  nextCursor?: string;
}

export interface DossierMedia {
  id: string;
  roomId: string;
  key: string;
  fileName: string;
  contentType: string;
  kind: 'image' | 'video';
  size: number;
  createdAt: string;
  /** short-lived presigned GET */
  url: string;
}

export interface DossierRoom {
  id: string;
  name: string;
  type: RoomType;
  position: number;
  media: DossierMedia[];
}

/** A stored valuation (spec property_valuations), with who ran it. */
export interface DossierValuation {
  createdAt: string;
  /** 'submission' (automatic at sending) or 'admin' */
  origin: 'submission' | 'admin';
  createdBy: { userId: string; name: string } | null;
  available: boolean;
  reason?: string;
  valuationMin?: number;
  valuationMax?: number;
  valuationAvg?: number;
  cautiousDiscount?: number;
  adjustedMin?: number;
  adjustedMax?: number;
  adjustedAvg?: number;
  omiSource: string | null;
  omiDetails?: { zona: string; stato: string; fascia: string; comprMin: number; comprMax: number };
  emailSentAt: string | null;
  /** the engine's whole answer (zone, rows used, corrections, notes, explanation) */
  result: ValuationResult;
}

export const DELEGATION_TYPES = ['catasto', 'urbanistica', 'ipotecario', 'anagrafe'] as const;
export type DelegationType = (typeof DELEGATION_TYPES)[number];
export const DELEGATION_LABELS: Record<DelegationType, string> = {
  catasto: 'Atti Catastali',
  urbanistica: 'Atti Urbanistici',
  ipotecario: 'Ispezione Ipotecaria',
  anagrafe: 'Certificati Anagrafici',
};

/** A file of the dossier the admin may download (identity images, signed copies, option PDF). */
export interface DossierFile {
  key: string;
  fileName: string;
  /** short-lived presigned GET */
  url: string;
}

export interface DossierIdentity {
  status: 'pending' | 'verified' | 'rejected';
  documentType: 'carta_identita' | 'passaporto' | 'patente';
  documentNumber: string | null;
  fullName: string | null;
  confidence: number | null;
  verifiedAt: string | null;
  /** when the check was made: an admin's decision names it (the check they looked at) */
  checkedAt: string | null;
  files: { documentFront?: DossierFile; documentBack?: DossierFile; facePhoto?: DossierFile };
}

export interface DossierCoOwner {
  id: string;
  email: string;
  fullName: string;
  share: number;
  invitedAt: string | null;
  verifiedAt: string | null;
  /** the co-owner's last identity check ('review': waiting for an admin in /identity-reviews); null: none */
  identityStatus: 'verified' | 'rejected' | 'review' | null;
}

export interface DossierDelegation {
  type: DelegationType;
  province: string;
  municipality: string;
  documentKey: string | null;
  signedAt: string | null;
  /** on paper or a verified firma digitale (null: not signed) */
  signatureType: SignatureType | null;
  /** the digital signature's signers, as verified (empty on paper) */
  signers: DigitalSigner[];
  file?: DossierFile;
}

/** The option's state: domain/option-lifecycle.ts (the spec's free status became the lifecycle). */
export type OptionStatus = OptionState;
export const OPTION_STATUS_LABELS = OPTION_STATE_LABELS;

/** The purchase option (spec purchase_options), camelCase. */
export interface PurchaseOption {
  id: string;
  propertyId: string;
  status: OptionStatus;
  assignedAgentId: string | null;
  propertyValue: number;
  optionAmount: number;
  /** 6, 8 or 12 months; null on an option stored before the duration was recorded (1% of the value) */
  optionDuration: OptionDuration | null;
  /** yyyy-MM-dd (Italy): the signature's day plus the duration, set when the signed copy is accepted */
  expiresAt: string | null;
  agentCommissionPercentage: number;
  minAgentCommissionPercentage: number;
  salePricePercentage: number;
  hasKeys: boolean;
  paymentType: 'anticipato' | 'rateale';
  installments: number | null;
  signatureType: SignatureType | null;
  signedAt: string | null;
  /** the signed copy; with a firma digitale its format and signers, as verified */
  signatureData: { signedDocumentKey: string; uploadedAt: string; format: SignatureFormat | null; signers: DigitalSigner[] } | null;
  minMonthlySlots: number;
  createdAt: string;
  notifiedAt: string | null;
  availabilityLinkSentAt: string | null;
  /** the option document, once generated, and its number of pages (null: counted only since pages are) */
  documentKey: string | null;
  documentPages: number | null;
  /** when an admin published it to agents (the last time) */
  publishedAt: string | null;
  /** when an agent's payment assigned it */
  assignedAt: string | null;
  /** the admin's reason, once cancelled */
  cancelReason: string | null;
}

export interface DossierSlot {
  id: string;
  date: string;
  start: string;
  end: string;
  isBooked: boolean;
}

/** GET /admin/properties/{propertyId}: the whole dossier, one Query plus presigned URLs. */
export interface RequestDossier {
  property: PropertyAttributes &
    LifecycleFacts & {
      id: string;
      createdAt: string;
      updatedAt: string;
      userId: string | null;
      assignedUserId: string | null;
      invitationToken: string | null;
      privacyConsentAt: string | null;
      /**
       * set when the seller deleted their account while the option was signed or assigned:
       * what the contract and the payment need is kept, the login and the rest are gone
       */
      erasedAccountAt: string | null;
      /** the source's name (copied at submission, else read from the source); null without one or once deleted */
      sourceName: string | null;
    };
  lifecycle: Lifecycle;
  rooms: DossierRoom[];
  /** oldest first; the last one is current */
  valuations: DossierValuation[];
  identity: DossierIdentity | null;
  coOwners: DossierCoOwner[];
  delegations: DossierDelegation[];
  option: PurchaseOption | null;
  slots: DossierSlot[];
  /** other files of the dossier (option document, signed option) with presigned URLs */
  documents: (DossierFile & { kind: string; uploadedAt: string })[];
  /** onboarding steps an admin reopened after the signature, oldest first (domain/onboarding/rules StepReopening) */
  reopenings?: { step: 'identity' | 'coOwners' | 'delegations'; reason: string; by: string; at: string; closedAt: string | null }[];
  /** the request's activity history, oldest first */
  activity: ActivityEntry[];
  /** the agents' visits, by date and time */
  visits: Visit[];
}
