import type { FieldErrors, Resolver } from 'react-hook-form';
import type { YesNo } from '@domain/property/enums';
import { HONEYPOT_FIELD } from '@domain/property/limits';
import {
  dependentFieldValues,
  makePropertyDetailsSchema,
  propertyFields,
  WIZARD_STEPS,
  type PropertyDetails,
  type PropertyField,
  type PropertyFieldValues,
  type SchemaOptions,
} from '@domain/property/schema';

/**
 * The value an input holds for a contract value: text for numbers and optional answers
 * (the schema turns it into a number or a code), the value itself for toggles, answers
 * with a default and lists.
 */
type InputValue<T> = [T] extends [boolean] ? boolean : [T] extends [readonly (infer E)[]] ? E[] : null extends T ? string : T;
/** The contract's fields the form holds: all but step 4's rooms. */
type ContractFormField = Exclude<PropertyField, 'rooms'>;
type ContractInputs = { [K in ContractFormField]: InputValue<PropertyFieldValues[K]> };

/**
 * The wizard's form values: the contract's fields of steps 1-3 (functions/domain/property/
 * schema.ts, the one the server runs; rooms and media live in the rooms store), which
 * carries every rule and Italian message, plus the honeypot.
 */
export interface WizardValues extends Omit<ContractInputs, 'hasWaterInfiltrations'> {
  /** a yes/no question in the wizard, a boolean in the contract */
  hasWaterInfiltrations: YesNo;
  /** honeypot: hidden to people, always sent (empty unless a bot filled it) */
  [HONEYPOT_FIELD]: string;
}

export type WizardField = keyof WizardValues;

/** The form fields of each step (the shared WIZARD_STEPS; step 4's rooms are not form fields). */
export const STEP_FIELDS: readonly (readonly ContractFormField[])[] = WIZARD_STEPS.map((fields) =>
  fields.filter((f): f is ContractFormField => f !== 'rooms'),
);

/** A field left unanswered: the schema's own default (e.g. 'no', the OMI category), blank where that is null or there is none. */
function unanswered(field: ContractFormField): unknown {
  const parsed = propertyFields[field].safeParse(undefined);
  return parsed.success && parsed.data !== null ? parsed.data : '';
}

export const DEFAULT_VALUES: WizardValues = {
  ...(Object.fromEntries(STEP_FIELDS.flat().map((f) => [f, unanswered(f)])) as ContractInputs),
  hasWaterInfiltrations: 'no',
  [HONEYPOT_FIELD]: '',
};

export const STEP_COUNT = 4;
export const STEP_TITLES = ['Posizione e tipologia', 'Informazioni di base', 'Caratteristiche e condizioni', 'Foto e video'] as const;

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

type DetailsResult = { ok: true; details: PropertyDetails } | { ok: false; errors: Partial<Record<string, string>> };

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
      if (shown.has(field as ContractFormField) && message) (errors as Record<string, { type: string; message: string }>)[field] = { type: 'validate', message };
    }
    return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
  };
}
