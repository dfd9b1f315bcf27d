/**
 * The seller's visit availability (spec 001): the page state and the save.
 *
 * - By property (GET/PUT /seller/properties/{propertyId}/availability): the caller's own
 *   property (else 404 'Immobile non trovato') whose option runs without keys (signed,
 *   published or assigned, else 409): reachable from the dashboard for the option's whole life.
 * - By the e-mail's link (GET /seller/availability/{token}, the first arrival): the AVAIL#{token}
 *   item, known, not expired (it lives as long as the option), still the option's current
 *   link, its property the caller's and not being deleted; anything else is ONE answer, 404
 *   'Il link per inserire le disponibilità non è valido o è scaduto.'. The answer names the
 *   property, and the page goes on by id.
 *
 * A save replaces the FREE slots of the days it names (an unchanged slot keeps its item),
 * never touches a booked one, and rewrites the quota item of every month it touches
 * (QUOTA#{yyyy}-{MM}: slotsCount, quotaReached = slotsCount >= minMonthlySlots, version), all
 * in ONE TransactWriteItems (model/availability.ts) with conditions: the property guard with
 * the caller as owner, the option still running without keys, each deleted slot still free,
 * each new slot new, each quota at the version that was read. Two concurrent saves of the
 * same month: one wins, the other gets 409 and changes nothing.
 */
import type { Caller } from '../lib/auth';
import { ConflictError, NotFoundError, ValidationError } from '../lib/errors';
import { isRunningOption } from '../domain/option-lifecycle';
import { logger } from '../lib/logger';
import { validationError } from '../lib/http';
import {
  AVAILABILITY_MESSAGES,
  availabilitySaveSchema,
  isQuotaReached,
  monthOf,
  slotIssues,
  todayInRome,
  type AvailabilityDay,
  type AvailabilityState,
  type SlotTime,
} from '../domain/availability';
import { isOwner, requireOwnedDossier, str, type Item } from '../model/owned-property';
import { isExpired, TOKEN_PATTERN } from '../model/tokens';
import { isPropertyId, loadDossier, mapSlot, type RawDossier } from '../model/dossier';
import { quotaMonthOf, readAvailabilityLink, saveAvailabilitySlots, toMonthQuota, type QuotaWrite } from '../model/availability';

const invalidLink = () => new NotFoundError(AVAILABILITY_MESSAGES.invalidLink);

interface OpenedLink {
  propertyId: string;
  raw: RawDossier & { option: Item };
}

/** The link's dossier when the caller may use it (see the header), else 404. */
export async function openLink(token: string, caller: Caller, now = Date.now()): Promise<OpenedLink> {
  if (!TOKEN_PATTERN.test(token)) throw invalidLink();
  const link = await readAvailabilityLink(token);
  // the TTL deletes an expired link some time later: until then expiresAt says it
  if (!link || isExpired(link.expiresAt, now)) throw invalidLink();
  const { propertyId } = link;
  if (!isPropertyId(propertyId)) throw invalidLink();
  const raw = await loadDossier(propertyId);
  if (!raw || !isOwner(raw.property, caller.userId)) throw invalidLink();
  const option = raw.option;
  // a link the admin replaced no longer opens the page
  if (!option || option.availabilityToken !== token || (link.optionId !== undefined && option.id !== link.optionId)) throw invalidLink();
  return { propertyId, raw: { ...raw, option } };
}

/** The caller's own property whose option runs without keys (see the header): 404 / 409 otherwise. */
export async function openOwned(propertyId: string, caller: Caller): Promise<OpenedLink> {
  const raw = await requireOwnedDossier(propertyId, caller.userId);
  const option = raw.option;
  if (!option || !isRunningOption(option)) throw new ConflictError(AVAILABILITY_MESSAGES.notRunning);
  if (option.hasKeys !== false) throw new ConflictError(AVAILABILITY_MESSAGES.withKeys);
  return { propertyId, raw: { ...raw, option } };
}

const minMonthlySlotsOf = (option: Item) =>
  typeof option.minMonthlySlots === 'number' && Number.isFinite(option.minMonthlySlots) && option.minMonthlySlots > 0 ? option.minMonthlySlots : 1;

/** The page's state from the dossier's raw items (pure). */
export function availabilityState(raw: RawDossier & { option: Item }, now = new Date()): AvailabilityState {
  const p = raw.property;
  return {
    propertyId: raw.propertyId,
    property: { address: String(p.address ?? ''), city: typeof p.city === 'string' && p.city ? p.city : null },
    minMonthlySlots: minMonthlySlotsOf(raw.option),
    today: todayInRome(now),
    expiresAt: str(raw.option.expiresAt),
    slots: raw.slots.map(mapSlot).sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start)),
    quotas: raw.quotas.map(toMonthQuota).sort((a, b) => a.year - b.year || a.month - b.month),
  };
}

/** GET /seller/availability/{token}: the e-mail's link. */
export async function getAvailabilityByLink(token: string, caller: Caller, now = new Date()): Promise<AvailabilityState> {
  const { raw } = await openLink(token, caller, now.getTime());
  return availabilityState(raw, now);
}

/** GET /seller/properties/{propertyId}/availability */
export async function getOwnAvailability(propertyId: string, caller: Caller, now = new Date()): Promise<AvailabilityState> {
  const { raw } = await openOwned(propertyId, caller);
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

/** PUT /seller/properties/{propertyId}/availability: the days' slots replaced and the months' quotas updated, in one transaction. */
export async function saveAvailability(propertyId: string, caller: Caller, days: readonly AvailabilityDay[], now = new Date()): Promise<AvailabilityState> {
  const { raw } = await openOwned(propertyId, caller);
  const option = raw.option;
  // the route checked the days against today; the option's expiry day is known here
  const withinOption = availabilitySaveSchema({ today: () => todayInRome(now), expiresAt: () => str(option.expiresAt) }).safeParse({ days });
  if (!withinOption.success) throw validationError(withinOption.error);
  const minMonthlySlots = minMonthlySlotsOf(option);
  const plan = planSave(raw, days);
  const quotaItems = new Map(raw.quotas.map((q) => [quotaMonthOf(q), q]));
  const quotas: QuotaWrite[] = [...plan.counts].map(([ym, slotsCount]) => {
    const [year, month] = ym.split('-').map(Number) as [number, number];
    return { year, month, slotsCount, minMonthlySlots, quotaReached: isQuotaReached(slotsCount, minMonthlySlots), current: quotaItems.get(ym) };
  });
  await saveAvailabilitySlots({ propertyId, owner: caller.userId, optionId: option.id, quotas, deletes: plan.deletes, puts: plan.puts, now });
  logger.info('Availability saved', { propertyId, days: days.length, added: plan.puts.length, removed: plan.deletes.length });
  const after = await loadDossier(propertyId);
  if (!after?.option) throw new NotFoundError(AVAILABILITY_MESSAGES.propertyNotFound);
  return availabilityState({ ...after, option: after.option }, now);
}
