/**
 * The seller's visit availability of a signed option without keys: the link token
 * (keys.availabilityToken, AVAIL#{token}, expiring; the option's `availabilityToken` names
 * the current one), the visit slots (keys.slot, SLOT#{date}#{id}) and the monthly quotas
 * (keys.monthlyQuota, QUOTA#{yyyy}-{MM}: slotsCount, quotaReached, version) under the
 * property's pk. The link's read, the quota mapping, the admin's "Invio Link Disponibilità"
 * and the seller's save, each write composed with the property guard (model/property.ts) at
 * index 0 of its transaction.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './db';
import type { Item } from './item';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { guardedTransaction, propertyCheck } from './property';
import { availabilityLinkExpiryFields } from './tokens';
import { ConflictError, NotFoundError, ValidationError } from '../lib/errors';
import { logger } from '../lib/logger';
import { AVAILABILITY_MESSAGES, type MonthQuota } from '../domain/availability';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import { RUNNING_OPTION_STATES } from '../domain/option-lifecycle';

/** DynamoDB's limit of items in one TransactWriteItems. */
const MAX_TRANSACTION_ITEMS = 100;

/** An availability link as stored (expiry not checked here). */
export interface AvailabilityLink {
  /** '' when the item has none */
  propertyId: string;
  /** the option the link was sent for; undefined on a link stored without it */
  optionId: unknown;
  expiresAt: number | undefined;
}

/** The AVAIL item of a token (strongly consistent), or undefined. */
export async function readAvailabilityLink(token: string): Promise<AvailabilityLink | undefined> {
  const link = (await ddb().send(new GetCommand({ TableName: table(), Key: keys.availabilityToken(token), ConsistentRead: true }))).Item;
  if (!link) return undefined;
  return {
    propertyId: typeof link.propertyId === 'string' ? link.propertyId : '',
    optionId: link.optionId,
    expiresAt: link.expiresAt as number | undefined,
  };
}

/** The month of a QUOTA item, 'yyyy-MM' (from its sk). */
export const quotaMonthOf = (q: Item): string => String(q.sk).slice(keys.dossierPrefixes.quota.length);

export function toMonthQuota(item: Item): MonthQuota {
  const [year, month] = quotaMonthOf(item).split('-').map(Number);
  const slotsCount = typeof item.slotsCount === 'number' ? item.slotsCount : 0;
  return {
    year: typeof item.year === 'number' ? item.year : year!,
    month: typeof item.month === 'number' ? item.month : month!,
    slotsCount,
    quotaReached: item.quotaReached === true,
  };
}

/** A month's quota after a save. */
export interface QuotaWrite {
  year: number;
  month: number;
  slotsCount: number;
  minMonthlySlots: number;
  quotaReached: boolean;
  /** the QUOTA item as read (undefined: there was none): the write requires it unchanged */
  current: Item | undefined;
}

export interface AvailabilitySave {
  propertyId: string;
  /** the caller: the property must still be theirs */
  owner: string;
  /** the option as read: it must still be the running option without keys */
  optionId: unknown;
  quotas: readonly QuotaWrite[];
  /** the SLOT items to delete (each must still be free) */
  deletes: readonly Item[];
  /** the new free slots */
  puts: readonly { date: string; start: string; end: string }[];
  now: Date;
}

