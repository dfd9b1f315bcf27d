/**
 * Seller onboarding (spec 000 sections 4, 5 and 9): co-owner shares, the Italian codice
 * fiscale, the delegation types and the steps of /seller-kyc as a pure function of the
 * dossier's facts. Shared by the handlers and the SPA.
 */
import { formatDecimal } from '../format';
import { DELEGATION_LABELS, DELEGATION_TYPES, type DelegationType } from '../requests';

export { DELEGATION_LABELS, DELEGATION_TYPES, type DelegationType };

export const ONBOARDING_MESSAGES = {
  propertyNotFound: 'Immobile non trovato',
  coOwnerMissingData: 'Dati mancanti',
  coOwnerEmail: 'Inserisci un indirizzo email valido',
  coOwnerIsSeller: "L'email di un comproprietario non può essere la tua: ogni comproprietario verifica la propria identità con il proprio indirizzo",
  coOwnerDocumentTaken: "Questo documento è già stato usato per un altro proprietario dell'immobile: usa il tuo documento d'identità",
  coOwnerRenamed: 'Il nome del comproprietario è cambiato durante la verifica: ripeti la verifica',
  coOwnerFullName: 'Inserisci il nome completo del comproprietario',
  coOwnerShare: 'La quota deve essere maggiore di 0 e al massimo 100',
  sellerShare: 'Indica la tua quota: maggiore di 0 e minore di 100',
  coOwnerDuplicate: 'Lo stesso indirizzo email compare più volte',
  tooManyCoOwners: (max: number) => `Al massimo ${max} comproprietari`,
  noCoOwnersToInvite: 'Nessun comproprietario da invitare',
  inviteFailed: "Errore nell'invio degli inviti",
  delegationsRequired: 'Seleziona provincia, comune e almeno un tipo di delega',
  delegationType: 'Tipo di delega non valido',
  municipalityNotInProvince: 'Il comune non appartiene alla provincia selezionata',
  delegatorName: 'Inserisci il nome completo del delegante',
  fiscalCode: 'Codice fiscale non valido',
  delegationNotFound: 'Delega non trovata',
  delegationNotGenerated: 'Genera prima le deleghe',
  uploadFileName: 'Nome del file non valido',
  uploadType: 'Formato non ammesso: carica un file pdf, jpg, jpeg, png, doc, docx o txt',
  uploadKey: 'Documento non valido',
  uploadMissing: 'Impossibile caricare il documento',
  completeHint: 'Carica tutte le deleghe firmate per completare questa fase',
  stepLocked: "L'opzione è già firmata: questo passaggio non si può più modificare.",
  stepLockedByOption: "L'opzione di acquisto è già stata preparata con questi dati: questo passaggio non si può più modificare. Per una correzione contatta l'assistenza.",
  reopenStep: 'Passaggio non valido: si possono riaprire identità, comproprietari o deleghe',
  reopenReason: 'Indica il motivo della riapertura',
  reopenReasonTooLong: 'Il motivo può avere al massimo 500 caratteri',
  reopenNotSigned: "L'opzione non è ancora firmata: il venditore può già modificare questo passaggio.",
} as const;

// ---- steps closed by the signature ---------------------------------------------------------

/**
 * Once the option is signed these steps are read-only for the seller (and the co-owners),
 * unless an admin reopens one with a reason; the seller completing it again closes it again.
 */
export const REOPENABLE_STEPS = ['identity', 'coOwners', 'delegations'] as const;
export type ReopenableStep = (typeof REOPENABLE_STEPS)[number];

/** The `{step}` of POST /admin/properties/{propertyId}/onboarding/{step}/reopen. */
export const REOPEN_STEP_PATHS: Record<string, ReopenableStep> = { identity: 'identity', 'co-owners': 'coOwners', delegations: 'delegations' };

export const REOPEN_REASON_MAX = 500;

export const REOPENABLE_STEP_LABELS: Record<ReopenableStep, string> = {
  identity: 'Verifica identità',
  coOwners: 'Comproprietari',
  delegations: 'Deleghe',
};

/** One reopening as the admin dossier shows it. */
export interface StepReopening {
  step: ReopenableStep;
  reason: string;
  /** the admin's user id */
  by: string;
  at: string;
  /** when the seller completed the step again (it closed), or null while it is open */
  closedAt: string | null;
}

// ---- co-owners ----------------------------------------------------------------------------

/** Co-owners of one property (the invitation transaction writes 3 items per co-owner). */
export const MAX_CO_OWNERS = 20;

/** The sum of the shares, rounded to hundredths (0.1 + 0.2 is 0.3). */
export function shareTotal(shares: readonly { share: number }[]): number {
  return Math.round(shares.reduce((sum, c) => sum + c.share, 0) * 100) / 100;
}

