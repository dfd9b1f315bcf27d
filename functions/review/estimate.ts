/**
 * Step 2: the estimate e-mail to the seller (send-valuation-email). Needs an available latest
 * valuation and the seller's e-mail. A fresh invitation token replaces the property's (the
 * old INVITE item is deleted, so only the new link works); the e-mail with the registration
 * link, valuation.emailSentAt and property.estimateSentAt are written in ONE transaction,
 * then the mail is delivered (a failure stays pending for the scheduled retry). The
 * transaction is model/review.ts recordEstimate.
 */
import type { Actor } from '../domain/activity';
import { config } from '../lib/config';
import { ConflictError, ValidationError } from '../lib/errors';
import { deliverOutbox } from '../model/outbox';
import { renderEstimateEmail } from '../domain/review/estimate-email';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import type { EstimateSent } from '../domain/review/schemas';
import type { ValuationResult } from '../domain/valuation';
import { newToken } from '../model/tokens';
import { requireDossier } from '../model/dossier';
import { deliverNow, recordEstimate, sellerEmailOf, sellerNameOf } from '../model/review';

export async function sendEstimate(propertyId: string, actor: Actor, now = new Date()): Promise<EstimateSent> {
  const { property, valuations } = await requireDossier(propertyId);
  const valuation = valuations.at(-1);
  if (!valuation || valuation.available !== true) throw new ConflictError(REVIEW_MESSAGES.noValuation);
  const to = sellerEmailOf(property);
  if (!to) throw new ValidationError(REVIEW_MESSAGES.sellerEmailMissing);

  const at = now.toISOString();
  const token = newToken();
  const oldToken = typeof property.invitationToken === 'string' && property.invitationToken ? property.invitationToken : null;
  const result = valuation.result as ValuationResult | undefined;
  const trend =
    result?.available && result.trend?.points.length
      ? { trend: result.trend, zoneLabel: `${result.zone.zona}, ${result.descrTipologia}, stato ${result.stato.used ?? 'senza indicazione'}` }
      : null;
  const mail = renderEstimateEmail({
    customerName: sellerNameOf(property),
    propertyAddress: (property.address as string) ?? '',
    propertyCity: (property.city as string | null) ?? null,
    valuationMin: valuation.valuationMin as number,
    valuationMax: valuation.valuationMax as number,
    valuationAvg: valuation.valuationAvg as number,
    cautiousDiscount: valuation.cautiousDiscount as number,
    adjustedAvg: valuation.adjustedAvg as number,
    registrationToken: token,
    appUrl: config().APP_URL,
    trend,
  });
  const outboxId = `estimate-${propertyId}-${now.getTime()}`;
  const recorded = await recordEstimate({ propertyId, valuation, token, oldToken, now, outboxId, mail: { to: [to], ...mail }, actor });
  if (recorded === 'property_changed') throw new ConflictError();
  if (recorded === 'valuation_gone') throw new ConflictError(REVIEW_MESSAGES.noValuation);
  const delivery = await deliverNow(outboxId, deliverOutbox);
  return { emailSentAt: at, estimateSentAt: at, delivery };
}
