/**
 * Visits (domain/visits.ts, docs/visits.md): the agent in charge of an option sees the deal
 * (seller contact, address, sale price, keys, the seller's free slots) and books, moves or
 * cancels visits; the seller sees and declines them; the agent records the outcome. Every
 * change is ONE transaction (model/visit.ts) with the activity entry and the e-mails to the
 * seller, the agent and the back office, each with the calendar invitation (lib/ics.ts);
 * the mails go out right after the commit (the outbox retries a failure).
 */
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError } from '../lib/errors';
import { logger } from '../lib/logger';
import { str, type Item } from '../model/item';
import { readOption } from '../model/option';
import { deliverOutbox } from '../model/outbox';
import { isOwner, readProperty } from '../model/property';
import { deliverNow } from '../model/review';
import { bookedVisitItemsOn, bookVisit, cancelVisitOfClosedOption, closeVisit, findSlot, moveVisit, readVisit, recordVisitReminder, slotItemsFrom, toFreeSlot, toVisit, visitItemsOfProperty } from '../model/visit';
import { SYSTEM_ACTOR, type Actor, type ActivityKind } from '../domain/activity';
import { addDays, todayInRome } from '../domain/availability';
import { salePriceOf } from '../domain/review/rules';
import { isPastExpiry } from '../domain/option-lifecycle';
import { romeDayStart } from '../domain/rome-time';
import { factsOf, sellerNameOf, visitMails } from '../lib/visit-mails';
import {
  hasStarted,
  INTEREST_LABELS,
  isBeforeCutoff,
  isBookable,
  VISIT_MESSAGES as M,
  type AgentDeal,
  type SellerVisits,
  type Visit,
  type VisitOutcomeInput,
} from '../domain/visits';

interface AgentCaller {
  userId: string;
  email: string;
  name: string;
}

/** The property and the option in this agent's charge, or 404 'Opzione non trovata' (never says whose it is). */
async function requireDealOf(propertyId: string, agentId: string): Promise<{ property: Item; option: Item }> {
  const [property, option] = await Promise.all([readProperty(propertyId), readOption(propertyId)]);
  if (!property || !option || option.status !== 'assigned' || option.assignedAgentId !== agentId) throw new NotFoundError(M.optionNotFound);
  return { property, option };
}

async function deliver(mails: readonly { id: string }[]) {
  for (const m of mails) await deliverNow(m.id, deliverOutbox);
}

function change(propertyId: string, property: Item, kind: ActivityKind, actor: Actor, at: string, extra: { note?: string | null; before?: string | null; after?: string | null } = {}) {
  return { propertyId, at, actor, kind, propertyLabel: str(property.address), note: extra.note ?? null, before: extra.before ?? null, after: extra.after ?? null };
}

// ---- the agent ------------------------------------------------------------------------------

/** GET /agent/options/{propertyId}/deal */
export async function agentDeal(propertyId: string, agentId: string, now = new Date()): Promise<AgentDeal> {
  const { property, option } = await requireDealOf(propertyId, agentId);
  const [slots, visits] = await Promise.all([slotItemsFrom(propertyId, todayInRome(now)), visitItemsOfProperty(propertyId)]);
  const value = typeof option.propertyValue === 'number' ? option.propertyValue : 0;
  return {
    propertyId,
    address: str(property.address) ?? '',
    city: str(property.city),
    province: str(property.province),
    seller: { name: sellerNameOf(property), phone: str(property.phone), email: str(property.email) },
    salePrice: salePriceOf(value, typeof option.salePricePercentage === 'number' ? option.salePricePercentage : 0),
    propertyValue: value,
    hasKeys: option.hasKeys === true,
    expiresAt: str(option.expiresAt),
    freeSlots: slots
      .filter((s) => s.isBooked !== true && isBookable({ date: String(s.date), start: String(s.start) }, now) && !isPastExpiry(str(option.expiresAt), String(s.date)))
      .map(toFreeSlot)
      .sort((a, b) => `${a.date}T${a.start}`.localeCompare(`${b.date}T${b.start}`)),
    visits: visits.filter((v) => v.agentId === agentId).map(toVisit),
  };
}