/** True when every share is > 0 and they total exactly 100. */
export function sharesComplete(shares: readonly { share: number }[]): boolean {
  return shares.length > 0 && shares.every((c) => c.share > 0) && shareTotal(shares) === 100;
}

/**
 * Every owner's share: the seller's own first (absent on lists saved before the seller's share
 * was asked: then 0, the co-owners' shares alone had to total 100), then the co-owners'.
 */
export function ownershipShares(sellerShare: number | null | undefined, coOwners: readonly { share: number }[]): { share: number }[] {
  return [{ share: sellerShare ?? 0 }, ...coOwners.map((c) => ({ share: c.share }))];
}

/** 'La somma delle quote è X% (dovrebbe essere 100%)', or null when the shares total 100. */
export function shareWarning(shares: readonly { share: number }[]): string | null {
  const total = shareTotal(shares);
  return total === 100 ? null : `La somma delle quote è ${formatDecimal(total)}% (dovrebbe essere 100%)`;
}

/**
 * The same name for a kept co-owner, whatever the case and the spacing. A co-owner whose name
 * changes is another person to the identity check, which compared the document with the old
 * name: the verification starts again.
 */
export function sameCoOwnerName(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLocaleLowerCase('it-IT');
  return norm(a) === norm(b);
}

/** 'Verificato' when the identity is verified, 'Invito inviato' when invited, else null. */
export function coOwnerBadge(c: { invitedAt?: string | null; verifiedAt?: string | null }): 'Verificato' | 'Invito inviato' | null {
  if (c.verifiedAt) return 'Verificato';
  if (c.invitedAt) return 'Invito inviato';
  return null;
}

// ---- codice fiscale -----------------------------------------------------------------------

export const FISCAL_CODE_LENGTH = 16;

/** Uppercase, no spaces, at most 16 characters: what the input field keeps. */
export function normalizeFiscalCode(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase().slice(0, FISCAL_CODE_LENGTH);
}

/** Omocodia: a digit can be replaced by one of these letters (0..9). */
const OMOCODIA = 'LMNPQRSTUV';
const D = `[0-9${OMOCODIA}]`;
const SHAPE = new RegExp(`^[A-Z]{6}${D}{2}[ABCDEHLMPRST]${D}{2}[A-Z]${D}{3}[A-Z]$`);
/** Values of a character in an odd position (1st, 3rd, ...): digits 0-9 then letters A-Z. */
const ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

function charValue(ch: string, odd: boolean): number {
  const code = ch.charCodeAt(0);
  const isDigit = code >= 48 && code <= 57;
  if (odd) return isDigit ? ODD[code - 48]! : ODD[code - 65]!;
  return isDigit ? code - 48 : code - 65;
}

/** The check character (16th) of the first 15 characters. */
export function fiscalCodeCheckChar(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) sum += charValue(first15[i]!, i % 2 === 0);
  return String.fromCharCode(65 + (sum % 26));
}

/** A valid Italian codice fiscale of a person: shape (with omocodia) and check character. */
export function isValidFiscalCode(text: string): boolean {
  const cf = text.trim().toUpperCase();
  if (!SHAPE.test(cf)) return false;
  return fiscalCodeCheckChar(cf.slice(0, 15)) === cf[15];
}

const cfLetters = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase().replace(/[^A-Z]/g, '');
const isVowel = (c: string) => 'AEIOU'.includes(c);

/** The codice fiscale's three letters of a surname: its consonants, then its vowels, then X. */
export function surnameCode(surname: string): string {
  const l = [...cfLetters(surname)];
  return [...l.filter((c) => !isVowel(c)), ...l.filter(isVowel), 'X', 'X', 'X'].slice(0, 3).join('');
}

/** The codice fiscale's three letters of a given name: with four consonants or more the 1st, 3rd and 4th; else as a surname. */
export function givenNameCode(name: string): string {
  const consonants = [...cfLetters(name)].filter((c) => !isVowel(c));
  return consonants.length >= 4 ? consonants[0]! + consonants[2]! + consonants[3]! : surnameCode(name);
}

/**
 * True when the codice fiscale's first six letters are those of `fullName`: its words split
 * anywhere into given names and surname, in either order ("Anna Maria Rossi", "Rossi Anna").
 * A check that the code given for a person is not someone else's: the codice fiscale encodes
 * the name (the letters that vary between homonyms are the birth data that follow).
 */
export function fiscalCodeFitsName(fiscalCode: string, fullName: string): boolean {
  const code = fiscalCode.trim().toUpperCase().slice(0, 6);
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  for (let k = 1; k < words.length; k++) {
    const head = words.slice(0, k).join(' ');
    const tail = words.slice(k).join(' ');
    if (surnameCode(tail) + givenNameCode(head) === code || surnameCode(head) + givenNameCode(tail) === code) return true;
  }
  return false;
}

// ---- signed delegation uploads ------------------------------------------------------------

