/**
 * Agent assignment requests (spec agent_assignment_requests): ONE item per (option, agent)
 * under the property's pk (keys.agentRequest), so the dossier Query and the deletion of a
 * request see them, and one agent can never hold two requests on one option. Every change is
 * a conditional write; a change that also touches other items is ONE TransactWriteItems.
 *
 *   (none)          -> pending          the agent asks (Put with attribute_not_exists)
 *   rejected        -> pending          the agent asks again with a new commission
 *   pending         -> payment_pending  an admin approves (+ the e-mail with the payment link)
 *   pending         -> rejected         an admin rejects (+ e-mail)
 *   payment_pending -> paid             Stripe's webhook (carta) or an admin (bonifico), in ONE
 *                                       transaction with the option's assignment and the
 *                                       rejection (+ e-mail) of every other open request on it
 *                                       (model/agent-payment.ts)
 *
 * This module is the storage only: keys, attributes, mapping, reads and the conditional
 * writes, each answering what happened as a plain outcome. The use cases (what is allowed,
 * the Italian messages, retries, mail delivery) live in functions/agents/.
 */
export { type Item } from './item';
import { str, type Item } from './item';
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, queryAll, table } from './db';
import { NotFoundError } from '../lib/errors';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { guardedTransaction } from './property';
import type { MailMessage } from '../lib/mail';
import {
  AGENT_MESSAGES,
  OPEN_AGENT_REQUEST_STATUSES,
  commissionAmountOf,
  paymentReference,
  type AdminAgentRequest,
  type AgentRequestStatus,
  type AgentRequestView,
  type OpenAgentRequestStatus,
} from '../domain/agent-requests';
import type { RequestMailFacts } from '../domain/agent-mail';
import { todayInRome } from '../domain/availability';
import { isPastExpiry, type OptionState } from '../domain/option-lifecycle';
import type { Actor } from '../domain/activity';
import { requestActivity } from './activity';

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Request ids are uuids; anything else is a missing request. */
export const REQUEST_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The option is offered to agents: published by an admin after the signature
 * (domain/option-lifecycle), no agent assigned (spec 001 section 4 said "pending"), and
 * `today` (Europe/Rome) not past its expiry day: the daily job expires it, and until it runs
 * an expired option takes no request, approval or payment. Stored options carry
 * `assignedAgentId: null` until an agent pays.
 */
export function optionListed(today: string): { expression: string; names: Record<string, string>; values: Record<string, string> } {
  const notExpired = optionNotExpired(today);
  return {
    expression: `#optStatus = :optPublished AND (attribute_not_exists(assignedAgentId) OR attribute_type(assignedAgentId, :nullType)) AND ${notExpired.expression}`,
    names: { '#optStatus': 'status' },
    values: { ':optPublished': 'published' satisfies OptionState, ...notExpired.values },
  };
}

/** The option's expiry day (Europe/Rome) is not before `today`, or it has none (not signed yet). */
export function optionNotExpired(today: string): { expression: string; values: Record<string, string> } {
  return {
    expression: '(attribute_not_exists(expiresAt) OR attribute_type(expiresAt, :nullType) OR expiresAt >= :today)',
    values: { ':nullType': 'NULL', ':today': today },
  };
}

export function isListed(option: Item, today: string): boolean {
  return option.status === 'published' && !str(option.assignedAgentId) && !isPastExpiry(str(option.expiresAt), today);
}

/**
 * The version of the option's requests: saving a request on the option (new, or asked again)
 * raises it in the same transaction, only if it is still the one read. What closes the
 * option's open requests (a payment, an admin's withdraw, cancel or exercise, the expiry)
 * requires the version it read before listing them, so a request saved meanwhile makes it
 * start again instead of staying open on an option nobody can take; and the cap on open
 * requests, counted after reading the version, holds in the write.
 */
export function requestsVersionOf(option: Item): number {
  return num(option.requestsVersion);
}

/** The condition "the option's requests version is still `version`", on the OPTION item. */
export function requestsVersionIs(version: number): { expression: string; values: Record<string, number> } {
  return version === 0
    ? { expression: 'attribute_not_exists(requestsVersion)', values: {} }
    : { expression: 'requestsVersion = :requestsVersion', values: { ':requestsVersion': version } };
}

