/**
 * Co-owners of the seller's property (spec 000 sections 4 and 5): the list is replaced as a
 * whole (shares > 0 totalling 100), each co-owner is invited by e-mail to their own identity
 * step, or the seller declares single ownership ('Salta (Proprietà Singola)'). Every write
 * is ONE transaction carrying the ownership condition on the PROPERTY item.
 */
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure } from '../../model/db';
import { config } from '../../lib/config';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { keys } from '../../model/keys';
import { logger } from '../../lib/logger';
import { deliverOutbox, outboxPut } from '../../model/outbox';
import { renderCoOwnerInvitation } from '../../domain/onboarding/co-owner-email';
import { ONBOARDING_MESSAGES as M, shareWarning } from '../../domain/onboarding/rules';
import type { ReplaceCoOwnersBody, SellerCoOwner } from '../../domain/onboarding/schemas';
import { newToken, tokenExpiryFields } from '../../model/tokens';
import { deliverNow } from '../../model/review';
import { OWNED_AND_EDITABLE, requireOwnedDossier, str, table, type Item } from '../../model/owned-property';

function toCoOwner(c: Item): SellerCoOwner {
  return {
    id: String(c.id ?? String(c.sk).slice(keys.dossierPrefixes.coOwner.length)),
    email: String(c.email ?? ''),
    fullName: String(c.fullName ?? ''),
    share: typeof c.share === 'number' ? c.share : 0,
    invitedAt: str(c.invitedAt),
    verifiedAt: str(c.verifiedAt),
  };
}

const propertyNotFound = () => new NotFoundError(M.propertyNotFound);

/** PUT .../co-owners: the new list replaces the old; a co-owner kept (same e-mail) keeps id, invitation and verification. */
export async function replaceCoOwners(propertyId: string, userId: string, body: ReplaceCoOwnersBody, now = new Date()): Promise<{ coOwners: SellerCoOwner[] }> {
  const warning = shareWarning(body.coOwners);
  if (warning) throw new ValidationError(warning, { coOwners: warning });
  const raw = await requireOwnedDossier(propertyId, userId);
  const at = now.toISOString();
  const existing = new Map(raw.coOwners.map((c) => [String(c.email ?? '').toLowerCase(), c]));
  const next = body.coOwners.map((c) => {
    const old = existing.get(c.email);
    return {
      ...keys.coOwner(propertyId, old ? String(old.id) : randomUUID()),
      entity: 'coOwner',
      id: old ? String(old.id) : '',
      propertyId,
      email: c.email,
      fullName: c.fullName,
      share: c.share,
      invitedAt: old ? (str(old.invitedAt) ?? null) : null,
      verifiedAt: old ? (str(old.verifiedAt) ?? null) : null,
      createdAt: old ? String(old.createdAt ?? at) : at,
      updatedAt: at,
    };
  });
  for (const n of next) if (!n.id) n.id = n.sk.slice(keys.dossierPrefixes.coOwner.length);
  const keep = new Set(next.map((n) => n.sk));
  const removed = raw.coOwners.filter((c) => !keep.has(String(c.sk)));
  const T = table();
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: T,
              Key: keys.property(propertyId),
              UpdateExpression: 'SET coOwnersUpdatedAt = :at, updatedAt = :at REMOVE singleOwner',
              ConditionExpression: OWNED_AND_EDITABLE,
              ExpressionAttributeValues: { ':at': at, ':owner': userId },
            },
          },
          ...removed.map((c) => ({ Delete: { TableName: T, Key: { pk: c.pk, sk: c.sk } } })),
          ...next.map((item) => ({ Put: { TableName: T, Item: item } })),
        ],
      }),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw propertyNotFound();
    if ((err as { name?: string }).name === 'TransactionCanceledException') throw new ConflictError();
    throw err;
  }
  return { coOwners: next.map(toCoOwner) };
}

/**
 * POST .../co-owners/invitations: every co-owner not yet invited nor verified gets a new link
 * token (COINVITE item, expiring after TOKEN_TTL_DAYS) and an Italian e-mail; invitedAt, the
 * tokens and the outbox mails are written in ONE transaction, then the mails are delivered.
 */
