/**
 * What the seller's onboarding use cases (co-owners, delegations) share: the path parameter,
 * the ownership check (the property's userId is the caller's; anything else, a missing or
 * a property being deleted, is 404 'Immobile non trovato') and the condition every write
 * carries on the PROPERTY item.
 */
import * as z from 'zod';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from './db';
import { requireConfig } from '../lib/config';
import { NotFoundError } from '../lib/errors';
import { keys } from './keys';
import { ONBOARDING_MESSAGES } from '../domain/onboarding/rules';
import { isPropertyId, loadDossier, type RawDossier } from './dossier';
import { PROPERTY_EDITABLE } from './property';

export const table = () => requireConfig('TABLE_NAME');
export type Item = Record<string, unknown>;

export const propertyParams = z.object({
  propertyId: z.string({ error: ONBOARDING_MESSAGES.propertyNotFound }).min(1, ONBOARDING_MESSAGES.propertyNotFound).max(100, ONBOARDING_MESSAGES.propertyNotFound),
});

/** The property exists, is not being deleted and belongs to the caller (`:owner`). */
export const OWNED_AND_EDITABLE = `${PROPERTY_EDITABLE} AND userId = :owner`;

const notFound = () => new NotFoundError(ONBOARDING_MESSAGES.propertyNotFound);

export function isOwner(property: Item | null | undefined, userId: string): boolean {
  return Boolean(property) && !property!.deletingAt && typeof property!.userId === 'string' && property!.userId === userId;
}

/** The PROPERTY item of the caller's property, or 404. */
export async function requireOwnedProperty(propertyId: string, userId: string): Promise<Item> {
  if (!isPropertyId(propertyId)) throw notFound();
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: keys.property(propertyId), ConsistentRead: true }));
  if (!isOwner(res.Item, userId)) throw notFound();
  return res.Item!;
}

/** The caller's property dossier (one Query), or 404. */
export async function requireOwnedDossier(propertyId: string, userId: string): Promise<RawDossier> {
  if (!isPropertyId(propertyId)) throw notFound();
  const raw = await loadDossier(propertyId);
  if (!raw || !isOwner(raw.property, userId)) throw notFound();
  return raw;
}

export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
