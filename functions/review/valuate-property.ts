/**
 * The admin's valuation of a property (Istruttoria, step 1): runs the valuation use case on
 * the property's stored fields with the admin's discount, corrections and zone, and stores a
 * NEW valuation item (history kept, origin 'admin', who ran it) together with the property's
 * valuedAt in one transaction (model/valuation.ts saveAdminValuation). An unavailable
 * valuation is stored too, with its reason.
 */
import type { DossierValuation } from '../domain/requests';
import type { CreateValuationBody } from '../domain/review/schemas';
import type { ValuationRequest, ValuationResult } from '../domain/valuation';
import { saveAdminValuation, valuationRequestOf } from '../model/valuation';
import { valuate as defaultValuate } from '../model/omi/valuation';
import { adminName, loadProperty } from '../model/review';

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
  return saveAdminValuation({ propertyId, createdAt, result, createdBy: { userId: input.admin.userId, name } });
}
