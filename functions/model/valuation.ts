import { FEATURE_LABELS, labelOf } from '../domain/property/enums';
import type { PropertySubmission } from '../domain/property/schema';
import { evaluatePropertySchema, type ValuationRequest, type ValuationResult } from '../domain/valuation';
import { keys } from './keys';
import { valuate } from '../valuations/valuate';

/**
 * The valuation run on submission (spec 000 section 7 step 1), only when province, comune,
 * OMI category and surface are present. Its result (also a clear "not available") becomes
 * the property's first valuation item; any failure is the caller's to log, never to block.
 *
 * `valuate` is the valuation use case (OMI store + engine, functions/valuations/valuate.ts),
 * the same one the admin's POST /valuations/evaluate runs; tests may pass their own.
 */
export type Valuator = (request: ValuationRequest) => Promise<ValuationResult>;

export const VALUATION_TIMEOUT_MS = 4000;

const defaultValuator: Valuator = valuate;

type Valuable = Pick<
  PropertySubmission,
  'address' | 'province' | 'city' | 'omiCategory' | 'surfaceArea' | 'condition' | 'floor' | 'hasTerrace' | 'features'
>;

export function canValue(p: Valuable): p is Valuable & { province: string; city: string; surfaceArea: number } {
  return Boolean(p.province && p.city && p.omiCategory && p.surfaceArea && p.surfaceArea > 0);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Valutazione oltre ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The valuation of a submission, or undefined when it lacks the data to run. Throws on failure. */
export async function valueSubmission(p: Valuable, valuate: Valuator = defaultValuator): Promise<ValuationResult | undefined> {
  if (!canValue(p)) return undefined;
  const request = evaluatePropertySchema.parse({
    address: p.address,
    province: p.province,
    city: p.city,
    omiCategory: p.omiCategory,
    surfaceArea: p.surfaceArea,
    condition: p.condition,
    floor: p.floor,
    hasTerrace: p.hasTerrace,
    // labels: the valuation notes list the first features, and the lift check looks for 'ascensore'
    features: p.features.map((f) => labelOf(FEATURE_LABELS, f)),
  });
  return withTimeout(valuate(request), VALUATION_TIMEOUT_MS);
}

/** The property's valuation item (spec 001 property_valuations, camelCase). */
export function valuationItem(propertyId: string, createdAt: string, result: ValuationResult): Record<string, unknown> {
  const base = { ...keys.valuation(propertyId, createdAt), entity: 'valuation', propertyId, createdAt, origin: 'submission', available: result.available };
  if (!result.available) {
    return { ...base, reason: result.reason, omiSource: null, result };
  }
  return {
    ...base,
    valuationMin: result.propertyValueMin,
    valuationMax: result.propertyValueMax,
    valuationAvg: result.propertyValueAvg,
    cautiousDiscount: result.cautiousDiscount,
    adjustedMin: result.adjustedMin,
    adjustedMax: result.adjustedMax,
    adjustedAvg: result.adjustedAvg,
    omiSource: result.omiSource,
    omiDetails: result.omiDetails,
    emailSentAt: null,
    result,
  };
}
