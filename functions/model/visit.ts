/**
 * Visits (domain/visits.ts): VISIT items under the property's pk, the SLOT item they take
 * (isBooked, visitId: one booking per slot, by the slot's own condition), and the writes of
 * each change in ONE transaction with the property guard at index 0, the activity entry and
 * the e-mails' outbox items. The agent's writes also check, on the OPTION item, that the
 * option is still in their charge (state assigned, assignedAgentId).
 */
import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, queryAll, table } from './db';
import { str, type Item } from './item';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { guardedTransaction } from './property';
import { requestActivity } from './activity';
import { cancellationReasons } from './agent-request';
import { ConflictError, NotFoundError } from '../lib/errors';
import { factsOf, visitMails } from '../lib/visit-mails';
import type { Actor, ActivityKind } from '../domain/activity';
import { cutoffOf, hasStarted, INTEREST_LEVELS, VISIT_MESSAGES, VISIT_STATUSES, type FreeSlot, type InterestLevel, type Visit, type VisitStatus } from '../domain/visits';

type Outbox = Omit<Parameters<typeof outboxPut>[0], 'now'>;
type TransactItem = Parameters<typeof guardedTransaction>[1][number];

export function toVisit(item: Item): Visit {
  const outcome = item.outcome as { interest?: unknown; note?: unknown; at?: unknown } | null | undefined;
  const date = String(item.date);
  const start = String(item.start);
  return {
    id: String(item.id),
    propertyId: String(item.propertyId),
    slotId: String(item.slotId),
    date,
    start,
    end: String(item.end),
    status: (VISIT_STATUSES as readonly string[]).includes(String(item.status)) ? (item.status as VisitStatus) : 'booked',
    agentId: String(item.agentId),
    agentName: String(item.agentName ?? ''),
    cutoffAt: cutoffOf({ date, start }),
    createdAt: String(item.createdAt),
    declineReason: str(item.declineReason),
    outcome:
      outcome && (INTEREST_LEVELS as readonly string[]).includes(String(outcome.interest))
        ? { interest: outcome.interest as InterestLevel, note: String(outcome.note ?? ''), at: String(outcome.at ?? '') }
        : null,
  };
}

export const toFreeSlot = (s: Item): FreeSlot => ({ id: String(s.id), date: String(s.date), start: String(s.start), end: String(s.end) });

/** A property's visits, by date and time. */
export async function visitItemsOfProperty(propertyId: string): Promise<Item[]> {
  const q = keys.visitsOfProperty(propertyId);
  const out: Item[] = [];
  await queryAll(
    { TableName: table(), KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': q.pk, ':p': q.skPrefix }, ConsistentRead: true },
    (item) => {
      out.push(item);
    },
  );
  return out.sort((a, b) => `${String(a.date)}T${String(a.start)}`.localeCompare(`${String(b.date)}T${String(b.start)}`));
}

/** The property's visits still booked that have not started yet (those an option's closing cancels). */
export async function upcomingBookedVisitItems(propertyId: string, now: Date): Promise<Item[]> {
  return (await visitItemsOfProperty(propertyId)).filter((v) => v.status === 'booked' && !hasStarted({ date: String(v.date), start: String(v.start) }, now));
}

/** The property's slots from `fromDate` (yyyy-MM-dd) on, booked or not. */
export async function slotItemsFrom(propertyId: string, fromDate: string): Promise<Item[]> {
  const pk = keys.propertyDossier(propertyId).pk;
  const prefix = keys.dossierPrefixes.slot;
  const out: Item[] = [];
  await queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': `${prefix}${fromDate}`, ':to': `${prefix}\uffff` },
      ConsistentRead: true,
    },
    (item) => {
      out.push(item);
    },
  );
  return out;
}

/** One slot of the property by its id (among those from `fromDate`), or undefined. */
export async function findSlot(propertyId: string, slotId: string, fromDate: string): Promise<Item | undefined> {
  return (await slotItemsFrom(propertyId, fromDate)).find((s) => s.id === slotId);
}

export async function readVisit(propertyId: string, visitId: string): Promise<Item | undefined> {
  return (await visitItemsOfProperty(propertyId)).find((v) => v.id === visitId);
}

/** The visits booked on a day (every property), for the reminder the day before. */
export async function bookedVisitItemsOn(date: string): Promise<Item[]> {
  const q = keys.bookedVisitsOn(date);
  const out: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb().send(
      new QueryCommand({ TableName: table(), IndexName: q.index, KeyConditionExpression: 'gsi3pk = :pk', ExpressionAttributeValues: { ':pk': q.pk }, ...(start ? { ExclusiveStartKey: start } : {}) }),
    );
    // the index lags the table by a moment: the item's own status decides (the reminder's write checks it again)
    for (const item of res.Items ?? []) if (item.status === 'booked') out.push(item);
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

// ---- writes --------------------------------------------------------------------------------

/** The option is in the agent's charge; with `slotDate`, it also runs until that day (its expiry day is not before it). */
function optionOfAgent(propertyId: string, agentId: string, slotDate?: string): TransactItem {
  return {
    ConditionCheck: {
      TableName: table(),
      Key: keys.option(propertyId),
      ConditionExpression: `#s = :assigned AND assignedAgentId = :agent${slotDate === undefined ? '' : ' AND (attribute_not_exists(expiresAt) OR attribute_type(expiresAt, :nullType) OR expiresAt >= :slotDate)'}`,
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':assigned': 'assigned', ':agent': agentId, ...(slotDate === undefined ? {} : { ':nullType': 'NULL', ':slotDate': slotDate }) },
    },
  };
}

