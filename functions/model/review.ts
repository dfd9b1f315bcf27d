/**
 * The reads the review use cases share besides the dossier (functions/requests/dossier-store.ts
 * `requireDossier`: one Query): the PROPERTY item alone, the option alone (polling), the
 * admin's name, and the condition every state change carries. Writes live in each use case,
 * one TransactWriteItems each.
 */
export { type Item } from './item';
import { type Item } from './item';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './db';
import { NotFoundError } from '../lib/errors';
import { keys } from './keys';
import { logger } from '../lib/logger';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import { isPropertyId } from './dossier';
import { toPurchaseOption } from './option';
import type { PurchaseOption } from '../domain/requests';

export { table } from './db';

/** The condition of every write on a property: it exists and is not being deleted. */
export { PROPERTY_EDITABLE } from './property';


/** The PROPERTY item, or 404 'Immobile non trovato' (also while it is being deleted). */
export async function loadProperty(propertyId: string): Promise<Item> {
  if (!isPropertyId(propertyId)) throw new NotFoundError(REVIEW_MESSAGES.propertyNotFound);
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: keys.property(propertyId), ConsistentRead: true }));
  if (!res.Item || res.Item.deletingAt) throw new NotFoundError(REVIEW_MESSAGES.propertyNotFound);
  return res.Item;
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
