/**
 * Istruttoria Immobile and Opzioni di Acquisto Attive: the pure rules shared by the handlers
 * and the SPA (spec 001 sections 4, 5 and 9).
 */
import { FEE_RATE_PER_100K, type OptionDuration } from '../fees';
import { formatDate, formatEuro } from '../format';
import type { DossierDelegation, DossierIdentity, DossierValuation, LifecycleFacts, PurchaseOption } from '../requests';

/**
 * The option amount is the home simulator's rule (fees.ts upfrontFee: 700 / 1000 / 1500 euro
 * per 100,000 euro for 6 / 8 / 12 months) on the value the option uses. Options created
 * before the duration was recorded were 1% of the value, duration unknown: read as such.
 */
export const LEGACY_OPTION_PERCENT = 1;
/** Installments of a 'rateale' option (no keys handed over). */
export const RATEALE_INSTALLMENTS = 12;
export const DEFAULT_CAUTIOUS_DISCOUNT = -10;
export const DEFAULT_CORRECTIONS = { groundFloor: -7, noBalcony: -5, noElevator: -7 } as const;
export const TERRACE_BONUS = 5;
/** Notes list the first 4 features. */
export const NOTES_FEATURES = 4;
/** The signed-document toast lasts 10 s; the option is polled every 5 s while unsigned. */
export const SIGNED_TOAST_MS = 10_000;
export const OPTION_POLL_MS = 5_000;

export const REVIEW_MESSAGES = {
  propertyNotFound: 'Immobile non trovato',
  loadFailed: "Impossibile caricare i dati dell'immobile",
  valuationFailed: "Errore nella valutazione dell'immobile",
  valuationDone: 'Valutazione completata',
  discountFailed: "Errore nell'aggiornamento del ribasso",
  emailFailed: "Errore nell'invio dell'email",
  emailSent: 'Email inviata',
  notifyFailed: "Errore nell'invio della notifica",
  notifySent: 'Notifica inviata!',
  sellerEmailMissing: 'Email del venditore non trovata',
  optionCreated: 'Successo',
  signedReceived: 'Documento Firmato Ricevuto!',
  noValuation: "Esegui prima una valutazione disponibile dell'immobile",
  optionExists: "Esiste già un'opzione per questo immobile",
  onboardingChanged: "I dati del venditore sono cambiati mentre preparavi l'opzione: ricarica la pagina e riprova.",
  optionMissing: 'Nessuna opzione di acquisto per questo immobile',
  invalidValue: 'Inserisci un valore immobile valido',
  availabilityOnlySigned: "Il link di disponibilità si invia solo per un'opzione firmata senza chiavi",
  optionsLoadFailed: 'Impossibile caricare le opzioni di acquisto',
  optionUpdateFailed: "Impossibile aggiornare l'opzione",
  optionUpdated: 'Opzione aggiornata con successo',
  optionNotFound: 'Opzione non trovata',
  noOptions: 'Nessuna opzione di acquisto trovata',
  nothingToUpdate: 'Nessuna modifica da salvare',
  identityMissing: "L'identità del venditore non è ancora verificata",
  coOwnersMissing: 'La gestione dei comproprietari non è completa: nessun comproprietario né delega',
  delegationsMissing: (labels: string[]) => `Deleghe non complete (documento firmato mancante): ${labels.join(', ')}`,
} as const;

/** The rate and duration of an option, e.g. '1.000 € ogni 100.000 €, 8 mesi'; a legacy option (no duration) says so. */
export function optionRateLabel(optionDuration: OptionDuration | null): string {
  if (optionDuration === null) return `${LEGACY_OPTION_PERCENT}% del valore, durata non registrata`;
  return `${formatEuro(FEE_RATE_PER_100K[optionDuration])} ogni ${formatEuro(100_000)}, ${optionDuration} mesi`;
}

/** 'Importo dell'opzione (1.000 € ogni 100.000 €, 8 mesi)': the label of the amount wherever it is shown. */
export function optionAmountLabel(optionDuration: OptionDuration | null): string {
  return `Importo dell'opzione (${optionRateLabel(optionDuration)})`;
}

/**
 * The option's expiry as shown: the date once signed (it-IT), the rule before the signature,
 * and, for an option stored without a duration, that it is not known.
 */
export function optionExpiryLabel(o: { optionDuration: OptionDuration | null; expiresAt: string | null }): string {
  if (o.expiresAt) return formatDate(o.expiresAt);
  if (o.optionDuration === null) return 'Non registrata (opzione creata senza durata)';
  return `${o.optionDuration} mesi dalla firma`;
}

/** Keys handed over: paid up front; otherwise in 12 installments. */
export function paymentTermsOf(hasKeys: boolean): { paymentType: 'anticipato' | 'rateale'; installments: number | null } {
  return hasKeys ? { paymentType: 'anticipato', installments: null } : { paymentType: 'rateale', installments: RATEALE_INSTALLMENTS };
}