export const SIGNED_DELEGATION_MAX_BYTES = 20 * 1024 * 1024;
/** Extension -> accepted Content-Types (spec 000: pdf, jpg, jpeg, png, doc, docx, txt). */
export const SIGNED_DELEGATION_TYPES: Record<string, readonly string[]> = {
  pdf: ['application/pdf'],
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  png: ['image/png'],
  doc: ['application/msword'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  txt: ['text/plain'],
  // a CAdES firma digitale (domain/onboarding/digital-signature.ts)
  p7m: ['application/pkcs7-mime'],
};

export function extensionOf(fileName: string): string {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(fileName.trim());
  return m ? m[1]!.toLowerCase() : '';
}

/** The extension when the file name and type are accepted, else null. */
export function signedUploadExtension(fileName: string, contentType: string): string | null {
  const ext = extensionOf(fileName);
  const types = SIGNED_DELEGATION_TYPES[ext];
  if (!types) return null;
  return types.includes(contentType.trim().toLowerCase()) ? ext : null;
}

// ---- steps --------------------------------------------------------------------------------

export type OnboardingStepId = 'identity' | 'coOwners' | 'delegations' | 'option';

/** The facts of a dossier the steps depend on. */
export interface OnboardingFacts {
  identity: { status: string } | null;
  coOwners: readonly unknown[];
  /** 'Salta (Proprietà Singola)' */
  singleOwner: boolean;
  delegations: readonly { documentKey?: string | null; signedAt?: string | null }[];
  option: { signedAt?: string | null; signatureData?: unknown; signatureType?: string | null } | null;
}

export interface OnboardingStep {
  id: OnboardingStepId;
  number: number;
  title: string;
  done: boolean;
  /** every earlier step is done */
  available: boolean;
}

export interface OnboardingState {
  steps: OnboardingStep[];
  /** the first step not done; null when everything is done */
  current: OnboardingStepId | null;
  complete: boolean;
  /** the text of the final card, when complete */
  completionMessage: string | null;
  /** the delegations step: 'Completa Fase' enabled */
  canCompleteDelegations: boolean;
}

export const STEP_TITLES: Record<OnboardingStepId, string> = {
  identity: "Verifica dell'identità",
  coOwners: 'Comproprietari',
  delegations: 'Deleghe',
  option: "Firma dell'opzione di acquisto",
};

export const COMPLETION_MESSAGES = {
  noOption:
    "Hai completato tutti i passaggi. Il nostro team accederà agli atti, preparerà l'opzione di acquisto e ti invierà il documento via email.",
  optionSigned: "Hai completato tutti i passaggi. Invia l'originale cartaceo dell'opzione firmata al nostro indirizzo.",
  /** a firma digitale is the original: nothing to post */
  optionSignedDigitally: "Hai completato tutti i passaggi. L'opzione è firmata digitalmente: non serve inviare l'originale cartaceo.",
} as const;

export const identityDone = (f: Pick<OnboardingFacts, 'identity'>) => f.identity?.status === 'verified';
export const coOwnersDone = (f: Pick<OnboardingFacts, 'coOwners' | 'singleOwner'>) => f.coOwners.length > 0 || f.singleOwner;
/** At least one delegation, each with a signed document and signedAt. */
export const delegationsDone = (f: Pick<OnboardingFacts, 'delegations'>) =>
  f.delegations.length > 0 && f.delegations.every((d) => Boolean(d.documentKey) && Boolean(d.signedAt));
export const optionSigned = (o: OnboardingFacts['option']) => Boolean(o?.signedAt) && o?.signatureData !== undefined && o?.signatureData !== null;

/** Spec 000 section 4, onboarding steps. */
export function onboardingState(f: OnboardingFacts): OnboardingState {
  const done: [OnboardingStepId, boolean][] = [
    ['identity', identityDone(f)],
    ['coOwners', coOwnersDone(f)],
    ['delegations', delegationsDone(f)],
  ];
  if (f.option) done.push(['option', optionSigned(f.option)]);
  let earlierDone = true;
  const steps = done.map(([id, isDone], i) => {
    const step: OnboardingStep = { id, number: i + 1, title: STEP_TITLES[id], done: isDone, available: earlierDone };
    earlierDone = earlierDone && isDone;
    return step;
  });
  const complete = done.slice(0, 3).every(([, d]) => d) && (!f.option || optionSigned(f.option));
  return {
    steps,
    current: steps.find((s) => !s.done)?.id ?? null,
    complete,
    completionMessage: !complete
      ? null
      : !f.option
        ? COMPLETION_MESSAGES.noOption
        : f.option.signatureType === 'digitale'
          ? COMPLETION_MESSAGES.optionSignedDigitally
          : COMPLETION_MESSAGES.optionSigned,
    canCompleteDelegations: delegationsDone(f),
  };
}
