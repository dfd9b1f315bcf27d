/**
 * Mails to the seller about the option: the notification with the onboarding link
 * (send-purchase-option-notification) and, for a signed option without keys, the link to
 * enter the visit availability. Each writes its outbox item and the option's timestamp in
 * ONE transaction, then delivers (a failure stays pending for the scheduled retry).
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure } from '../model/db';
import { config } from '../lib/config';
import { ConflictError, NotFoundError, ValidationError } from '../lib/errors';
import { keys } from '../model/keys';
import { deliverOutbox, outboxPut } from '../model/outbox';
import { renderAvailabilityEmail, renderOptionNotification } from '../domain/review/option-emails';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import type { AvailabilityLinkSent, NotificationSent } from '../domain/review/schemas';
import { newToken, tokenExpiryFields } from '../model/tokens';
import { requireDossier } from '../model/dossier';
import { deliverNow, PROPERTY_EDITABLE, sellerEmailOf, sellerNameOf, table } from '../model/review';

const propertyCheck = (propertyId: string) => ({
  ConditionCheck: { TableName: table(), Key: keys.property(propertyId), ConditionExpression: PROPERTY_EDITABLE },
});

export async function notifySeller(propertyId: string, now = new Date()): Promise<NotificationSent> {
  const { property, option } = await requireDossier(propertyId);
  if (!option) throw new ConflictError(REVIEW_MESSAGES.optionMissing);
  const to = sellerEmailOf(property);
  if (!to) throw new ValidationError(REVIEW_MESSAGES.notifyFailed, { email: REVIEW_MESSAGES.sellerEmailMissing });
  const token = typeof property.invitationToken === 'string' ? property.invitationToken : '';
  if (!token) throw new ConflictError(REVIEW_MESSAGES.invitationMissing);

  const at = now.toISOString();
  const mail = renderOptionNotification({
    sellerName: sellerNameOf(property),
    propertyAddress: (property.address as string) ?? '',
    propertyCity: (property.city as string | null) ?? null,
    optionAmount: option.optionAmount as number,
    propertyValue: option.propertyValue as number,
    paymentType: option.paymentType as string,
    kycToken: token,
    appUrl: config().APP_URL,
  });
  const outboxId = `option-notification-${propertyId}-${now.getTime()}`;
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          propertyCheck(propertyId),
          {
            Update: {
              TableName: table(),
              Key: keys.option(propertyId),
              UpdateExpression: 'SET notifiedAt = :at, updatedAt = :at',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':at': at },
            },
          },
          outboxPut({ id: outboxId, kind: 'option-notification', ref: propertyId, now: at, mail: { to: [to], ...mail } }),
        ],
      }),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(REVIEW_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1)) throw new ConflictError(REVIEW_MESSAGES.optionMissing);
    throw err;
  }
  return { notifiedAt: at, delivery: await deliverNow(outboxId, deliverOutbox) };
}

export async function sendAvailabilityLink(propertyId: string, now = new Date()): Promise<AvailabilityLinkSent> {
  const { property, option } = await requireDossier(propertyId);
  if (!option || !option.signedAt || option.hasKeys !== false) throw new ConflictError(REVIEW_MESSAGES.availabilityOnlySigned);
  const to = sellerEmailOf(property);
  if (!to) throw new ValidationError(REVIEW_MESSAGES.sellerEmailMissing);

  const at = now.toISOString();
  const token = newToken();
  const oldToken = typeof option.availabilityToken === 'string' && option.availabilityToken ? option.availabilityToken : null;
  const mail = renderAvailabilityEmail({
    sellerName: sellerNameOf(property),
    propertyAddress: (property.address as string) ?? '',
    propertyCity: (property.city as string | null) ?? null,
    minMonthlySlots: (option.minMonthlySlots as number) ?? 1,
    token,
    appUrl: config().APP_URL,
  });
  const outboxId = `availability-${propertyId}-${now.getTime()}`;
  const T = table();
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          propertyCheck(propertyId),
          {
            Update: {
              TableName: T,
              Key: keys.option(propertyId),
              UpdateExpression: 'SET availabilityToken = :token, availabilityLinkSentAt = :at, updatedAt = :at',
              ConditionExpression: `attribute_exists(pk) AND attribute_exists(signedAt) AND signedAt <> :null AND hasKeys = :false AND ${
                oldToken ? 'availabilityToken = :old' : '(attribute_not_exists(availabilityToken) OR availabilityToken = :null)'
              }`,
              ExpressionAttributeValues: { ':token': token, ':at': at, ':null': null, ':false': false, ...(oldToken ? { ':old': oldToken } : {}) },
            },
          },
          {
            Put: {
              TableName: T,
              Item: {
                ...keys.availabilityToken(token),
                entity: 'availability-link',
                propertyId,
                optionId: option.id,
                createdAt: at,
                ...tokenExpiryFields(now.getTime()),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          // the previous link stops working
          ...(oldToken ? [{ Delete: { TableName: T, Key: keys.availabilityToken(oldToken) } }] : []),
          outboxPut({ id: outboxId, kind: 'availability-link', ref: propertyId, now: at, mail: { to: [to], ...mail } }),
        ],
      }),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(REVIEW_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1)) throw new ConflictError(REVIEW_MESSAGES.availabilityOnlySigned);
    throw err;
  }
  return { availabilityLinkSentAt: at, delivery: await deliverNow(outboxId, deliverOutbox) };
}
