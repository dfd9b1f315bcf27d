/**
 * Step 2: the estimate e-mail to the seller (send-valuation-email). Needs an available latest
 * valuation and the seller's e-mail. A fresh invitation token replaces the property's (the
 * old INVITE item is deleted, so only the new link works); the e-mail with the registration
 * link, valuation.emailSentAt and property.estimateSentAt are written in ONE transaction,
 * then the mail is delivered (a failure stays pending for the scheduled retry).
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure } from '../model/db';
import { config } from '../lib/config';
import { ConflictError, ValidationError } from '../lib/errors';
import { keys } from '../model/keys';
import { deliverOutbox, outboxPut } from '../model/outbox';
import { renderEstimateEmail } from '../domain/review/estimate-email';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import type { EstimateSent } from '../domain/review/schemas';
import { newToken, tokenExpiryFields } from '../model/tokens';
import { requireDossier } from '../model/dossier';
import { deliverNow, PROPERTY_EDITABLE, sellerEmailOf, sellerNameOf, table } from '../model/review';

export async function sendEstimate(propertyId: string, now = new Date()): Promise<EstimateSent> {
  const { property, valuations } = await requireDossier(propertyId);
  const valuation = valuations.at(-1);
  if (!valuation || valuation.available !== true) throw new ConflictError(REVIEW_MESSAGES.noValuation);
  const to = sellerEmailOf(property);
  if (!to) throw new ValidationError(REVIEW_MESSAGES.sellerEmailMissing);

  const at = now.toISOString();
  const token = newToken();
  const oldToken = typeof property.invitationToken === 'string' && property.invitationToken ? property.invitationToken : null;
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
  });
  const outboxId = `estimate-${propertyId}-${now.getTime()}`;
  const T = table();
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: T,
              Key: keys.property(propertyId),
              UpdateExpression: 'SET invitationToken = :token, estimateSentAt = :at, updatedAt = :at',
              // the token we replace is still the current one (two sends at once: one loses)
              ConditionExpression: `${PROPERTY_EDITABLE} AND ${oldToken ? 'invitationToken = :old' : '(attribute_not_exists(invitationToken) OR invitationToken = :null)'}`,
              ExpressionAttributeValues: { ':token': token, ':at': at, ...(oldToken ? { ':old': oldToken } : { ':null': null }) },
            },
          },
          {
            Update: {
              TableName: T,
              Key: { pk: valuation.pk, sk: valuation.sk },
              UpdateExpression: 'SET emailSentAt = :at',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':at': at },
            },
          },
          {
            Put: {
              TableName: T,
              Item: { ...keys.invitation(token), entity: 'invitation', propertyId, createdAt: at, ...tokenExpiryFields(now.getTime()) },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          ...(oldToken ? [{ Delete: { TableName: T, Key: keys.invitation(oldToken) } }] : []),
          outboxPut({ id: outboxId, kind: 'estimate', ref: propertyId, now: at, mail: { to: [to], ...mail } }),
        ],
      }),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new ConflictError();
    if (isConditionFailure(err, 1)) throw new ConflictError(REVIEW_MESSAGES.noValuation);
    throw err;
  }
  const delivery = await deliverNow(outboxId, deliverOutbox);
  return { emailSentAt: at, estimateSentAt: at, delivery };
}
