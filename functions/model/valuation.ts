import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { requestActivity } from './activity';
import { formatEuro } from '../domain/format';
import { FEATURE_LABELS, labelOf } from '../domain/property/enums';
import type { PropertySubmission } from '../domain/property/schema';
import type { DossierValuation } from '../domain/requests';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import type { CreateValuationBody } from '../domain/review/schemas';
import { evaluatePropertySchema, type ValuationRequest, type ValuationResult } from '../domain/valuation';
import { ConflictError, NotFoundError } from '../lib/errors';
import { ddb, isConditionFailure, table } from './db';
import type { Item } from './item';
import { keys } from './keys';
import { valuate } from './omi/valuation';
import { PROPERTY_EDITABLE } from './property';

/**
 * The valuation run on submission (spec 000 section 7 step 1), only when province, comune,
 * OMI category and surface are present. Its result (also a clear "not available") becomes
 * the property's first valuation item; any failure is the caller's to log, never to block.
 *
 * `valuate` is the valuation use case (OMI data + engine, model/omi/valuation.ts), the same
 * one the admin's POST /valuations/evaluate runs; tests may pass their own.
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

/** A stored valuation item as the dossier shows it. */
export function toDossierValuation(item: Item): DossierValuation {
  const result = item.result as ValuationResult;
  const createdBy = item.createdBy as { userId: string; name: string } | undefined;
  return {
    createdAt: item.createdAt as string,
    origin: item.origin === 'admin' ? 'admin' : 'submission',
    createdBy: createdBy ?? null,
    available: item.available === true,
    ...(item.available
      ? {
          valuationMin: item.valuationMin as number,
          valuationMax: item.valuationMax as number,
          valuationAvg: item.valuationAvg as number,
          cautiousDiscount: item.cautiousDiscount as number,
          adjustedMin: item.adjustedMin as number,
          adjustedMax: item.adjustedMax as number,
          adjustedAvg: item.adjustedAvg as number,
          omiDetails: item.omiDetails as DossierValuation['omiDetails'],
        }
      : { reason: item.reason as string }),
    omiSource: (item.omiSource as string | null) ?? null,
    emailSentAt: (item.emailSentAt as string | null) ?? null,
    result,
  };
}

/** The engine's request from the stored PROPERTY item and the admin's choices (throws when the property lacks the data). */
export function valuationRequestOf(p: Item, body: CreateValuationBody): ValuationRequest {
  const features = Array.isArray(p.features) ? (p.features as string[]) : [];
  return evaluatePropertySchema.parse({
    address: (p.address as string) ?? '',
    province: p.province,
    city: p.city,
    omiCategory: p.omiCategory ?? undefined,
    surfaceArea: p.surfaceArea,
    condition: p.condition ?? null,
    floor: p.floor ?? null,
    hasTerrace: p.hasTerrace ?? null,
    // labels, as on submission: the notes list them and the lift check looks for 'ascensore'
    features: features.map((f) => labelOf(FEATURE_LABELS, f)),
    applyGroundFloorCorrection: body.applyGroundFloorCorrection ?? null,
    applyNoBalconyCorrection: body.applyNoBalconyCorrection ?? null,
    applyNoElevatorCorrection: body.applyNoElevatorCorrection ?? null,
    groundFloorCorrection: body.groundFloorCorrection,
    noBalconyCorrection: body.noBalconyCorrection,
    noElevatorCorrection: body.noElevatorCorrection,
    cautiousDiscount: body.cautiousDiscount,
    linkZona: body.linkZona ?? null,
  });
}

/**
 * Stores an admin's valuation as a NEW valuation item (history kept, origin 'admin', who ran
 * it) together with the property's valuedAt (only when available) in one transaction: the
 * property must exist and not be being deleted (404), and no valuation may have been stored
 * at the same instant (409).
 */
export async function saveAdminValuation(input: {
  propertyId: string;
  createdAt: string;
  result: ValuationResult;
  createdBy: { userId: string; name: string };
}): Promise<DossierValuation> {
  const { propertyId, createdAt, result } = input;
  const item = {
    ...valuationItem(propertyId, createdAt, result),
    origin: 'admin',
    createdBy: input.createdBy,
    emailSentAt: null,
  };
  const T = table();
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: T,
              Key: keys.property(propertyId),
              UpdateExpression: result.available ? 'SET valuedAt = :at, updatedAt = :at' : 'SET updatedAt = :at',
              ConditionExpression: PROPERTY_EDITABLE,
              ExpressionAttributeValues: { ':at': createdAt },
            },
          },
          { Put: { TableName: T, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
          requestActivity(propertyId, 'request.valued', { id: input.createdBy.userId, role: 'admin', name: input.createdBy.name }, createdAt, {
            note: result.available ? `Valore medio ${formatEuro(result.propertyValueAvg)}` : 'Dati OMI non disponibili',
          }),
        ],
      }),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(REVIEW_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1)) throw new ConflictError('Una valutazione è appena stata salvata: riprova');
    throw err;
  }
  return toDossierValuation(item);
}
