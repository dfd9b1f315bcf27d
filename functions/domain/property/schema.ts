import * as z from 'zod';
import { DEFAULT_DURATION, OPTION_DURATION_MESSAGE, OPTION_DURATIONS } from '../fees';
import { SOURCE_ID_PATTERN } from '../sources';
import { parseAmount } from '../format';
import { isProvinceCode, provinceByCode } from '../places/provinces';
import {
  CONDITIONS,
  DEFAULT_OMI_CATEGORY,
  ENERGY_CLASSES,
  FEATURES,
  FLOORS,
  OMI_CATEGORIES,
  PROPERTY_TYPES,
  ROOM_TYPES,
  YES_NO,
  YES_NO_UNKNOWN,
} from './enums';
import {
  buildYearRange,
  HONEYPOT_FIELD,
  MAX_AMOUNT,
  MAX_MEDIA,
  MAX_NOTES_LENGTH,
  MAX_ROOMS,
  MAX_SURFACE,
  MAX_TEXT_LENGTH,
} from './limits';
import { parseMediaKey } from './media';
import { normalizePhone } from '../phone';

/** the wizard's phone rule, also the sign-up forms' (domain/phone.ts) */
export { normalizePhone };

/**
 * The submission of the 4-step wizard (spec 000 sections 2, 3 and 5), shared by the SPA
 * (form validation) and POST /properties. Every message is Italian.
 *
 * Conditional answers: a dependent field counts only when its answer is yes (terrace toggle
 * on, box/garage checked, 'si'); otherwise it is cleared (null) whatever was sent. Box,
 * garage and mortgage counts are required and at least 1 when checked.
 */

export const MESSAGES = {
  address: "Inserisci l'indirizzo dell'immobile per continuare",
  addressTooLong: "L'indirizzo è troppo lungo",
  province: 'Seleziona una provincia valida',
  comune: 'Seleziona un comune della provincia scelta',
  comuneWithoutProvince: 'Seleziona prima la provincia',
  omiCategory: 'Seleziona una categoria OMI valida',
  propertyType: 'Seleziona una tipologia di immobile valida',
  amount: "Inserisci l'importo in euro, solo cifre",
  amountWhole: "L'importo deve essere in euro interi, senza decimali",
  amountRange: "L'importo non è valido",
  surface: 'La superficie deve essere un numero maggiore di zero',
  surfaceMax: 'La superficie non è plausibile',
  integer: 'Inserisci un numero intero',
  nonNegative: 'Il numero non può essere negativo',
  floor: 'Seleziona un piano valido',
  terraces: 'Il numero di terrazzi deve essere almeno 1',
  terraceSurface: 'La superficie dei terrazzi deve essere maggiore di zero',
  yesNo: 'Rispondi sì o no',
  yesNoUnknown: 'Rispondi sì, no o non lo so',
  feature: 'Caratteristica non valida',
  condition: 'Seleziona uno stato valido',
  buildYear: (min: number, max: number) => `L'anno di costruzione deve essere tra il ${min} e il ${max}`,
  numBox: 'Indica quanti box (almeno 1)',
  numGarage: 'Indica quanti garage (almeno 1)',
  numHypothecs: 'Indica quante ipoteche (almeno 1)',
  apeClass: 'Seleziona una classe energetica valida',
  textTooLong: `Il testo può contenere al massimo ${MAX_TEXT_LENGTH} caratteri`,
  notesTooLong: `Le note possono contenere al massimo ${MAX_NOTES_LENGTH} caratteri`,
  firstName: 'Inserisci il tuo nome',
  lastName: 'Inserisci il tuo cognome',
  email: 'Inserisci un indirizzo email valido',
  phone: 'Inserisci il tuo numero di cellulare',
  phoneInvalid: 'Inserisci un numero di cellulare valido',
  privacy: "Per inviare la richiesta devi accettare l'informativa sulla privacy",
  draftId: 'Identificativo della richiesta non valido: ricarica la pagina',
  roomId: 'Identificativo della stanza non valido',
  roomType: 'Seleziona un tipo di stanza valido',
  tooManyRooms: `Puoi aggiungere al massimo ${MAX_ROOMS} stanze`,
  tooManyMedia: `Puoi caricare al massimo ${MAX_MEDIA} foto e video per immobile`,
  duplicateRoom: 'Stanza ripetuta',
  duplicateMedia: 'Lo stesso file è allegato due volte',
  mediaKey: 'Il file non appartiene a questa stanza: caricalo di nuovo',
} as const;