async function bookableSlot(propertyId: string, slotId: string, option: Item, now: Date): Promise<Item> {
  const slot = await findSlot(propertyId, slotId, todayInRome(now));
  if (!slot) throw new NotFoundError(M.slotNotFound);
  if (slot.isBooked === true) throw new ConflictError(M.slotTaken);
  if (!isBookable({ date: String(slot.date), start: String(slot.start) }, now)) throw new ConflictError(M.slotTooSoon);
  const expiresAt = str(option.expiresAt);
  // the option runs to its expiry day included: a slot of a later day is past it
  if (isPastExpiry(expiresAt, String(slot.date))) throw new ConflictError(M.afterExpiry(expiresAt!));
  return slot;
}

/** POST /agent/options/{propertyId}/visits {slotId}: one booking per slot (the slot's own condition). */
export async function bookVisitAsAgent(propertyId: string, agent: AgentCaller, slotId: string, now = new Date()): Promise<Visit> {
  const { property, option } = await requireDealOf(propertyId, agent.userId);
  const slot = await bookableSlot(propertyId, slotId, option, now);
  const at = now.toISOString();
  const id = randomUUID();
  const visit: Item = {
    id,
    propertyId,
    slotId,
    date: slot.date,
    start: slot.start,
    end: slot.end,
    status: 'booked',
    agentId: agent.userId,
    agentName: agent.name,
    agentEmail: agent.email,
    sequence: 0,
    createdAt: at,
    updatedAt: at,
  };
  const facts = factsOf(property, { date: String(slot.date), start: String(slot.start), end: String(slot.end), agentName: agent.name, agentEmail: agent.email });
  const mails = visitMails('booked', facts, property, { id, sequence: 0 }, at);
  await bookVisit({
    ...change(propertyId, property, 'visit.booked', { id: agent.userId, role: 'agent', name: agent.email }, at, { after: 'booked', note: `${facts.date} ${facts.start}–${facts.end}` }),
    mails,
    agentId: agent.userId,
    slot,
    visit,
  });
  logger.info('Visit booked', { propertyId, visitId: id, slotId });
  await deliver(mails);
  return toVisit(visit);
}

async function agentsBookedVisit(propertyId: string, visitId: string, agentId: string, now: Date): Promise<{ property: Item; option: Item; visit: Item }> {
  const { property, option } = await requireDealOf(propertyId, agentId);
  const visit = await readVisit(propertyId, visitId);
  if (!visit || visit.agentId !== agentId) throw new NotFoundError(M.visitNotFound);
  if (visit.status !== 'booked') throw new ConflictError(M.notBooked);
  if (!isBeforeCutoff({ date: String(visit.date), start: String(visit.start) }, now)) throw new ConflictError(M.pastCutoff);
  return { property, option, visit };
}

/** PUT /agent/options/{propertyId}/visits/{visitId} {slotId}: moved to another free slot, before the cut-off. */
export async function moveVisitAsAgent(propertyId: string, visitId: string, agent: AgentCaller, slotId: string, now = new Date()): Promise<Visit> {
  const { property, option, visit } = await agentsBookedVisit(propertyId, visitId, agent.userId, now);
  if (visit.slotId === slotId) throw new ConflictError(M.sameSlot);
  const slot = await bookableSlot(propertyId, slotId, option, now);
  const at = now.toISOString();
  const sequence = (typeof visit.sequence === 'number' ? visit.sequence : 0) + 1;
  const facts = {
    ...factsOf(property, { date: String(slot.date), start: String(slot.start), end: String(slot.end), agentName: String(visit.agentName), agentEmail: String(visit.agentEmail) }),
    previous: { date: String(visit.date), start: String(visit.start), end: String(visit.end) },
  };
  const mails = visitMails('moved', facts, property, { id: visitId, sequence }, at);
  await moveVisit({
    ...change(propertyId, property, 'visit.moved', { id: agent.userId, role: 'agent', name: agent.email }, at, {
      note: `${String(visit.date)} ${String(visit.start)} → ${String(slot.date)} ${String(slot.start)}`,
    }),
    mails,
    agentId: agent.userId,
    visit,
    slot,
  });
  await deliver(mails);
  return toVisit({ ...visit, slotId, date: slot.date, start: slot.start, end: slot.end, sequence, updatedAt: at });
}