function takeSlot(slot: Item, visitId: string, at: string): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: { pk: slot.pk, sk: slot.sk },
      UpdateExpression: 'SET isBooked = :true, visitId = :vid, updatedAt = :at',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(isBooked) OR isBooked = :false)',
      ExpressionAttributeValues: { ':true': true, ':false': false, ':vid': visitId, ':at': at },
    },
  };
}

function freeSlot(propertyId: string, visit: Item, at: string): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: keys.slot(propertyId, String(visit.date), String(visit.slotId)),
      UpdateExpression: 'SET isBooked = :false, updatedAt = :at REMOVE visitId',
      ConditionExpression: 'attribute_exists(pk) AND visitId = :vid',
      ExpressionAttributeValues: { ':false': false, ':vid': visit.id, ':at': at },
    },
  };
}

interface Change {
  propertyId: string;
  at: string;
  actor: Actor;
  kind: ActivityKind;
  /** the property's address, for the feed */
  propertyLabel: string | null;
  note: string | null;
  before: string | null;
  after: string | null;
  mails: readonly Outbox[];
}

/** Sends one visit change; `meaning` maps the index of a failed condition (after the guard) to its error. */
async function send(c: Change, writes: readonly TransactItem[], owner: string | undefined, meaning: (index: number) => Error): Promise<void> {
  const gone = () => new NotFoundError(owner ? VISIT_MESSAGES.propertyNotFound : VISIT_MESSAGES.optionNotFound);
  const all: TransactItem[] = [
    ...writes,
    requestActivity(c.propertyId, c.kind, c.actor, c.at, { propertyLabel: c.propertyLabel, note: c.note, before: c.before, after: c.after }),
    ...c.mails.map((m) => outboxPut({ ...m, now: c.at })),
  ];
  try {
    await ddb().send(new TransactWriteCommand(guardedTransaction({ propertyId: c.propertyId, ...(owner ? { owner } : {}) }, all)));
  } catch (err) {
    const reasons = cancellationReasons(err);
    if (!reasons.length) throw err;
    if (reasons[0] === 'ConditionalCheckFailed') throw gone();
    const failed = reasons.findIndex((r, i) => i > 0 && r === 'ConditionalCheckFailed');
    if (failed > 0) throw meaning(failed);
    throw new ConflictError();
  }
}

/** The agent books `slot`: the slot taken (only if free), the VISIT item, the entry and the mails. */
export async function bookVisit(c: Change & { agentId: string; slot: Item; visit: Item }): Promise<void> {
  const visit = {
    ...keys.visit(c.propertyId, String(c.visit.id)),
    ...keys.visitIndexes({ id: String(c.visit.id), propertyId: c.propertyId, agentId: c.agentId, date: String(c.slot.date), start: String(c.slot.start) }),
    ...keys.bookedVisitIndex({ id: String(c.visit.id), propertyId: c.propertyId, date: String(c.slot.date), start: String(c.slot.start) }),
    entity: 'visit',
    ...c.visit,
  };
  // index 0 the guard; 1 the option in the agent's charge; 2 the slot; 3 the visit
  await send(c, [optionOfAgent(c.propertyId, c.agentId, String(c.slot.date)), takeSlot(c.slot, String(c.visit.id), c.at), { Put: { TableName: table(), Item: visit, ConditionExpression: 'attribute_not_exists(pk)' } }], undefined, (i) =>
    i === 1 ? new ConflictError(VISIT_MESSAGES.notAssigned) : i === 2 ? new ConflictError(VISIT_MESSAGES.slotTaken) : new ConflictError(),
  );
}

/**
 * The agent moves a booked visit to `slot`: the old slot freed, the new one taken, the visit's
 * time and sequence; the reminder of the old time no longer counts (the new day gets its own).
 */