export async function inviteCoOwners(
  propertyId: string,
  userId: string,
  now = new Date(),
): Promise<{ coOwners: SellerCoOwner[]; invited: number; delivery: ('sent' | 'pending')[] }> {
  const raw = await requireOwnedDossier(propertyId, userId);
  const list = raw.coOwners.map(toCoOwner);
  const warning = shareWarning(list);
  if (list.length && warning) throw new ValidationError(warning, { coOwners: warning });
  const toInvite = raw.coOwners.filter((c) => !str(c.invitedAt) && !str(c.verifiedAt));
  if (!toInvite.length) throw new ConflictError(M.noCoOwnersToInvite);
  const at = now.toISOString();
  const property = raw.property;
  const sellerName = `${(property.firstName as string) ?? ''} ${(property.lastName as string) ?? ''}`.trim();
  const T = table();
  const invitations = toInvite.map((c, i) => {
    const token = newToken();
    const outboxId = `coowner-${propertyId}-${String(c.id)}-${now.getTime()}-${i}`;
    const mail = renderCoOwnerInvitation({
      coOwnerName: String(c.fullName ?? ''),
      sellerName,
      propertyAddress: (property.address as string) ?? '',
      propertyCity: (property.city as string | null) ?? null,
      share: Number(c.share ?? 0),
      token,
      appUrl: config().APP_URL,
    });
    return { c, token, outboxId, mail };
  });
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: T,
              Key: keys.property(propertyId),
              UpdateExpression: 'SET coOwnersInvitedAt = :at, updatedAt = :at',
              ConditionExpression: OWNED_AND_EDITABLE,
              ExpressionAttributeValues: { ':at': at, ':owner': userId },
            },
          },
          ...invitations.flatMap(({ c, token, outboxId, mail }) => [
            {
              Update: {
                TableName: T,
                Key: { pk: c.pk, sk: c.sk },
                UpdateExpression: 'SET invitedAt = :at, updatedAt = :at',
                // still there and not invited meanwhile (two clicks at once: one loses)
                ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(invitedAt) OR invitedAt = :null)',
                ExpressionAttributeValues: { ':at': at, ':null': null },
              },
            },
            {
              Put: {
                TableName: T,
                Item: {
                  ...keys.coOwnerInvitation(token),
                  entity: 'coOwnerInvitation',
                  propertyId,
                  coOwnerId: String(c.id),
                  email: String(c.email),
                  createdAt: at,
                  ...tokenExpiryFields(now.getTime()),
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            outboxPut({ id: outboxId, kind: 'coOwnerInvitation', ref: propertyId, now: at, mail: { to: [String(c.email)], ...mail } }),
          ]),
        ],
      }),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw propertyNotFound();
    if ((err as { name?: string }).name === 'TransactionCanceledException') throw new ConflictError();
    throw err;
  }
  logger.info('Co-owners invited', { propertyId, count: invitations.length });
  const delivery: ('sent' | 'pending')[] = [];
  for (const inv of invitations) delivery.push(await deliverNow(inv.outboxId, deliverOutbox));
  const invitedIds = new Set(invitations.map((i) => String(i.c.id)));
  return {
    coOwners: list.map((c) => (invitedIds.has(c.id) ? { ...c, invitedAt: at } : c)),
    invited: invitations.length,
    delivery,
  };
}

/** POST .../co-owners/skip: 'Salta (Proprietà Singola)' (property.singleOwner = true). */
export async function skipCoOwners(propertyId: string, userId: string, now = new Date()): Promise<{ singleOwner: true }> {
  const raw = await requireOwnedDossier(propertyId, userId);
  const at = now.toISOString();
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.property(raw.propertyId),
        UpdateExpression: 'SET singleOwner = :t, singleOwnerAt = :at, updatedAt = :at',
        ConditionExpression: OWNED_AND_EDITABLE,
        ExpressionAttributeValues: { ':t': true, ':at': at, ':owner': userId },
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw propertyNotFound();
    throw err;
  }
  return { singleOwner: true };
}