/** The condition that the quota item is still the one read (absent, or at its version). */
function readVersion(current: Item | undefined): { ConditionExpression: string; ExpressionAttributeValues?: Record<string, unknown> } {
  if (!current) return { ConditionExpression: 'attribute_not_exists(pk)' };
  if (typeof current.version !== 'number') return { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(version)' };
  return { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': current.version } };
}

/** "The option still runs without keys" (signed, published or assigned: domain/option-lifecycle), on the OPTION item. */
function runningWithoutKeys(optionId: unknown) {
  return {
    ConditionExpression: `attribute_exists(pk) AND id = :oid AND hasKeys = :false AND #st IN (${RUNNING_OPTION_STATES.map((_, i) => `:r${i}`).join(', ')})`,
    ExpressionAttributeNames: { '#st': 'status' },
    ExpressionAttributeValues: { ':oid': optionId, ':false': false, ...Object.fromEntries(RUNNING_OPTION_STATES.map((s, i) => [`:r${i}`, s])) },
  };
}

/**
 * The seller's save in ONE TransactWriteItems: the property guard (owner), the option still
 * the running one without keys, every quota at the version read, every deleted slot still
 * free, every new slot new. Over DynamoDB's 100 items: 400 'Troppe modifiche...'; the guard
 * failing: 404 'Immobile non trovato'; the option no longer running: 409; any other
 * cancellation (a concurrent save): 409.
 */
export async function saveAvailabilitySlots(s: AvailabilitySave): Promise<void> {
  const { propertyId } = s;
  const T = table();
  const at = s.now.toISOString();
  const checks = [{ ConditionCheck: { TableName: T, Key: keys.option(propertyId), ...runningWithoutKeys(s.optionId) } }];
  const quotas = s.quotas.map((q) => {
    const version = typeof q.current?.version === 'number' ? q.current.version : 0;
    return {
      Put: {
        TableName: T,
        Item: {
          ...keys.monthlyQuota(propertyId, q.year, q.month),
          entity: 'availability-quota',
          propertyId,
          optionId: s.optionId,
          year: q.year,
          month: q.month,
          slotsCount: q.slotsCount,
          minMonthlySlots: q.minMonthlySlots,
          quotaReached: q.quotaReached,
          version: version + 1,
          updatedAt: at,
        },
        // the month as it was read: a concurrent save of the same month makes this one fail
        ...readVersion(q.current),
      },
    };
  });
  const deletes = s.deletes.map((item) => ({
    Delete: {
      TableName: T,
      Key: { pk: item.pk, sk: item.sk },
      // booked meanwhile: it stays, and this save is refused
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(isBooked) OR isBooked = :false)',
      ExpressionAttributeValues: { ':false': false },
    },
  }));
  const puts = s.puts.map((slot) => {
    const id = randomUUID();
    return {
      Put: {
        TableName: T,
        Item: {
          ...keys.slot(propertyId, slot.date, id),
          entity: 'availability-slot',
          id,
          propertyId,
          optionId: s.optionId,
          date: slot.date,
          start: slot.start,
          end: slot.end,
          isBooked: false,
          createdAt: at,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  });
  // No write on the PROPERTY item here, so the guard is the ConditionCheck guardedTransaction
  // would put first; built directly, the function's IAM role (read from its bundle by
  // test/infra/sdk-calls.ts) keeps no UpdateItem it never uses.
  const items = [propertyCheck({ propertyId, owner: s.owner }), ...checks, ...quotas, ...deletes, ...puts];
  if (items.length > MAX_TRANSACTION_ITEMS) {
    throw new ValidationError(AVAILABILITY_MESSAGES.tooManyChanges, { days: AVAILABILITY_MESSAGES.tooManyChanges });
  }
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(AVAILABILITY_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1)) throw new ConflictError(AVAILABILITY_MESSAGES.notRunning);
    const name = (err as { name?: string }).name;
    if (name === 'TransactionCanceledException' || name === 'TransactionConflictException') {
      logger.warn('Availability save lost a race', { propertyId });
      throw new ConflictError(AVAILABILITY_MESSAGES.conflict);
    }
    throw err;
  }
}

/** A new availability link of an option: its token, the one it replaces, the option's expiry. */
export interface AvailabilityLinkChange {
  propertyId: string;
  optionId: unknown;
  /** the new link token (model/tokens newToken) */
  token: string;
  /** the option's current token, deleted (it stops working); null when it has none */
  oldToken: string | null;
  /** the option's expiry day (yyyy-MM-dd): the link opens the page until its end */
  optionExpiresAt: string | null;
  /** ISO time of the change */
  at: string;
}

/**
 * The token side of a new availability link, for the transaction that also sets the OPTION's
 * `availabilityToken` (availabilityLinkCondition): the AVAIL item, living as long as the
 * option (model/tokens availabilityLinkExpiryFields), and the old one deleted.
 */
export function availabilityLinkItems(l: AvailabilityLinkChange) {
  return [
    {
      Put: {
        TableName: table(),
        Item: {
          ...keys.availabilityToken(l.token),
          entity: 'availability-link',
          propertyId: l.propertyId,
          optionId: l.optionId,
          createdAt: l.at,
          ...availabilityLinkExpiryFields(l.optionExpiresAt, Date.parse(l.at)),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    // the previous link stops working
    ...(l.oldToken ? [{ Delete: { TableName: table(), Key: keys.availabilityToken(l.oldToken) } }] : []),
  ];
}

/** "The option's link is still the one read" (`oldToken`, or none), with its own values. */
export function availabilityLinkCondition(oldToken: string | null): { expression: string; values: Record<string, unknown> } {
  return oldToken
    ? { expression: 'availabilityToken = :oldLink', values: { ':oldLink': oldToken } }
    : { expression: '(attribute_not_exists(availabilityToken) OR availabilityToken = :noLink)', values: { ':noLink': null } };
}

/**
 * "Invio Link Disponibilità" in ONE transaction with the property guard: the option's
 * availabilityToken and availabilityLinkSentAt (only a running option without keys, still at
 * the token read), the new AVAIL item, the old one deleted and the mail's outbox item.
 * A failed guard is 404 'Immobile non trovato'; the option's condition 409.
 */
export async function replaceAvailabilityLink(w: AvailabilityLinkChange & { outbox: Omit<Parameters<typeof outboxPut>[0], 'now'> }): Promise<void> {
  const { propertyId, token, at } = w;
  const T = table();
  const running = runningWithoutKeys(w.optionId);
  const link = availabilityLinkCondition(w.oldToken);
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction({ propertyId }, [
          {
            Update: {
              TableName: T,
              Key: keys.option(propertyId),
              UpdateExpression: 'SET availabilityToken = :token, availabilityLinkSentAt = :at, updatedAt = :at',
              // a running option without keys (signed, published or assigned: domain/option-lifecycle)
              ConditionExpression: `${running.ConditionExpression} AND ${link.expression}`,
              ExpressionAttributeNames: running.ExpressionAttributeNames,
              ExpressionAttributeValues: { ...running.ExpressionAttributeValues, ...link.values, ':token': token, ':at': at },
            },
          },
          ...availabilityLinkItems(w),
          outboxPut({ ...w.outbox, now: at }),
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(REVIEW_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1)) throw new ConflictError(REVIEW_MESSAGES.availabilityOnlySigned);
    throw err;
  }
}