/** The codes of a cancelled TransactWriteItems, one per item ([] for any other error). */
export const cancellationReasons = (err: unknown): string[] =>
  ((err as { name?: string; CancellationReasons?: { Code?: string }[] }).name === 'TransactionCanceledException'
    ? ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code ?? 'None')
    : []);

/** A mail of the outbox without its recipient: the request's agent gets it. */
export type AgentMail = Omit<MailMessage, 'to'>;

/**
 * The writes that close an open request (pending or payment_pending -> rejected, only from the
 * status it was read in) with its agent's e-mail: for the transaction of what closes it (a
 * payment by another agent, the option withdrawn or cancelled).
 */
export function closeRequestWrites(other: Item, input: { reason: 'assigned' | 'withdrawn' | 'cancelled' | 'expired' | 'exercised'; at: string; outboxId: string; kind: string; mail: AgentMail }) {
  return [
    {
      Update: {
        TableName: table(),
        Key: { pk: other.pk, sk: other.sk },
        UpdateExpression: 'SET #status = :rejected, rejectedAt = :at, rejectedReason = :reason, decidedAt = :at, updatedAt = :at REMOVE gsi2pk, gsi2sk',
        ConditionExpression: '#status = :was AND id = :id',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':rejected': 'rejected', ':reason': input.reason, ':at': input.at, ':was': other.status, ':id': other.id },
      },
    },
    outboxPut({ id: input.outboxId, kind: input.kind, ref: String(other.id), now: input.at, mail: { to: [String(other.agentEmail)], ...input.mail } }),
  ];
}

// ---- mapping -----------------------------------------------------------------------------

export function toAgentRequestView(item: Item): AgentRequestView {
  const id = String(item.id);
  const optionAmount = num(item.optionAmount);
  const pct = num(item.requestedCommissionPercentage);
  return {
    id,
    propertyId: String(item.propertyId),
    optionId: String(item.optionId ?? ''),
    propertyAddress: String(item.propertyAddress ?? ''),
    propertyCity: str(item.propertyCity),
    propertyValue: num(item.propertyValue),
    optionAmount,
    requestedCommissionPercentage: pct,
    commissionAmount: commissionAmountOf(optionAmount, pct),
    status: String(item.status) as AgentRequestStatus,
    createdAt: String(item.createdAt ?? ''),
    updatedAt: String(item.updatedAt ?? item.createdAt ?? ''),
    paidAt: str(item.paidAt),
    paidVia: item.paidVia === 'carta' || item.paidVia === 'bonifico' ? item.paidVia : null,
    reference: paymentReference(id),
  };
}

export function toAdminAgentRequest(item: Item): AdminAgentRequest {
  return {
    ...toAgentRequestView(item),
    agentId: String(item.agentId),
    agentName: str(item.agentName) ?? 'N/A',
    agentEmail: str(item.agentEmail) ?? 'N/A',
    approvedAt: str(item.approvedAt),
  };
}

/** What the agent's e-mails about a request say of it. */
export function toRequestMailFacts(item: Item): RequestMailFacts {
  return {
    id: String(item.id),
    agentName: String(item.agentName ?? ''),
    propertyAddress: String(item.propertyAddress ?? ''),
    propertyCity: str(item.propertyCity),
    optionAmount: num(item.optionAmount),
    requestedCommissionPercentage: num(item.requestedCommissionPercentage),
  };
}

/** The commission range the option offers to agents (percent). */
export function commissionRangeOf(option: Item): { min: number; max: number } {
  return { min: num(option.minAgentCommissionPercentage), max: num(option.agentCommissionPercentage) };
}

/** What a request copies of its option and property when the agent asks (shown in the lists and mails). */
export interface RequestSnapshot {
  optionId: string;
  agentName: string;
  agentEmail: string;
  propertyAddress: string;
  propertyCity: string | null;
  propertyValue: number;
  optionAmount: number;
  requestedCommissionPercentage: number;
}