/** DELETE /agent/options/{propertyId}/visits/{visitId}: cancelled before the cut-off; the slot is free again. */
export async function cancelVisitAsAgent(propertyId: string, visitId: string, agent: AgentCaller, now = new Date()): Promise<Visit> {
  const { property, visit } = await agentsBookedVisit(propertyId, visitId, agent.userId, now);
  const at = now.toISOString();
  const sequence = (typeof visit.sequence === 'number' ? visit.sequence : 0) + 1;
  const facts = factsOf(property, { date: String(visit.date), start: String(visit.start), end: String(visit.end), agentName: String(visit.agentName), agentEmail: String(visit.agentEmail) });
  const mails = visitMails('cancelled', facts, property, { id: visitId, sequence }, at);
  await closeVisit({
    ...change(propertyId, property, 'visit.cancelled', { id: agent.userId, role: 'agent', name: agent.email }, at, { before: 'booked', after: 'cancelled' }),
    mails,
    visit,
    status: 'cancelled',
    set: { cancelledAt: at, sequence },
    agentId: agent.userId,
    freeTheSlot: true,
  });
  await deliver(mails);
  return toVisit({ ...visit, status: 'cancelled' });
}

/** POST /agent/options/{propertyId}/visits/{visitId}/outcome: after the visit started, once. */
export async function recordVisitOutcome(propertyId: string, visitId: string, agent: AgentCaller, input: Required<VisitOutcomeInput>, now = new Date()): Promise<Visit> {
  const { property } = await requireDealOf(propertyId, agent.userId);
  const visit = await readVisit(propertyId, visitId);
  if (!visit || visit.agentId !== agent.userId) throw new NotFoundError(M.visitNotFound);
  if (visit.status !== 'booked') throw new ConflictError(M.notBooked);
  if (!hasStarted({ date: String(visit.date), start: String(visit.start) }, now)) throw new ConflictError(M.outcomeTooEarly);
  const at = now.toISOString();
  const outcome = { interest: input.interest, note: input.note, at };
  const facts = { ...factsOf(property, { date: String(visit.date), start: String(visit.start), end: String(visit.end), agentName: String(visit.agentName), agentEmail: String(visit.agentEmail) }), outcome };
  // the seller and the back office learn the outcome; the agent wrote it
  const mails = visitMails('done', facts, property, { id: visitId, sequence: 0 }, at, ['seller', 'backoffice']);
  await closeVisit({
    ...change(propertyId, property, 'visit.done', { id: agent.userId, role: 'agent', name: agent.email }, at, {
      before: 'booked',
      after: 'done',
      note: `${INTEREST_LABELS[input.interest]}${input.note ? `: ${input.note}` : ''}`,
    }),
    mails,
    visit,
    status: 'done',
    set: { outcome },
    agentId: agent.userId,
    freeTheSlot: false,
  });
  await deliver(mails);
  return toVisit({ ...visit, status: 'done', outcome });
}

// ---- the seller -----------------------------------------------------------------------------

async function requireOwned(propertyId: string, userId: string): Promise<Item> {
  const property = await readProperty(propertyId);
  if (!isOwner(property, userId)) throw new NotFoundError(M.propertyNotFound);
  return property!;
}

/** GET /seller/properties/{propertyId}/visits: every visit of the caller's property. */
export async function sellerVisits(propertyId: string, userId: string): Promise<SellerVisits> {
  await requireOwned(propertyId, userId);
  return { visits: (await visitItemsOfProperty(propertyId)).map(toVisit) };
}

