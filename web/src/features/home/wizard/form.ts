import type { FieldErrors, Resolver } from 'react-hook-form';
import { DEFAULT_OMI_CATEGORY, type Feature, type OmiCategory, type YesNo, type YesNoUnknown } from '@domain/property/enums';
import { dependentFieldValues, makePropertyDetailsSchema, propertyFields, WIZARD_STEPS, type PropertyDetails, type SchemaOptions } from '@domain/property/schema';

/**
 * The wizard's form values (steps 1-3; rooms and media live in the rooms store). Inputs
 * hold text; the shared schema (functions/domain/property/schema.ts, the one the server
 * runs) turns them into numbers and codes and carries every rule and Italian message.
 */
export interface WizardValues {
  // step 1
  address: string;
  province: string;
  city: string;
  omiCategory: OmiCategory;
  propertyType: string;
  // step 2
  desiredAmount: string;
  surfaceArea: string;
  numRooms: string;
  numBathrooms: string;
  floor: string;
  hasTerrace: boolean;
  numTerraces: string;
  terraceSurfaceArea: string;
  // step 3
  condominiumFees: string;
  hasExtraordinaryExpenses: YesNo;
  extraordinaryExpensesDetails: string;
  extraordinaryExpensesAmount: string;
  features: Feature[];
  condition: string;
  buildYear: string;
  hasBox: boolean;
  numBox: string;
  hasGarage: boolean;
  numGarage: string;
  hasAbuses: YesNoUnknown;
  abusesDetails: string;
  hasHypothecs: YesNo;
  numHypothecs: string;
  hasApe: YesNo;
  apeClass: string;
  /** a yes/no question in the wizard, a boolean in the contract */
  hasWaterInfiltrations: YesNo;
  waterInfiltrationsDetails: string;
  notes: string;
  /** honeypot: hidden to people, always sent (empty unless a bot filled it) */
  website: string;
}

export type WizardField = keyof WizardValues;

export const DEFAULT_VALUES: WizardValues = {
  address: '',
  province: '',
  city: '',
  omiCategory: DEFAULT_OMI_CATEGORY,
  propertyType: '',
  desiredAmount: '',
  surfaceArea: '',
  numRooms: '',
  numBathrooms: '',
  floor: '',
  hasTerrace: false,
  numTerraces: '',
  terraceSurfaceArea: '',
  condominiumFees: '',
  hasExtraordinaryExpenses: 'no',
  extraordinaryExpensesDetails: '',
  extraordinaryExpensesAmount: '',
  features: [],
  condition: '',
  buildYear: '',
  hasBox: false,
  numBox: '',
  hasGarage: false,
  numGarage: '',
  hasAbuses: 'no',
  abusesDetails: '',
  hasHypothecs: 'no',
  numHypothecs: '',
  hasApe: 'no',
  apeClass: '',
  hasWaterInfiltrations: 'no',
  waterInfiltrationsDetails: '',
  notes: '',
  website: '',
};

export const STEP_COUNT = 4;
export const STEP_TITLES = ['Posizione e tipologia', 'Informazioni di base', 'Caratteristiche e condizioni', 'Foto e video'] as const;

/** The form fields of each step (the shared WIZARD_STEPS; step 4's rooms are not form fields). */
export const STEP_FIELDS: readonly (readonly WizardField[])[] = WIZARD_STEPS.map((fields) =>
  fields.filter((f): f is Exclude<typeof f, 'rooms'> => f !== 'rooms'),
);

/** The step (0-based) that shows a field of the contract, e.g. 'numBox' -> 2. */
export function stepOfField(field: string): number | undefined {
  const i = WIZARD_STEPS.findIndex((fields) => (fields as readonly string[]).includes(field));
  return i < 0 ? undefined : i;
}

/**
 * What the shared schema receives: the values with the dependent fields of a 'no' answer
 * left out (hidden fields keep what was typed, in case the answer turns back to yes, but
 * neither count nor block), and the water question as the contract's boolean.
 */
export function toDetailsInput(v: WizardValues): Record<string, unknown> {
  return {
    ...v,
    ...dependentFieldValues(v),
    hasWaterInfiltrations: v.hasWaterInfiltrations === 'si',
    rooms: [],
  };
}

const CONTRACT_FIELDS = Object.keys(propertyFields) as (keyof typeof propertyFields)[];

/** A value that passes the field's own check, to let the cross-field rules run (see validateDetails). */
function neutral(field: string): unknown {
  if (field === 'address') return '-';
  if (field === 'features') return [];
  return null;
}

export type DetailsResult = { ok: true; details: PropertyDetails } | { ok: false; errors: Partial<Record<string, string>> };

/**
 * Runs the shared property schema. Zod skips the object's cross-field rules (box, garage
 * and mortgage counts, comune of the province, build year) while any field fails on its
 * own, so a second pass with the failing fields neutralised reports those too: the person
 * sees every problem of the step at once. First message per field wins.
 */
export function validateDetails(values: WizardValues, opts: SchemaOptions): DetailsResult {
  const schema = makePropertyDetailsSchema(opts);
  const input = toDetailsInput(values);
  const first = schema.safeParse(input);
  if (first.success) return { ok: true, details: first.data };
  const errors: Partial<Record<string, string>> = {};
  const collect = (issues: { path: PropertyKey[]; message: string }[]) => {
    for (const issue of issues) {
      const field = String(issue.path[0] ?? '');
      if (field && errors[field] === undefined) errors[field] = issue.message;
    }
  };
  collect(first.error.issues);
  const patched = { ...input };
  for (const field of Object.keys(errors)) if ((CONTRACT_FIELDS as string[]).includes(field)) patched[field] = neutral(field);
  const second = schema.safeParse(patched);
  if (!second.success) collect(second.error.issues);
  return { ok: false, errors };
}

/**
 * react-hook-form resolver over the shared schema. `options()` gives the comuni once loaded;
 * `upToStep()` the last step shown so far: fields of later steps are not judged yet.
 */
export function wizardResolver(options: () => SchemaOptions, upToStep: () => number): Resolver<WizardValues> {
  return (values) => {
    const result = validateDetails(values, options());
    if (result.ok) return { values, errors: {} };
    const shown = new Set(STEP_FIELDS.slice(0, upToStep() + 1).flat());
    const errors: FieldErrors<WizardValues> = {};
    for (const [field, message] of Object.entries(result.errors)) {
      if (shown.has(field as WizardField) && message) (errors as Record<string, { type: string; message: string }>)[field] = { type: 'validate', message };
    }
    return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
  };
}
