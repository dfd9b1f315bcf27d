/**
 * The seller's availability link (/availability/{token}, spec 001): the page state and the
 * save. The link is the AVAIL#{token} item the admin's "Invio Link Disponibilità" writes
 * (functions/review/seller-mail.ts): known, not expired, still the option's current link,
 * and its property is the caller's and not being deleted. Anything else is ONE answer, 404
 * 'Il link per inserire le disponibilità non è valido o è scaduto.', that says nothing more.
 *
 * A save replaces the FREE slots of the days it names (an unchanged slot keeps its item),
 * never touches a booked one, and rewrites the quota item of every month it touches
 * (QUOTA#{yyyy}-{MM}: slotsCount, quotaReached = slotsCount >= minMonthlySlots, version), all
 * in ONE TransactWriteItems with conditions: the link, the owner, the option's token, each
 * deleted slot still free, each new slot new, each quota at the version that was read. Two
 * concurrent saves of the same month: one wins, the other gets 409 and changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure } from '../model/db';
import type { Caller } from '../lib/auth';
import { ConflictError, NotFoundError, ValidationError } from '../lib/errors';
import { keys } from '../model/keys';
import { logger } from '../lib/logger';
import {
  AVAILABILITY_MESSAGES,
  isQuotaReached,
  monthOf,
  slotIssues,
  todayInRome,
  type AvailabilityDay,
  type AvailabilityState,
  type MonthQuota,
  type SlotTime,
} from '../domain/availability';
import { isOwner, OWNED_AND_EDITABLE, table, type Item } from '../model/owned-property';
import { isExpired, TOKEN_PATTERN } from '../model/tokens';
import { isPropertyId, loadDossier, mapSlot, type RawDossier } from '../model/dossier';

/** DynamoDB's limit of items in one TransactWriteItems. */
const MAX_TRANSACTION_ITEMS = 100;

const invalidLink = () => new NotFoundError(AVAILABILITY_MESSAGES.invalidLink);

interface OpenedLink {
  token: string;
  propertyId: string;
  raw: RawDossier & { option: Item };
}

/** The link's dossier when the caller may use it (see the header), else 404. */
export async function openLink(token: string, caller: Caller, now = Date.now()): Promise<OpenedLink> {
  if (!TOKEN_PATTERN.test(token)) throw invalidLink();
  const link = (await ddb().send(new GetCommand({ TableName: table(), Key: keys.availabilityToken(token), ConsistentRead: true }))).Item;
  // the TTL deletes an expired link some time later: until then expiresAt says it
  if (!link || isExpired(link.expiresAt as number | undefined, now)) throw invalidLink();
  const propertyId = typeof link.propertyId === 'string' ? link.propertyId : '';
  if (!isPropertyId(propertyId)) throw invalidLink();
  const raw = await loadDossier(propertyId);
  if (!raw || !isOwner(raw.property, caller.userId)) throw invalidLink();
  const option = raw.option;
  // a link the admin replaced no longer opens the page
  if (!option || option.availabilityToken !== token || (link.optionId !== undefined && option.id !== link.optionId)) throw invalidLink();
  return { token, propertyId, raw: { ...raw, option } };
}

const minMonthlySlotsOf = (option: Item) =>
  typeof option.minMonthlySlots === 'number' && Number.isFinite(option.minMonthlySlots) && option.minMonthlySlots > 0 ? option.minMonthlySlots : 1;

function toQuota(item: Item): MonthQuota {
  const [year, month] = String(item.sk).slice(keys.dossierPrefixes.quota.length).split('-').map(Number);
  const slotsCount = typeof item.slotsCount === 'number' ? item.slotsCount : 0;
  return {
    year: typeof item.year === 'number' ? item.year : year!,
    month: typeof item.month === 'number' ? item.month : month!,
    slotsCount,
    quotaReached: item.quotaReached === true,
  };
}

/** The page's state from the dossier's raw items (pure). */
export function availabilityState(raw: RawDossier & { option: Item }, now = new Date()): AvailabilityState {
  const p = raw.property;
  return {
    property: { address: String(p.address ?? ''), city: typeof p.city === 'string' && p.city ? p.city : null },
    minMonthlySlots: minMonthlySlotsOf(raw.option),
    today: todayInRome(now),
    slots: raw.slots.map(mapSlot).sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start)),
    quotas: raw.quotas.map(toQuota).sort((a, b) => a.year - b.year || a.month - b.month),
  };
}

/** GET /seller/availability/{token} */
export async function getAvailability(token: string, caller: Caller, now = new Date()): Promise<AvailabilityState> {
  const { raw } = await openLink(token, caller, now.getTime());
  return availabilityState(raw, now);
}

interface Plan {
  puts: { date: string; start: string; end: string }[];
  deletes: Item[];
  /** yyyy-MM -> slots after the save */
  counts: Map<string, number>;
}

