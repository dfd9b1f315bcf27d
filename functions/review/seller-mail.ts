/**
 * Mails to the seller about the option: the notification with the onboarding link
 * (send-purchase-option-notification) and, for a signed option without keys, the link to
 * enter the visit availability. Each writes its outbox item and the option's timestamp in
 * ONE transaction, then delivers (a failure stays pending for the scheduled retry).
 */
import { config } from '../lib/config';
import { ConflictError, ValidationError } from '../lib/errors';
import { deliverOutbox } from '../model/outbox';
import { renderAvailabilityEmail, renderOptionNotification } from '../domain/review/option-emails';
import { toOptionDuration } from '../domain/fees';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import type { AvailabilityLinkSent, NotificationSent } from '../domain/review/schemas';
import { newToken } from '../model/tokens';
import { requireDossier } from '../model/dossier';
import { deliverNow, sellerEmailOf, sellerNameOf } from '../model/review';
import { recordOptionNotification } from '../model/option';
import { replaceAvailabilityLink } from '../model/availability';
import type { Actor } from '../domain/activity';
import { isRunningOption } from '../domain/option-lifecycle';

export async function notifySeller(propertyId: string, actor: Actor, now = new Date()): Promise<NotificationSent> {
  const { property, option } = await requireDossier(propertyId);
  if (!option) throw new ConflictError(REVIEW_MESSAGES.optionMissing);
  const to = sellerEmailOf(property);
  if (!to) throw new ValidationError(REVIEW_MESSAGES.notifyFailed, { email: REVIEW_MESSAGES.sellerEmailMissing });
  // a fresh link for this mail (the seller may open it long after the estimate's has expired)
  const token = newToken();
  const oldToken = typeof property.invitationToken === 'string' && property.invitationToken ? property.invitationToken : null;
  const at = now.toISOString();
  const mail = renderOptionNotification({
    sellerName: sellerNameOf(property),
    propertyAddress: (property.address as string) ?? '',
    propertyCity: (property.city as string | null) ?? null,
    optionAmount: option.optionAmount as number,
    optionDuration: toOptionDuration(option.optionDuration),
    propertyValue: option.propertyValue as number,
    paymentType: option.paymentType as string,
    kycToken: token,
    appUrl: config().APP_URL,
  });
  const outboxId = `option-notification-${propertyId}-${now.getTime()}`;
  await recordOptionNotification({ propertyId, token, oldToken, at }, { id: outboxId, kind: 'option-notification', ref: propertyId, mail: { to: [to], ...mail } }, actor, option);
  return { notifiedAt: at, delivery: await deliverNow(outboxId, deliverOutbox) };
}

export async function sendAvailabilityLink(propertyId: string, now = new Date()): Promise<AvailabilityLinkSent> {
  const { property, option } = await requireDossier(propertyId);
  if (!option || option.hasKeys !== false || !isRunningOption(option)) throw new ConflictError(REVIEW_MESSAGES.availabilityOnlySigned);
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
  await replaceAvailabilityLink({
    propertyId,
    optionId: option.id,
    token,
    oldToken,
    optionExpiresAt: typeof option.expiresAt === 'string' ? option.expiresAt : null,
    at,
    outbox: { id: outboxId, kind: 'availability-link', ref: propertyId, mail: { to: [to], ...mail } },
  });
  return { availabilityLinkSentAt: at, delivery: await deliverNow(outboxId, deliverOutbox) };
}
