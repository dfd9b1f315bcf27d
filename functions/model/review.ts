/**
 * The reads the review use cases share besides the dossier (functions/requests/dossier-store.ts
 * `requireDossier`: one Query): the PROPERTY item alone, the option alone (polling), the
 * admin's name, and the condition every state change carries; and the estimate's write
 * (recordEstimate: one TransactWriteItems, the property's guard at index 0).
 */
export { type Item } from './item';
import { requestActivity } from './activity';
import type { Actor } from '../domain/activity';
import { type Item } from './item';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './db';
import { keys } from './keys';
import { logger } from '../lib/logger';
import type { MailMessage } from '../lib/mail';
import { outboxPut } from './outbox';
import { propertyCondition, requireProperty } from './property';
import { invitationCondition, invitationLinkItems } from './invitation';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import { toPurchaseOption } from './option';
import type { PurchaseOption } from '../domain/requests';

export { table } from './db';

/** The condition of every write on a property: it exists and is not being deleted. */
export { PROPERTY_EDITABLE } from './property';


/** The PROPERTY item, or 404 'Immobile non trovato' (also while it is being deleted). */
export async function loadProperty(propertyId: string): Promise<Item> {
  return requireProperty(propertyId, REVIEW_MESSAGES.propertyNotFound);
}

export async function loadOptionItem(propertyId: string): Promise<Item | undefined> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: keys.option(propertyId), ConsistentRead: true }));
  return res.Item;
}

/** The admin's display name (profile full name, else e-mail). */
export async function adminName(userId: string, email: string): Promise<string> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: keys.profile(userId), ProjectionExpression: 'fullName' }));
  return (res.Item?.fullName as string | undefined) || email || 'Amministratore';
}

export function sellerNameOf(p: Item): string {
  return `${(p.firstName as string) ?? ''} ${(p.lastName as string) ?? ''}`.trim();
}

/** The seller's e-mail on the property, or undefined. */
export function sellerEmailOf(p: Item): string | undefined {
  const e = typeof p.email === 'string' ? p.email.trim() : '';
  return e || undefined;
}

/** Runs the outbox delivery right after the commit: a failure stays pending for the scheduled retry. */
export async function deliverNow(outboxId: string, deliver: (id: string) => Promise<'sent' | 'retry' | 'failed' | 'skipped'>): Promise<'sent' | 'pending'> {
  try {
    const outcome = await deliver(outboxId);
    if (outcome !== 'sent') logger.warn('Mail not sent now; the scheduled retry will try again', { outboxId, outcome });
    return outcome === 'sent' ? 'sent' : 'pending';
  } catch (err) {
    logger.error('Mail not sent now; the scheduled retry will send it', { outboxId, error: err as Error });
    return 'pending';
  }
}

/** The light read the review page polls while the option is unsigned. */
export async function optionStatus(propertyId: string): Promise<{ option: PurchaseOption | null }> {
  const item = await loadOptionItem(propertyId);
  return { option: item ? toPurchaseOption(item) : null };
}

/**
 * The estimate e-mail sent (step 2), in ONE TransactWriteItems: the property gets the new
 * invitation token and estimateSentAt (index 0: the property's guard, and the token replaced
 * is still the current one, so of two sends at once one loses), the valuation its
 * emailSentAt (it must still exist), the new INVITE item is created and the old one deleted
 * (only the new link works), and the e-mail goes to the outbox.
 * 'property_changed': the guard or the token condition failed; 'valuation_gone': the valuation
 * is no longer there. Any other failure is thrown.
 */
export async function recordEstimate(input: {
  propertyId: string;
  /** the valuation item the e-mail is about */
  valuation: Item;
  token: string;
  /** the property's invitation token the new one replaces, null when it has none */
  oldToken: string | null;
  now: Date;
  outboxId: string;
  mail: MailMessage;
  /** the admin who sends it (activity history) */
  actor: Actor;
}): Promise<'recorded' | 'property_changed' | 'valuation_gone'> {
  const { propertyId, valuation, token, oldToken, now, outboxId, mail } = input;
  const at = now.toISOString();
  const T = table();
  const guard = propertyCondition({ propertyId });
  const link = invitationCondition(oldToken);
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
              ConditionExpression: `${guard.ConditionExpression} AND ${link.expression}`,
              ...(guard.ExpressionAttributeNames ? { ExpressionAttributeNames: guard.ExpressionAttributeNames } : {}),
              ExpressionAttributeValues: { ...guard.ExpressionAttributeValues, ...link.values, ':token': token, ':at': at },
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
          ...invitationLinkItems({ propertyId, token, oldToken, at }),
          outboxPut({ id: outboxId, kind: 'estimate', ref: propertyId, now: at, mail }),
          requestActivity(propertyId, 'request.estimate_sent', input.actor, at, { note: mail.to.join(', ') }),
        ],
      }),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) return 'property_changed';
    if (isConditionFailure(err, 1)) return 'valuation_gone';
    throw err;
  }
  return 'recorded';
}