// ---- field helpers -------------------------------------------------------------------------

const blankToNull = (v: unknown) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null : v);

/** Optional free text: trimmed, empty -> null. */
const optionalText = (max: number, message: string) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() || null : blankToNull(v)), z.string().max(max, message).nullable());

/** Whole euro amount: a number, or text with digits, dots, commas, spaces and '€' (parseAmount's rule). */
const amount = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? parseAmount(v) : blankToNull(v)),
    z
      .number({ error: MESSAGES.amount })
      .int(MESSAGES.amountWhole)
      .min(0, MESSAGES.amountRange)
      .max(MAX_AMOUNT, MESSAGES.amountRange)
      .nullable(),
  );

const toNumber = (v: unknown) => {
  if (typeof v === 'string') {
    const t = v.trim().replace(',', '.');
    if (t === '') return null;
    return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
  }
  return blankToNull(v);
};

const optionalInt = (message: string = MESSAGES.integer) =>
  z.preprocess(toNumber, z.number({ error: message }).int(message).min(0, MESSAGES.nonNegative).max(10_000, message).nullable());

const optionalSurface = (message: string = MESSAGES.surface) =>
  z.preprocess(toNumber, z.number({ error: message }).positive(message).max(MAX_SURFACE, MESSAGES.surfaceMax).nullable());

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess(blankToNull, z.enum(values, { error: message }).nullable());

const bool = z.preprocess((v) => (v === undefined || v === null ? false : v), z.boolean({ error: MESSAGES.yesNo }));

// ---- the schema ----------------------------------------------------------------------------

const mediaRefSchema = z.object({
  key: z.string({ error: MESSAGES.mediaKey }).min(1, MESSAGES.mediaKey).max(300, MESSAGES.mediaKey),
});

const roomSchema = z.object({
  id: z.uuid({ error: MESSAGES.roomId }),
  type: z.enum(ROOM_TYPES, { error: MESSAGES.roomType }),
  media: z.array(mediaRefSchema).max(MAX_MEDIA, MESSAGES.tooManyMedia).default([]),
});

/**
 * The property's fields (steps 1-4), without contact data, grouped by the wizard step that
 * shows them: THE field list of the contract. The wizard's form values, defaults and steps,
 * the stored PROPERTY item and the test fixtures are derived from it.
 */