export const PAYMENT_TYPE_LABELS = { anticipato: 'Anticipato', rateale: 'Rateale' } as const;

/** Payment type label: 'Anticipato', anything else 'Rateale' (spec 001 active options). */
export function paymentTypeLabel(paymentType: string | null | undefined): string {
  return paymentType === 'anticipato' ? PAYMENT_TYPE_LABELS.anticipato : PAYMENT_TYPE_LABELS.rateale;
}

/** Displayed sale price = value + value x sale% / 100, no decimals. */
export function salePriceOf(propertyValue: number, salePricePercentage: number): number {
  return Math.round(propertyValue + (propertyValue * salePricePercentage) / 100);
}

export interface SubStepInput {
  identity: Pick<DossierIdentity, 'status'> | null;
  coOwners: readonly unknown[];
  delegations: readonly Pick<DossierDelegation, 'type' | 'documentKey' | 'signedAt'>[];
  option?: Pick<PurchaseOption, 'signedAt'> | null;
}

export interface SubSteps {
  /** (1) the seller's identity is verified */
  identityVerified: boolean;
  /** (2) co-owner handling done: any co-owner or delegation exists */
  coOwnersDone: boolean;
  /** (3) every delegation has its document and a signed date (at least one delegation) */
  delegationsDone: boolean;
  /** (4) all of the above, in order: the option may be created */
  canCreateOption: boolean;
  optionCreated: boolean;
  optionSigned: boolean;
  /** the first sub-step not done, 1..4; 5 when the option is signed */
  current: number;
  /** Italian messages naming what is missing for the option */
  missing: string[];
}

/**
 * Step 3's sub-steps, unlocked in order (spec 001 section 4): identity verified, then co-owner
 * handling (any co-owner or delegation), then every delegation signed with its document.
 */
export function subStepsOf(d: SubStepInput, labelOf: (type: string) => string = (t) => t): SubSteps {
  const identityVerified = d.identity?.status === 'verified';
  const coOwnersDone = d.coOwners.length > 0 || d.delegations.length > 0;
  const unsigned = d.delegations.filter((x) => !x.documentKey || !x.signedAt);
  const delegationsDone = d.delegations.length > 0 && unsigned.length === 0;
  const missing: string[] = [];
  if (!identityVerified) missing.push(REVIEW_MESSAGES.identityMissing);
  if (!coOwnersDone) missing.push(REVIEW_MESSAGES.coOwnersMissing);
  else if (!delegationsDone) {
    missing.push(
      d.delegations.length === 0
        ? REVIEW_MESSAGES.delegationsMissing(['nessuna delega presente'])
        : REVIEW_MESSAGES.delegationsMissing(unsigned.map((x) => labelOf(x.type))),
    );
  }
  const canCreateOption = identityVerified && coOwnersDone && delegationsDone;
  const optionCreated = Boolean(d.option);
  const optionSigned = Boolean(d.option?.signedAt);
  const current = !identityVerified ? 1 : !coOwnersDone ? 2 : !delegationsDone ? 3 : !optionSigned ? 4 : 5;
  return { identityVerified, coOwnersDone, delegationsDone, canCreateOption, optionCreated, optionSigned, current, missing };
}

/**
 * The admin workflow's step counter (spec 001 section 4): 1 not yet valued; 2 valued; 3 once
 * the estimate e-mail was sent (restored from the latest valuation's emailSentAt) or an
 * option exists.
 */
export function reviewStepOf(d: {
  property: LifecycleFacts;
  valuations: readonly Pick<DossierValuation, 'available' | 'emailSentAt'>[];
  option: unknown;
}): 1 | 2 | 3 {
  const latest = d.valuations[d.valuations.length - 1];
  if (d.option || d.property.optionCreatedAt) return 3;
  if (latest?.emailSentAt || d.property.estimateSentAt) return 3;
  if (latest?.available || d.property.valuedAt) return 2;
  return 1;
}

/** The latest valuation that has figures, if any (oldest-first list). */
export function latestAvailable<V extends { available: boolean }>(valuations: readonly V[]): V | undefined {
  for (let i = valuations.length - 1; i >= 0; i--) if (valuations[i]!.available) return valuations[i];
  return undefined;
}

function isGroundFloor(floor: string | number | null | undefined): boolean {
  const f = String(floor ?? '').trim().toLowerCase();
  return f === 'terra' || f === '0';
}

/**
 * The correction checkboxes' initial state (spec 001 section 5): ground floor if floor is
 * 'terra' or '0'; no balcony if there is no terrace; no elevator if no feature contains 'ascensore'.
 */
export function defaultCorrectionFlags(p: { floor?: string | number | null; hasTerrace?: boolean | null; features?: readonly string[] | null }) {
  return {
    applyGroundFloorCorrection: isGroundFloor(p.floor),
    applyNoBalconyCorrection: !p.hasTerrace,
    applyNoElevatorCorrection: !(p.features ?? []).some((f) => f.toLowerCase().includes('ascensore')),
  };
}