export function requestSnapshot(option: Item, property: Item, agent: { name: string; email: string }, commissionPercentage: number): RequestSnapshot {
  return {
    optionId: String(option.id),
    agentName: agent.name,
    agentEmail: agent.email,
    propertyAddress: String(option.propertyAddress ?? property.address ?? ''),
    propertyCity: str(option.propertyCity) ?? str(property.city),
    propertyValue: num(option.propertyValue),
    optionAmount: num(option.optionAmount),
    requestedCommissionPercentage: commissionPercentage,
  };
}

// ---- reads -------------------------------------------------------------------------------

async function getItem(key: { pk: string; sk: string }): Promise<Item | undefined> {
  return (await ddb().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }))).Item;
}

/** The property's OPTION item (strongly consistent), or undefined. */
export async function readOption(propertyId: string): Promise<Item | undefined> {
  return getItem(keys.option(propertyId));
}

/** The agent's own request on a property's option (strongly consistent), or undefined. */
export async function readAgentRequest(propertyId: string, agentId: string): Promise<Item | undefined> {
  return getItem(keys.agentRequest(propertyId, agentId));
}

/** The status the request has now (read again), or its status in `item` when it is gone. */
export async function currentStatus(item: Item): Promise<string> {
  const now = await getItem({ pk: String(item.pk), sk: String(item.sk) });
  return String(now?.status ?? item.status);
}

/** The request by its id (gsi3), read again strongly consistent; 404 'Richiesta non trovata'. */
export async function requireRequestById(requestId: string): Promise<Item> {
  if (!REQUEST_ID_PATTERN.test(requestId)) throw new NotFoundError(AGENT_MESSAGES.requestNotFound);
  const q = keys.agentRequestById(requestId);
  const res = await ddb().send(
    new QueryCommand({
      TableName: table(),
      IndexName: q.index,
      KeyConditionExpression: 'gsi3pk = :pk',
      ExpressionAttributeValues: { ':pk': q.pk },
      ProjectionExpression: 'pk, sk',
      Limit: 1,
    }),
  );
  const ref = res.Items?.[0];
  const item = ref ? await getItem({ pk: String(ref.pk), sk: String(ref.sk) }) : undefined;
  if (!item || item.id !== requestId) throw new NotFoundError(AGENT_MESSAGES.requestNotFound);
  return item;
}

/** Every request on a property's option (strongly consistent). */
export async function requestsOfOption(propertyId: string): Promise<Item[]> {
  const q = keys.agentRequestsOfOption(propertyId);
  const items: Item[] = [];
  await queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': q.pk, ':prefix': q.skPrefix },
      ConsistentRead: true,
    },
    (item) => {
      items.push(item);
    },
  );
  return items;
}

/** How many requests on a property's option are still open (pending or payment_pending). */
export async function openRequestCount(propertyId: string): Promise<number> {
  const q = keys.agentRequestsOfOption(propertyId);
  const res = await ddb().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: '#status IN (:a, :b)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': q.pk, ':prefix': q.skPrefix, ':a': OPEN_AGENT_REQUEST_STATUSES[0], ':b': OPEN_AGENT_REQUEST_STATUSES[1] },
      Select: 'COUNT',
    }),
  );
  return res.Count ?? 0;
}