export async function moveVisit(c: Change & { agentId: string; visit: Item; slot: Item }): Promise<void> {
  const v = c.visit;
  const idx = keys.visitIndexes({ id: String(v.id), propertyId: c.propertyId, agentId: c.agentId, date: String(c.slot.date), start: String(c.slot.start) });
  const booked = keys.bookedVisitIndex({ id: String(v.id), propertyId: c.propertyId, date: String(c.slot.date), start: String(c.slot.start) });
  const update: TransactItem = {
    Update: {
      TableName: table(),
      Key: keys.visit(c.propertyId, String(v.id)),
      UpdateExpression:
        'SET slotId = :slot, #date = :date, #start = :start, #end = :end, #seq = if_not_exists(#seq, :zero) + :one, updatedAt = :at, gsi1sk = :g1, gsi3pk = :g3pk, gsi3sk = :g3sk ' +
        'REMOVE reminderSentAt',
      ConditionExpression: '#status = :booked AND slotId = :oldSlot AND agentId = :agent',
      ExpressionAttributeNames: { '#date': 'date', '#start': 'start', '#end': 'end', '#seq': 'sequence', '#status': 'status' },
      ExpressionAttributeValues: {
        ':slot': c.slot.id,
        ':date': c.slot.date,
        ':start': c.slot.start,
        ':end': c.slot.end,
        ':zero': 0,
        ':one': 1,
        ':at': c.at,
        ':g1': idx.gsi1sk,
        ':g3pk': booked.gsi3pk,
        ':g3sk': booked.gsi3sk,
        ':booked': 'booked',
        ':oldSlot': v.slotId,
        ':agent': c.agentId,
      },
    },
  };
  // 1 option; 2 visit; 3 old slot; 4 new slot
  await send(c, [optionOfAgent(c.propertyId, c.agentId, String(c.slot.date)), update, freeSlot(c.propertyId, v, c.at), takeSlot(c.slot, String(v.id), c.at)], undefined, (i) =>
    i === 1 ? new ConflictError(VISIT_MESSAGES.notAssigned) : i === 4 ? new ConflictError(VISIT_MESSAGES.slotTaken) : new ConflictError(VISIT_MESSAGES.notBooked),
  );
}

/**
 * A booked visit ends (cancelled by its agent, declined by the seller, done with an outcome);
 * its agent's change needs the option still assigned to them, in the same transaction.
 */
export async function closeVisit(
  c: Change & { visit: Item; status: Exclude<VisitStatus, 'booked'>; set: Record<string, unknown>; agentId?: string; owner?: string; freeTheSlot: boolean },
): Promise<void> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':to': c.status, ':booked': 'booked', ':at': c.at };
  const sets = ['#status = :to', 'updatedAt = :at'];
  Object.entries(c.set).forEach(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:f${i}`] = v;
    sets.push(`#f${i} = :f${i}`);
  });
  if (c.agentId) values[':agent'] = c.agentId;
  const update: TransactItem = {
    Update: {
      TableName: table(),
      Key: keys.visit(c.propertyId, String(c.visit.id)),
      UpdateExpression: `SET ${sets.join(', ')} REMOVE gsi3pk, gsi3sk`,
      ConditionExpression: `#status = :booked${c.agentId ? ' AND agentId = :agent' : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
  // the agent's own change only while the option is still in their charge (checked in the write, as booking and moving)
  const agent = c.agentId ? [optionOfAgent(c.propertyId, c.agentId)] : [];
  await send(c, [...agent, update, ...(c.freeTheSlot ? [freeSlot(c.propertyId, c.visit, c.at)] : [])], c.owner, (i) =>
    agent.length && i === 1 ? new ConflictError(VISIT_MESSAGES.notAssigned) : new ConflictError(VISIT_MESSAGES.notBooked),
  );
}

/** The reminder the day before, once per visit (only while it is booked), with its mails. */
export async function recordVisitReminder(visit: Item, at: string, mails: readonly Outbox[]): Promise<boolean> {
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table(),
              Key: { pk: visit.pk, sk: visit.sk },
              UpdateExpression: 'SET reminderSentAt = :at',
              ConditionExpression: '#status = :booked AND attribute_not_exists(reminderSentAt)',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':at': at, ':booked': 'booked' },
            },
          },
          ...mails.map((m) => outboxPut({ ...m, now: at })),
        ] as never,
      }),
    );
    return true;
  } catch (err) {
    if (cancellationReasons(err).length) return false;
    throw err;
  }
}

/**
 * A booked visit whose option no agent holds any more (closed, or assigned to someone else) is
 * cancelled: the slot freed, seller, agent and back office told with the calendar CANCEL
 * ('optionClosed'), the history entry; only while still booked (409 otherwise). Returns the
 * mails to deliver. Used by the option's closing and by the daily reminder, which meets the
 * visits a closing failed to cancel.
 */
export async function cancelVisitOfClosedOption(property: Item, visit: Item, actor: Actor, now: Date): Promise<{ id: string }[]> {
  const at = now.toISOString();
  const id = String(visit.id);
  const sequence = (typeof visit.sequence === 'number' ? visit.sequence : 0) + 1;
  const facts = factsOf(property, { date: String(visit.date), start: String(visit.start), end: String(visit.end), agentName: String(visit.agentName), agentEmail: String(visit.agentEmail) });
  const mails = visitMails('optionClosed', facts, property, { id, sequence }, at);
  await closeVisit({
    propertyId: String(visit.propertyId),
    at,
    actor,
    kind: 'visit.optionClosed',
    propertyLabel: str(property.address),
    note: `${String(visit.date)} ${String(visit.start)}`,
    before: 'booked',
    after: 'cancelled',
    mails,
    visit,
    status: 'cancelled',
    set: { cancelledAt: at, cancelReason: 'option_closed', sequence },
    freeTheSlot: true,
  });
  return mails;
}