const stepFields = [
  // step 1: location and type
  {
    address: z.string({ error: MESSAGES.address }).trim().min(1, MESSAGES.address).max(MAX_TEXT_LENGTH, MESSAGES.addressTooLong),
    province: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim().toUpperCase() || null : blankToNull(v)),
      z.string({ error: MESSAGES.province }).refine(isProvinceCode, MESSAGES.province).nullable(),
    ),
    city: optionalText(120, MESSAGES.comune),
    omiCategory: z.preprocess((v) => blankToNull(v) ?? DEFAULT_OMI_CATEGORY, z.enum(OMI_CATEGORIES, { error: MESSAGES.omiCategory })),
    propertyType: optionalEnum(PROPERTY_TYPES, MESSAGES.propertyType),
  },
  // step 2: basic information
  {
    desiredAmount: amount(),
    /** the option's duration chosen in the home simulator or the wizard: 6, 8 or 12 months, default 6 */
    optionDuration: z.preprocess(
      (v) => (blankToNull(v) === null ? DEFAULT_DURATION : typeof v === 'string' ? Number(v) : v),
      z.literal(OPTION_DURATIONS, { error: OPTION_DURATION_MESSAGE }),
    ),
    surfaceArea: optionalSurface(),
    numRooms: optionalInt(),
    numBathrooms: optionalInt(),
    floor: optionalEnum(FLOORS as unknown as readonly [string, ...string[]], MESSAGES.floor),
    hasTerrace: bool,
    numTerraces: z.preprocess(toNumber, z.number({ error: MESSAGES.terraces }).int(MESSAGES.terraces).min(1, MESSAGES.terraces).max(100, MESSAGES.terraces).nullable()),
    terraceSurfaceArea: optionalSurface(MESSAGES.terraceSurface),
  },
  // step 3: characteristics and conditions
  {
    condominiumFees: amount(),
    hasExtraordinaryExpenses: z.preprocess((v) => blankToNull(v) ?? 'no', z.enum(YES_NO, { error: MESSAGES.yesNo })),
    extraordinaryExpensesDetails: optionalText(MAX_TEXT_LENGTH, MESSAGES.textTooLong),
    extraordinaryExpensesAmount: amount(),
    features: z.preprocess(
      (v) => (Array.isArray(v) ? [...new Set(v)] : blankToNull(v) ?? []),
      z.array(z.enum(FEATURES, { error: MESSAGES.feature }), { error: MESSAGES.feature }),
    ),
    condition: optionalEnum(CONDITIONS, MESSAGES.condition),
    buildYear: z.preprocess(toNumber, z.number({ error: MESSAGES.integer }).int(MESSAGES.integer).nullable()),
    hasBox: bool,
    numBox: z.preprocess(toNumber, z.number({ error: MESSAGES.numBox }).int(MESSAGES.numBox).nullable()),
    hasGarage: bool,
    numGarage: z.preprocess(toNumber, z.number({ error: MESSAGES.numGarage }).int(MESSAGES.numGarage).nullable()),
    hasAbuses: z.preprocess((v) => blankToNull(v) ?? 'no', z.enum(YES_NO_UNKNOWN, { error: MESSAGES.yesNoUnknown })),
    abusesDetails: optionalText(MAX_TEXT_LENGTH, MESSAGES.textTooLong),
    hasHypothecs: z.preprocess((v) => blankToNull(v) ?? 'no', z.enum(YES_NO, { error: MESSAGES.yesNo })),
    numHypothecs: z.preprocess(toNumber, z.number({ error: MESSAGES.numHypothecs }).int(MESSAGES.numHypothecs).nullable()),
    hasApe: z.preprocess((v) => blankToNull(v) ?? 'no', z.enum(YES_NO, { error: MESSAGES.yesNo })),
    apeClass: optionalEnum(ENERGY_CLASSES, MESSAGES.apeClass),
    hasWaterInfiltrations: bool,
    waterInfiltrationsDetails: optionalText(MAX_TEXT_LENGTH, MESSAGES.textTooLong),
    notes: optionalText(MAX_NOTES_LENGTH, MESSAGES.notesTooLong),
  },
  // step 4: photos and videos
  {
    rooms: z.preprocess((v) => blankToNull(v) ?? [], z.array(roomSchema).max(MAX_ROOMS, MESSAGES.tooManyRooms)),
  },
] as const;

/** The property's fields (steps 1-4), without contact data. */
export const propertyFields = { ...stepFields[0], ...stepFields[1], ...stepFields[2], ...stepFields[3] };
export type PropertyField = keyof typeof propertyFields;
/** Each field's value once validated (before the cross-field rules clear the dependent ones). */
export type PropertyFieldValues = { [K in PropertyField]: z.output<(typeof propertyFields)[K]> };

/** Which fields each wizard step shows (for step-by-step validation in the SPA). */
export const WIZARD_STEPS: readonly (readonly PropertyField[])[] = stepFields.map((fields) => Object.keys(fields) as PropertyField[]);

/** The contact dialog 'I tuoi dati di contatto'. */
export const contactFields = {
  firstName: z.string({ error: MESSAGES.firstName }).trim().min(1, MESSAGES.firstName).max(100, MESSAGES.firstName),
  lastName: z.string({ error: MESSAGES.lastName }).trim().min(1, MESSAGES.lastName).max(100, MESSAGES.lastName),
  email: z
    .string({ error: MESSAGES.email })
    .trim()
    .toLowerCase()
    .max(254, MESSAGES.email)
    .pipe(z.email({ error: MESSAGES.email })),
  phone: z
    .string({ error: MESSAGES.phone })
    .trim()
    .min(1, MESSAGES.phone)
    .transform((v, ctx) => {
      const phone = normalizePhone(v);
      if (!phone) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.phoneInvalid });
        return z.NEVER;
      }
      return phone;
    }),
  privacyConsent: z.literal(true, { error: MESSAGES.privacy }),
};

/**
 * The submission's contact data: either the dialog's (every field valid), or — the wizard's
 * option to skip the dialog (spec 000 section 2) — all four empty with consent set true.
 */