/** POST /seller/properties/{propertyId}/visits/{visitId}/decline {reason}: before it starts; the slot stays taken (the seller is not available then). */
export async function declineVisit(propertyId: string, visitId: string, userId: string, reason: string, now = new Date()): Promise<Visit> {
  const property = await requireOwned(propertyId, userId);
  const visit = await readVisit(propertyId, visitId);
  if (!visit) throw new NotFoundError(M.visitNotFound);
  if (visit.status !== 'booked') throw new ConflictError(M.notBooked);
  if (hasStarted({ date: String(visit.date), start: String(visit.start) }, now)) throw new ConflictError(M.declineStarted);
  const at = now.toISOString();
  const sequence = (typeof visit.sequence === 'number' ? visit.sequence : 0) + 1;
  const facts = {
    ...factsOf(property, { date: String(visit.date), start: String(visit.start), end: String(visit.end), agentName: String(visit.agentName), agentEmail: String(visit.agentEmail) }),
    reason,
  };
  const mails = visitMails('declined', facts, property, { id: visitId, sequence }, at);
  await closeVisit({
    ...change(propertyId, property, 'visit.declined', { id: userId, role: 'seller', name: null }, at, { before: 'booked', after: 'declined', note: reason }),
    mails,
    visit,
    status: 'declined',
    set: { declinedAt: at, declineReason: reason, sequence },
    owner: userId,
    freeTheSlot: false,
  });
  await deliver(mails);
  return toVisit({ ...visit, status: 'declined', declineReason: reason });
}

/** The reminder mails of a visit tomorrow, or today (`sameDay`), for the seller and the agent, with the invitation. */
function visitReminderMails(property: Item, visit: Item, at: string, sameDay: boolean) {
  const facts = {
    ...factsOf(property, { date: String(visit.date), start: String(visit.start), end: String(visit.end), agentName: String(visit.agentName), agentEmail: String(visit.agentEmail) }),
    sameDay,
  };
  return visitMails('reminder', facts, property, { id: String(visit.id), sequence: typeof visit.sequence === 'number' ? visit.sequence : 0 }, at, ['seller', 'agent']);
}

/**
 * The daily reminder: every visit still booked for tomorrow (Europe/Rome) on an option still
 * in its agent's charge gets its seller's and agent's mail, once (the visit's own condition);
 * one whose option its agent no longer holds (a cancellation the closing could not make) is
 * cancelled instead, everyone told. A visit of today not started yet and not reminded, booked
 * or moved before today, gets its reminder now ("oggi"): the run of the day before missed it
 * (a run that failed or came late, or the night daylight saving time starts, when a daily run at
 * a fixed UTC time skips a day of Rome). One visit's failure is logged and the others go on.
 */
export async function remindTomorrowsVisits(now = new Date()): Promise<{ due: number; sent: number; cancelled: number; failed: number }> {
  const today = todayInRome(now);
  const tomorrow = addDays(today, 1);
  const missed = (await bookedVisitItemsOn(today)).filter(
    (v) => !v.reminderSentAt && !hasStarted({ date: String(v.date), start: String(v.start) }, now) && String(v.updatedAt ?? v.createdAt ?? '') < romeDayStart(today),
  );
  const due = [...missed, ...(await bookedVisitItemsOn(tomorrow))];
  const at = now.toISOString();
  let sent = 0;
  let cancelled = 0;
  let failed = 0;
  for (const visit of due) {
    try {
      const [property, option] = await Promise.all([readProperty(String(visit.propertyId)), readOption(String(visit.propertyId))]);
      if (!property) continue;
      // nothing goes to an agent who no longer holds the option: the visit its closing failed to cancel is cancelled now
      if (option?.status !== 'assigned' || option.assignedAgentId !== visit.agentId) {
        logger.warn('Visit of an option no longer in its agent\'s charge: cancelled, no reminder', { propertyId: visit.propertyId, visitId: visit.id });
        await deliver(await cancelVisitOfClosedOption(property, visit, SYSTEM_ACTOR, now));
        cancelled++;
        continue;
      }
      const mails = visitReminderMails(property, visit, at, visit.date === today);
      if (await recordVisitReminder(visit, at, mails)) {
        sent++;
        await deliver(mails);
      }
    } catch (err) {
      failed++;
      logger.error('Visit reminder not sent', { visitId: visit.id, error: err as Error });
    }
  }
  logger.info('Visit reminders', { day: tomorrow, missedToday: missed.length, due: due.length, sent, cancelled, failed });
  return { due: due.length, sent, cancelled, failed };
}
