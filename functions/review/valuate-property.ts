/**
 * The admin's valuation of a property (Istruttoria, step 1): runs the valuation use case on
 * the property's stored fields with the admin's discount, corrections and zone, and stores a
 * NEW valuation item (history kept, origin 'admin', who ran it) together with the property's
 * valuedAt in one transaction. An unavailable valuation is stored too, with its reason.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure } from '../model/db';
import { ConflictError, NotFoundError } from '../lib/errors';
import { keys } from '../model/keys';
import { FEATURE_LABELS, labelOf } from '../domain/property/enums';
import type { DossierValuation } from '../domain/requests';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import type { CreateValuationBody } from '../domain/review/schemas';
import { evaluatePropertySchema, type ValuationRequest, type ValuationResult } from '../domain/valuation';
import { valuationItem } from '../model/valuation';
import { valuate as defaultValuate } from '../valuations/valuate';
import { adminName, loadProperty, PROPERTY_EDITABLE, table, type Item } from '../model/review';

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

/** The engine's request from the stored property and the admin's choices. */
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

const CANNOT_VALUE = "Dati dell'immobile insufficienti per la valutazione (provincia, comune e superficie)";

export async function valuateProperty(input: {
  propertyId: string;
  body: CreateValuationBody;
  admin: { userId: string; email: string };
  now?: Date;
  valuate?: (r: ValuationRequest) => Promise<ValuationResult>;
}): Promise<DossierValuation> {
  const { propertyId } = input;
  const property = await loadProperty(propertyId);
  const parsed = (() => {
    try {
      return valuationRequestOf(property, input.body);
    } catch {
      return undefined;
    }
  })();
  const [name, result] = await Promise.all([
    adminName(input.admin.userId, input.admin.email),
    parsed
      ? (input.valuate ?? defaultValuate)(parsed)
      : Promise.resolve<ValuationResult>({
          available: false,
          reason: CANNOT_VALUE,
          comune: (property.city as string) ?? '',
          provincia: (property.province as string) ?? '',
          codTip: null,
          descrTipologia: null,
          semester: null,
          omiSource: null,
        }),
  ]);
  const createdAt = (input.now ?? new Date()).toISOString();
  const item = {
    ...valuationItem(propertyId, createdAt, result),
    origin: 'admin',
    createdBy: { userId: input.admin.userId, name },
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