const submissionContactFields = {
  firstName: z.string({ error: MESSAGES.firstName }).trim(),
  lastName: z.string({ error: MESSAGES.lastName }).trim(),
  email: z.string({ error: MESSAGES.email }).trim(),
  phone: z.string({ error: MESSAGES.phone }).trim(),
  privacyConsent: contactFields.privacyConsent,
};
/** The contact data the person types (the consent is given at each sending). */
export const CONTACT_KEYS = ['firstName', 'lastName', 'email', 'phone'] as const;
export type ContactKey = (typeof CONTACT_KEYS)[number];
export const EMPTY_CONTACT: Readonly<Record<ContactKey, string>> = { firstName: '', lastName: '', email: '', phone: '' };

function checkContact(v: Record<ContactKey, string>, ctx: Ctx) {
  if (CONTACT_KEYS.every((k) => v[k] === '')) return;
  for (const k of CONTACT_KEYS) {
    const r = contactFields[k].safeParse(v[k]);
    if (!r.success) issue(ctx, [k], r.error.issues[0]?.message ?? MESSAGES[k]);
  }
}

/** The contact data as stored: normalised when given (e-mail lower case, phone E.164), else empty. */
function normalizeContact(v: Record<ContactKey, string>): Record<ContactKey, string> {
  if (CONTACT_KEYS.every((k) => v[k] === '')) return { ...EMPTY_CONTACT };
  return Object.fromEntries(CONTACT_KEYS.map((k) => [k, contactFields[k].parse(v[k])])) as Record<ContactKey, string>;
}

const SOURCE_ID = SOURCE_ID_PATTERN;

/** Anything else the request carries. */
const envelopeFields = {
  /** uuid made by the client when the wizard starts; it becomes the property id */
  propertyDraftId: z.uuid({ error: MESSAGES.draftId }),
  /** the `?id=` of the landing URL (lead source); a malformed one is dropped, never blocks */
  sourceId: z.preprocess((v) => (typeof v === 'string' && SOURCE_ID.test(v.trim()) ? v.trim() : null), z.string().nullable()),
  /** honeypot: people never see it */
  [HONEYPOT_FIELD]: z.preprocess((v) => (typeof v === 'string' ? v : ''), z.string()),
};

export interface PlacesLookup {
  findComune(provinceCode: string, name: string): { name: string; istat: string } | undefined;
}

export interface SchemaOptions {
  /** the comuni list (server: always; SPA: once loaded). Without it the comune is only checked as text. */
  places?: PlacesLookup;
  /** the clock, for the build-year range (tests) */
  now?: () => Date;
}

type Ctx = z.core.$RefinementCtx;

function issue(ctx: Ctx, path: (string | number)[], message: string) {
  ctx.addIssue({ code: 'custom', path, message });
}

interface RawProperty {
  province: string | null;
  city: string | null;
  buildYear: number | null;
  hasBox: boolean;
  numBox: number | null;
  hasGarage: boolean;
  numGarage: number | null;
  hasHypothecs: string;
  numHypothecs: number | null;
  rooms: { id: string; media: { key: string }[] }[];
}

function checkProperty(v: RawProperty, ctx: Ctx, opts: SchemaOptions, draftId?: string) {
  if (v.city && !v.province) issue(ctx, ['city'], MESSAGES.comuneWithoutProvince);
  if (v.city && v.province && opts.places && !opts.places.findComune(v.province, v.city)) issue(ctx, ['city'], MESSAGES.comune);
  if (v.buildYear !== null) {
    const { min, max } = buildYearRange(opts.now?.() ?? new Date());
    if (v.buildYear < min || v.buildYear > max) issue(ctx, ['buildYear'], MESSAGES.buildYear(min, max));
  }
  if (v.hasBox && !(v.numBox !== null && v.numBox >= 1 && v.numBox <= 100)) issue(ctx, ['numBox'], MESSAGES.numBox);
  if (v.hasGarage && !(v.numGarage !== null && v.numGarage >= 1 && v.numGarage <= 100)) issue(ctx, ['numGarage'], MESSAGES.numGarage);
  if (v.hasHypothecs === 'si' && !(v.numHypothecs !== null && v.numHypothecs >= 1 && v.numHypothecs <= 100)) {
    issue(ctx, ['numHypothecs'], MESSAGES.numHypothecs);
  }
  const total = v.rooms.reduce((n, r) => n + r.media.length, 0);
  if (total > MAX_MEDIA) issue(ctx, ['rooms'], MESSAGES.tooManyMedia);
  const roomIds = new Set<string>();
  const keys = new Set<string>();
  v.rooms.forEach((room, i) => {
    if (roomIds.has(room.id)) issue(ctx, ['rooms', i, 'id'], MESSAGES.duplicateRoom);
    roomIds.add(room.id);
    room.media.forEach((m, j) => {
      if (keys.has(m.key)) issue(ctx, ['rooms', i, 'media', j, 'key'], MESSAGES.duplicateMedia);
      keys.add(m.key);
      if (draftId) {
        const parsed = parseMediaKey(m.key);
        if (!parsed || parsed.propertyId !== draftId || parsed.roomId !== room.id) issue(ctx, ['rooms', i, 'media', j, 'key'], MESSAGES.mediaKey);
      }
    });
  });
}