/** What a save writes (pure): per day, free slots not asked again go, new ones come, the rest stays. */
export function planSave(raw: RawDossier, days: readonly AvailabilityDay[]): Plan {
  const slots = raw.slots.map((item) => ({ item, slot: mapSlot(item) }));
  const counts = new Map<string, number>();
  for (const d of days) counts.set(monthOf(d.date), 0);
  for (const { slot } of slots) {
    const m = monthOf(slot.date);
    if (counts.has(m)) counts.set(m, counts.get(m)! + 1);
  }
  const puts: Plan['puts'] = [];
  const deletes: Item[] = [];
  const fields: Record<string, string> = {};
  days.forEach((d, i) => {
    const ofDay = slots.filter((s) => s.slot.date === d.date);
    const booked: SlotTime[] = ofDay.filter((s) => s.slot.isBooked).map((s) => s.slot);
    for (const issue of slotIssues(d.slots, booked)) fields[`days.${i}.slots.${issue.index}.start`] ??= issue.message;
    const free = ofDay.filter((s) => !s.slot.isBooked);
    const kept = new Set<(typeof free)[number]>();
    for (const wanted of d.slots) {
      const same = free.find((f) => !kept.has(f) && f.slot.start === wanted.start && f.slot.end === wanted.end);
      if (same) kept.add(same);
      else puts.push({ date: d.date, start: wanted.start, end: wanted.end });
    }
    for (const f of free) if (!kept.has(f)) deletes.push(f.item);
    const m = monthOf(d.date);
    counts.set(m, counts.get(m)! - (free.length - kept.size) + (d.slots.length - kept.size));
  });
  const first = Object.values(fields)[0];
  if (first) throw new ValidationError(first, fields);
  return { puts, deletes, counts };
}

/** The condition that the quota item is still the one read (absent, or at its version). */
function readVersion(current: Item | undefined): { ConditionExpression: string; ExpressionAttributeValues?: Record<string, unknown> } {
  if (!current) return { ConditionExpression: 'attribute_not_exists(pk)' };
  if (typeof current.version !== 'number') return { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(version)' };
  return { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': current.version } };
}

/** PUT /seller/availability/{token}: the days' slots replaced and the months' quotas updated, in one transaction. */
export async function saveAvailability(token: string, caller: Caller, days: readonly AvailabilityDay[], now = new Date()): Promise<AvailabilityState> {
  const { propertyId, raw } = await openLink(token, caller, now.getTime());
  const option = raw.option;
  const minMonthlySlots = minMonthlySlotsOf(option);
  const plan = planSave(raw, days);
  const T = table();
  const at = now.toISOString();
  const quotaItems = new Map(raw.quotas.map((q) => [String(q.sk).slice(keys.dossierPrefixes.quota.length), q]));

  const checks = [
    {
      ConditionCheck: {
        TableName: T,
        Key: keys.availabilityToken(token),
        ConditionExpression: 'attribute_exists(pk) AND propertyId = :pid AND expiresAt > :nowSeconds',
        ExpressionAttributeValues: { ':pid': propertyId, ':nowSeconds': Math.floor(now.getTime() / 1000) },
      },
    },
    {
      ConditionCheck: {
        TableName: T,
        Key: keys.property(propertyId),
        ConditionExpression: OWNED_AND_EDITABLE,
        ExpressionAttributeValues: { ':owner': caller.userId },
      },
    },
    {
      ConditionCheck: {
        TableName: T,
        Key: keys.option(propertyId),
        ConditionExpression: 'attribute_exists(pk) AND availabilityToken = :token',
        ExpressionAttributeValues: { ':token': token },
      },
    },
  ];
  const deletes = plan.deletes.map((item) => ({
    Delete: {
      TableName: T,
      Key: { pk: item.pk, sk: item.sk },
      // booked meanwhile: it stays, and this save is refused
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(isBooked) OR isBooked = :false)',
      ExpressionAttributeValues: { ':false': false },
    },
  }));
  const puts = plan.puts.map((s) => {
    const id = randomUUID();
    return {
      Put: {
        TableName: T,
        Item: {
          ...keys.slot(propertyId, s.date, id),
          entity: 'availability-slot',
          id,
          propertyId,
          optionId: option.id,
          date: s.date,
          start: s.start,
          end: s.end,
          isBooked: false,
          createdAt: at,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  });
  const quotas = [...plan.counts].map(([ym, slotsCount]) => {
    const [year, month] = ym.split('-').map(Number) as [number, number];
    const current = quotaItems.get(ym);
    const version = typeof current?.version === 'number' ? current.version : 0;
    return {
      Put: {
        TableName: T,
        Item: {
          ...keys.monthlyQuota(propertyId, year, month),
          entity: 'availability-quota',
          propertyId,
          optionId: option.id,
          year,
          month,
          slotsCount,
          minMonthlySlots,
          quotaReached: isQuotaReached(slotsCount, minMonthlySlots),
          version: version + 1,
          updatedAt: at,
        },
        // the month as it was read: a concurrent save of the same month makes this one fail
        ...readVersion(current),
      },
    };
  });
  const items = [...checks, ...quotas, ...deletes, ...puts];
  if (items.length > MAX_TRANSACTION_ITEMS) throw new ValidationError(AVAILABILITY_MESSAGES.tooManyChanges, { days: AVAILABILITY_MESSAGES.tooManyChanges });

  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (err) {
    // the link, the owner or the option's token changed since the read: the link no longer works
    if ([0, 1, 2].some((i) => isConditionFailure(err, i))) throw invalidLink();
    const name = (err as { name?: string }).name;
    if (name === 'TransactionCanceledException' || name === 'TransactionConflictException') {
      logger.warn('Availability save lost a race', { propertyId });
      throw new ConflictError(AVAILABILITY_MESSAGES.conflict);
    }
    throw err;
  }
  logger.info('Availability saved', { propertyId, days: days.length, added: plan.puts.length, removed: plan.deletes.length });
  const after = await loadDossier(propertyId);
  if (!after?.option) throw invalidLink();
  return availabilityState({ ...after, option: after.option }, now);
}