/** The agent's own requests, newest first (Le Mie Richieste). */
export async function listRequestsOfAgent(agentId: string): Promise<Item[]> {
  const q = keys.agentRequestsOfAgent(agentId);
  const items: Item[] = [];
  await queryAll(
    { TableName: table(), IndexName: q.index, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': q.pk }, ScanIndexForward: false },
    (item) => {
      items.push(item);
    },
  );
  return items;
}

/** The requests in one open status, newest first (the admin's tables). */
export async function listRequestsByStatus(status: OpenAgentRequestStatus): Promise<AdminAgentRequest[]> {
  const q = keys.agentRequestsByStatus(status);
  const items: AdminAgentRequest[] = [];
  await queryAll(
    { TableName: table(), IndexName: q.index, KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': q.pk }, ScanIndexForward: false },
    (item) => {
      // the index is eventually consistent: a row that just changed status is left out
      if (item.status === status) items.push(toAdminAgentRequest(item));
    },
  );
  return items;
}

// ---- the agent asks ----------------------------------------------------------------------

export type SaveRequestOutcome =
  | { outcome: 'created' | 'updated'; request: AgentRequestView }
  /** the request item lost its condition: another write of the same agent got there first (or is in flight) */
  | { outcome: 'duplicate' }
  /** the option changed since it was read: no longer listed, or another request saved on it */
  | { outcome: 'option_moved' }
  /** the property is missing or being deleted (the guard) */
  | { outcome: 'property_gone' }
  /** cancelled by another transaction on the same option: read again and retry */
  | { outcome: 'conflict' };

/**
 * The agent's request saved as pending: a new item (`existing` undefined: Put with
 * attribute_not_exists), or the agent's rejected request asked again (Update only from
 * rejected, same id). ONE transaction with the property's guard (index 0) and the option's
 * requests version raised from `optionVersion`, the one read before counting its open
 * requests, only while the option is listed.
 */
export async function saveAgentRequest(input: {
  propertyId: string;
  agentId: string;
  existing: Item | undefined;
  snapshot: RequestSnapshot;
  at: string;
  optionVersion: number;
}): Promise<SaveRequestOutcome> {
  const { propertyId, agentId, existing, snapshot, at, optionVersion } = input;
  const version = requestsVersionIs(optionVersion);
  const listed = optionListed(todayInRome(new Date(at)));
  let write;
  let item: Item;
  if (!existing) {
    const id = randomUUID();
    item = {
      ...keys.agentRequest(propertyId, agentId),
      ...keys.agentRequestIndexes({ id, agentId, propertyId, createdAt: at }),
      ...keys.agentRequestStatusIndex('pending', { agentId, propertyId, createdAt: at }),
      entity: 'agentRequest',
      id,
      propertyId,
      agentId,
      ...snapshot,
      status: 'pending' satisfies AgentRequestStatus,
      createdAt: at,
      updatedAt: at,
    };
    write = { Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
  } else {
    const status = keys.agentRequestStatusIndex('pending', { agentId, propertyId, createdAt: String(existing.createdAt) });
    item = { ...existing, ...snapshot, status: 'pending', updatedAt: at };
    write = {
      Update: {
        TableName: table(),
        Key: keys.agentRequest(propertyId, agentId),
        UpdateExpression:
          'SET #status = :pending, requestedCommissionPercentage = :pct, optionId = :optionId, agentName = :agentName, agentEmail = :agentEmail, ' +
          'propertyAddress = :address, propertyCity = :city, propertyValue = :value, optionAmount = :amount, updatedAt = :at, ' +
          'gsi2pk = :g2pk, gsi2sk = :g2sk REMOVE rejectedAt, rejectedReason, decidedAt, decidedBy, approvedAt',
        ConditionExpression: '#status = :rejected AND id = :id',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':rejected': 'rejected',
          ':id': existing.id,
          ':pct': snapshot.requestedCommissionPercentage,
          ':optionId': snapshot.optionId,
          ':agentName': snapshot.agentName,
          ':agentEmail': snapshot.agentEmail,
          ':address': snapshot.propertyAddress,
          ':city': snapshot.propertyCity,
          ':value': snapshot.propertyValue,
          ':amount': snapshot.optionAmount,
          ':at': at,
          ':g2pk': status.gsi2pk,
          ':g2sk': status.gsi2sk,
        },
      },
    };
  }
  // index 0: the property's guard (exists, not being deleted); 1: the request; 2: the option
  const transaction = guardedTransaction({ propertyId }, [
    write as never,
    {
      Update: {
        TableName: table(),
        Key: keys.option(propertyId),
        UpdateExpression: 'SET requestsVersion = :nextVersion',
        ConditionExpression: `attribute_exists(pk) AND ${listed.expression} AND ${version.expression}`,
        ExpressionAttributeNames: listed.names,
        ExpressionAttributeValues: { ...listed.values, ...version.values, ':nextVersion': optionVersion + 1 },
      },
    },
  ]);
  try {
    await ddb().send(new TransactWriteCommand(transaction));
  } catch (err) {
    const reasons = cancellationReasons(err);
    if (!reasons.length) throw err;
    if (reasons[1] === 'ConditionalCheckFailed' || reasons[1] === 'TransactionConflict') return { outcome: 'duplicate' };
    if (reasons[2] === 'ConditionalCheckFailed') return { outcome: 'option_moved' };
    if (reasons[0] === 'ConditionalCheckFailed') return { outcome: 'property_gone' };
    return { outcome: 'conflict' };
  }
  return { outcome: existing ? 'updated' : 'created', request: toAgentRequestView(item) };
}

// ---- the admin decides -------------------------------------------------------------------

export type DecisionOutcome =
  | { outcome: 'decided'; request: AdminAgentRequest }
  /** the request is no longer pending */
  | { outcome: 'not_pending' }
  /** approving: another agent has taken the option in charge meanwhile */
  | { outcome: 'option_assigned' }
  /** cancelled by another transaction: nothing written */
  | { outcome: 'conflict' };

/**
 * A pending request approved (-> payment_pending, in the admins' payment list) or rejected,
 * in ONE transaction with the agent's e-mail (outbox item `outboxId`): only from pending
 * (condition on the item); approving also checks that nobody took the option in charge.
 */
export async function decideAgentRequest(
  item: Item,
  input: { decision: 'approve' | 'reject'; actor: Actor; at: string; outboxId: string; mail: AgentMail },
): Promise<DecisionOutcome> {
  const { decision, actor, at, outboxId, mail } = input;
  const adminId = actor.id;
  const requestId = String(item.id);
  const approve = decision === 'approve';
  const status: AgentRequestStatus = approve ? 'payment_pending' : 'rejected';
  const index = keys.agentRequestStatusIndex('payment_pending', { agentId: String(item.agentId), propertyId: String(item.propertyId), createdAt: String(item.createdAt) });
  const update = approve
    ? {
        UpdateExpression: 'SET #status = :status, approvedAt = :at, decidedAt = :at, decidedBy = :by, updatedAt = :at, gsi2pk = :g2pk, gsi2sk = :g2sk',
        values: { ':g2pk': index.gsi2pk, ':g2sk': index.gsi2sk },
      }
    : {
        UpdateExpression: 'SET #status = :status, rejectedAt = :at, rejectedReason = :reason, decidedAt = :at, decidedBy = :by, updatedAt = :at REMOVE gsi2pk, gsi2sk',
        values: { ':reason': 'admin' },
      };
  const items: unknown[] = [
    {
      Update: {
        TableName: table(),
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: update.UpdateExpression,
        ConditionExpression: '#status = :pending AND id = :id',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':pending': 'pending', ':id': requestId, ':at': at, ':by': adminId, ...update.values },
      },
    },
    outboxPut({ id: outboxId, kind: `agent-request-${status}`, ref: requestId, now: at, mail: { to: [String(item.agentEmail)], ...mail } }),
    requestActivity(String(item.propertyId), approve ? 'agent-request.approved' : 'agent-request.rejected', actor, at, {
      propertyLabel: str(item.propertyAddress),
      userId: str(item.agentId),
      before: 'pending',
      after: status,
      note: `${String(item.agentName ?? item.agentEmail ?? '')}, ${String(item.requestedCommissionPercentage ?? '')}%`,
    }),
  ];
  if (approve) {
    // nobody took the option in charge meanwhile, and it is still offered
    const listed = optionListed(todayInRome(new Date(at)));
    items.push({
      ConditionCheck: {
        TableName: table(),
        Key: keys.option(String(item.propertyId)),
        ConditionExpression: `attribute_exists(pk) AND ${listed.expression}`,
        ExpressionAttributeNames: listed.names,
        ExpressionAttributeValues: listed.values,
      },
    });
  }
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: items as never }));
  } catch (err) {
    if (isConditionFailure(err, 0)) return { outcome: 'not_pending' };
    if (approve && isConditionFailure(err, 3)) return { outcome: 'option_assigned' };
    if (cancellationReasons(err).includes('TransactionConflict')) return { outcome: 'conflict' };
    throw err;
  }
  return {
    outcome: 'decided',
    request: toAdminAgentRequest({ ...item, status, updatedAt: at, decidedAt: at, decidedBy: adminId, ...(approve ? { approvedAt: at } : { rejectedAt: at }) }),
  };
}