/**
 * The fields that depend on an answer, null where the answer is no or the toggle is off
 * ('si' / true count as yes). The server stores this; the wizard checks a step with it,
 * so a hidden field keeps what was typed but neither counts nor blocks.
 */
const DEPENDENT_ON = {
  numTerraces: 'hasTerrace',
  terraceSurfaceArea: 'hasTerrace',
  extraordinaryExpensesDetails: 'hasExtraordinaryExpenses',
  extraordinaryExpensesAmount: 'hasExtraordinaryExpenses',
  numBox: 'hasBox',
  numGarage: 'hasGarage',
  abusesDetails: 'hasAbuses',
  numHypothecs: 'hasHypothecs',
  apeClass: 'hasApe',
  waterInfiltrationsDetails: 'hasWaterInfiltrations',
} as const;
type DependentField = keyof typeof DEPENDENT_ON;
type Answers = { [K in DependentField | (typeof DEPENDENT_ON)[DependentField]]: unknown };

export function dependentFieldValues<V extends Answers>(v: V): { [K in DependentField]: V[K] | null } {
  const yes = (a: unknown) => a === 'si' || a === true;
  const out: Record<string, unknown> = {};
  for (const [field, question] of Object.entries(DEPENDENT_ON)) out[field] = yes(v[question as keyof V]) ? v[field as keyof V] : null;
  return out as { [K in DependentField]: V[K] | null };
}

/** Clears what the answers make irrelevant and canonicalises the comune. */
function normalizeProperty<T extends RawProperty & Answers & Record<string, unknown>>(v: T, opts: SchemaOptions) {
  const comune = v.province && v.city ? opts.places?.findComune(v.province, v.city) : undefined;
  const dependent = dependentFieldValues(v);
  return {
    ...v,
    province: v.province ? provinceByCode(v.province)!.code : null,
    city: comune?.name ?? v.city,
    cityIstat: comune?.istat ?? null,
    ...dependent,
  };
}

/** Steps 1-4 only (e.g. a signed-in seller's request, whose contact data comes from the profile). */
export function makePropertyDetailsSchema(opts: SchemaOptions = {}) {
  return z
    .object(propertyFields)
    .superRefine((v, ctx) => checkProperty(v, ctx, opts))
    .transform((v) => normalizeProperty(v, opts));
}

/** The anonymous wizard submission: property, rooms with media, contact data (or none, see above) and consent. */
export function makeSubmissionSchema(opts: SchemaOptions = {}) {
  return z
    .object({ ...envelopeFields, ...propertyFields, ...submissionContactFields })
    .superRefine((v, ctx) => {
      checkProperty(v, ctx, opts, v.propertyDraftId);
      checkContact(v, ctx);
    })
    .transform((v) => ({ ...normalizeProperty(v, opts), ...normalizeContact(v) }));
}

/** Without the comuni list (comune checked as text only). */
export const submissionSchema = makeSubmissionSchema();

export type SubmissionInput = z.input<ReturnType<typeof makeSubmissionSchema>>;
export type PropertySubmission = z.output<ReturnType<typeof makeSubmissionSchema>>;
export type PropertyDetails = z.output<ReturnType<typeof makePropertyDetailsSchema>>;

/**
 * The fields the PROPERTY item stores: the validated submission without the envelope's
 * draft id (it becomes the item's id) and honeypot, and without the rooms (items of their own).
 */
export type PropertyAttributes = Omit<PropertySubmission, 'propertyDraftId' | typeof HONEYPOT_FIELD | 'rooms'>;

export function propertyAttributes(s: PropertySubmission): PropertyAttributes {
  const { propertyDraftId: _id, [HONEYPOT_FIELD]: _honeypot, rooms: _rooms, ...attributes } = s;
  return attributes;
}
