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
 * Anything else is refused with a 409 and changes nothing.
 */
export { type Item } from './item';
import { str, type Item } from './item';
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, queryAll, table } from './db';
import { config } from '../lib/config';
import { ConflictError, NotFoundError, ValidationError } from '../lib/errors';
import { keys } from './keys';
import { logger } from '../lib/logger';
import { deliverOutbox, outboxPut } from './outbox';
import { PROPERTY_EDITABLE } from './property';
import { isPropertyId } from './dossier';
import { getProfile } from './profile';
import {
  AGENT_MESSAGES,
  MAX_OPEN_REQUESTS_PER_OPTION,
  OPEN_AGENT_REQUEST_STATUSES,
  agentRequestStatusLabel,
  commissionAmountOf,
  commissionError,
  paymentReference,
  type AdminAgentRequest,
  type AgentRequestStatus,
  type AgentRequestView,
  type CreateAgentRequestResult,
  type OpenAgentRequestStatus,
  type PaymentMethod,
} from '../domain/agent-requests';
import { approvedMail, assignedToOtherMail, rejectedMail, type RequestMailFacts } from '../domain/agent-mail';


const appUrl = () => config().APP_URL;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Request ids are uuids; anything else is a missing request. */
export const REQUEST_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The option is offered to agents (spec 001 section 4): status pending and no agent assigned.
 * Stored options carry `assignedAgentId: null` until an agent pays.
 */
export const OPTION_LISTED = '#optStatus = :optPending AND (attribute_not_exists(assignedAgentId) OR attribute_type(assignedAgentId, :nullType))';
const OPTION_LISTED_VALUES = { ':optPending': 'pending', ':nullType': 'NULL' };
const OPTION_LISTED_NAMES = { '#optStatus': 'status' };

export function isListed(option: Item): boolean {
  return option.status === 'pending' && !str(option.assignedAgentId);
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

function mailFacts(item: Item): RequestMailFacts {
  return {
    id: String(item.id),
    agentName: String(item.agentName ?? ''),
    propertyAddress: String(item.propertyAddress ?? ''),
    propertyCity: str(item.propertyCity),
    optionAmount: num(item.optionAmount),
    requestedCommissionPercentage: num(item.requestedCommissionPercentage),
  };
}

// ---- reads -------------------------------------------------------------------------------

async function getItem(key: { pk: string; sk: string }): Promise<Item | undefined> {
  return (await ddb().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }))).Item;
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

const cancellation = (err: unknown): string[] =>
  ((err as { name?: string; CancellationReasons?: { Code?: string }[] }).name === 'TransactionCanceledException'
    ? ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code ?? 'None')
    : []);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * POST /agent/options/{propertyId}/requests: a new request (pending), or a rejected one asked
 * again (pending with the new commission). The option must be listed and the commission one
 * of the slider's values. Two simultaneous requests of the same agent: the item's condition
 * lets exactly one through; the other is told 'Hai già richiesto questa opzione'.
 */
export async function requestOption(
  agent: { userId: string; email: string },
  propertyId: string,
  commissionPercentage: number,
  now = new Date(),
): Promise<CreateAgentRequestResult> {
  if (!isPropertyId(propertyId)) throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
  for (let attempt = 1; ; attempt++) {
    const [option, property, existing] = await Promise.all([
      getItem(keys.option(propertyId)),
      getItem(keys.property(propertyId)),
      getItem(keys.agentRequest(propertyId, agent.userId)),
    ]);
    if (!option || !property || property.deletingAt) throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
    if (!isListed(option)) throw new ConflictError(AGENT_MESSAGES.optionUnavailable, 'OPTION_UNAVAILABLE');
    const problem = commissionError(num(option.minAgentCommissionPercentage), num(option.agentCommissionPercentage), commissionPercentage);
    if (problem) throw new ValidationError(problem, { commissionPercentage: problem });
    if (existing && existing.status !== 'rejected') {
      throw new ConflictError(AGENT_MESSAGES.exists(agentRequestStatusLabel(String(existing.status))), 'REQUEST_EXISTS');
    }
    if (!existing && (await openRequestCount(propertyId)) >= MAX_OPEN_REQUESTS_PER_OPTION) {
      throw new ConflictError(AGENT_MESSAGES.tooManyOpen, 'TOO_MANY_REQUESTS');
    }

    const profile = await getProfile(agent.userId);
    const at = now.toISOString();
    const snapshot = {
      optionId: String(option.id),
      agentName: profile?.fullName || agent.email,
      agentEmail: profile?.email || agent.email,
      propertyAddress: String(option.propertyAddress ?? property.address ?? ''),
      propertyCity: str(option.propertyCity) ?? str(property.city),
      propertyValue: num(option.propertyValue),
      optionAmount: num(option.optionAmount),
      requestedCommissionPercentage: commissionPercentage,
    };
    let write;
    let item: Item;
    if (!existing) {
      const id = randomUUID();
      item = {
        ...keys.agentRequest(propertyId, agent.userId),
        ...keys.agentRequestIndexes({ id, agentId: agent.userId, propertyId, createdAt: at }),
        ...keys.agentRequestStatusIndex('pending', { agentId: agent.userId, propertyId, createdAt: at }),
        entity: 'agentRequest',
        id,
        propertyId,
        agentId: agent.userId,
        ...snapshot,
        status: 'pending' satisfies AgentRequestStatus,
        createdAt: at,
        updatedAt: at,
      };
      write = { Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
    } else {
      const status = keys.agentRequestStatusIndex('pending', { agentId: agent.userId, propertyId, createdAt: String(existing.createdAt) });
      item = { ...existing, ...snapshot, status: 'pending', updatedAt: at };
      write = {
        Update: {
          TableName: table(),
          Key: keys.agentRequest(propertyId, agent.userId),
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
            ':pct': commissionPercentage,
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
    try {
      await ddb().send(
        new TransactWriteCommand({
          TransactItems: [
            write as never,
            {
              ConditionCheck: {
                TableName: table(),
                Key: keys.option(propertyId),
                ConditionExpression: `attribute_exists(pk) AND ${OPTION_LISTED}`,
                ExpressionAttributeNames: OPTION_LISTED_NAMES,
                ExpressionAttributeValues: OPTION_LISTED_VALUES,
              },
            },
            { ConditionCheck: { TableName: table(), Key: keys.property(propertyId), ConditionExpression: PROPERTY_EDITABLE } },
          ],
        }),
      );
    } catch (err) {
      const reasons = cancellation(err);
      if (!reasons.length) throw err;
      // the request item: another write of the same agent got there first (or is in flight)
      if (reasons[0] === 'ConditionalCheckFailed' || reasons[0] === 'TransactionConflict') {
        throw new ConflictError(AGENT_MESSAGES.duplicate, 'DUPLICATE_REQUEST');
      }
      if (reasons[1] === 'ConditionalCheckFailed') throw new ConflictError(AGENT_MESSAGES.optionUnavailable, 'OPTION_UNAVAILABLE');
      if (reasons[2] === 'ConditionalCheckFailed') throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
      // another agent's transaction on the same option: read again and retry
      if (attempt >= 3) throw new ConflictError();
      await pause(20 * attempt + Math.random() * 30);
      continue;
    }
    logger.info('Agent request saved', { propertyId, agentId: agent.userId, requestId: item.id, outcome: existing ? 'updated' : 'created' });
    return { outcome: existing ? 'updated' : 'created', request: toAgentRequestView(item) };
  }
}

async function openRequestCount(propertyId: string): Promise<number> {
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

// ---- the admin decides -------------------------------------------------------------------

async function deliver(ids: readonly string[], context: Record<string, unknown>): Promise<void> {
  for (const id of ids) {
    try {
      await deliverOutbox(id);
    } catch (err) {
      logger.error('Agent request e-mail not sent now; the scheduled retry will send it', { ...context, outboxId: id, error: err as Error });
    }
  }
}

/** The current status of a request that lost a condition, for the 409's message. */
async function currentStatusLabel(item: Item): Promise<string> {
  const now = await getItem({ pk: String(item.pk), sk: String(item.sk) });
  return agentRequestStatusLabel(String(now?.status ?? item.status));
}

/**
 * POST /admin/agent-requests/{requestId}/approve|reject: only a pending request (condition on
 * the item, else 409 with its current status); ONE transaction writes the new status and the
 * agent's e-mail (approve: the payment link to 'Le Mie Richieste').
 */
export async function decideRequest(requestId: string, decision: 'approve' | 'reject', adminId: string, now = new Date()): Promise<AdminAgentRequest> {
  const item = await requireRequestById(requestId);
  if (item.status !== 'pending') throw new ConflictError(AGENT_MESSAGES.notPending(agentRequestStatusLabel(String(item.status))), 'NOT_PENDING');
  const at = now.toISOString();
  const approve = decision === 'approve';
  const status: AgentRequestStatus = approve ? 'payment_pending' : 'rejected';
  const index = keys.agentRequestStatusIndex('payment_pending', { agentId: String(item.agentId), propertyId: String(item.propertyId), createdAt: String(item.createdAt) });
  const outboxId = `agentreq-${status}-${requestId}-${now.getTime()}`;
  const mail = approve ? approvedMail(mailFacts(item), appUrl()) : rejectedMail(mailFacts(item), appUrl());
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
  ];
  if (approve) {
    // nobody took the option in charge meanwhile
    items.push({
      ConditionCheck: {
        TableName: table(),
        Key: keys.option(String(item.propertyId)),
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(assignedAgentId) OR attribute_type(assignedAgentId, :nullType))',
        ExpressionAttributeValues: { ':nullType': 'NULL' },
      },
    });
  }
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: items as never }));
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new ConflictError(AGENT_MESSAGES.notPending(await currentStatusLabel(item)), 'NOT_PENDING');
    if (approve && isConditionFailure(err, 2)) throw new ConflictError(AGENT_MESSAGES.assignedToOther, 'OPTION_ASSIGNED');
    if (cancellation(err).includes('TransactionConflict')) throw new ConflictError();
    throw err;
  }
  logger.info('Agent request decided', { requestId, decision, by: adminId });
  await deliver([outboxId], { requestId });
  return toAdminAgentRequest({ ...item, status, updatedAt: at, decidedAt: at, decidedBy: adminId, ...(approve ? { approvedAt: at } : { rejectedAt: at }) });
}

// ---- paid --------------------------------------------------------------------------------

export type PaymentOutcome = { outcome: 'paid'; request: AdminAgentRequest; rejected: number } | { outcome: 'already_paid'; request: AdminAgentRequest };

/**
 * A payment received (Stripe webhook: 'carta', the session id as reference; an admin's 'Segna
 * come pagata': 'bonifico', the admin's id). ONE transaction: the request becomes paid (only
 * from payment_pending), the option gets the agent (only if nobody else has it), every other
 * pending or payment_pending request on the option becomes rejected and its agent gets an
 * e-mail (outbox items in the same transaction). A request already paid changes nothing
 * ('already_paid': a webhook delivered twice). A transaction cancelled because another
 * request moved meanwhile is tried again from a fresh read, at most 3 times.
 */
export async function recordPayment(requestId: string, via: PaymentMethod, paymentRef: string, now = new Date()): Promise<PaymentOutcome> {
  for (let attempt = 1; ; attempt++) {
    const target = await requireRequestById(requestId);
    if (target.status === 'paid') return { outcome: 'already_paid', request: toAdminAgentRequest(target) };
    if (target.status !== 'payment_pending') {
      throw new ConflictError(AGENT_MESSAGES.notAwaitingPayment(agentRequestStatusLabel(String(target.status))), 'NOT_AWAITING_PAYMENT');
    }
    const propertyId = String(target.propertyId);
    const agentId = String(target.agentId);
    const others = (await requestsOfOption(propertyId)).filter(
      (r) => r.id !== target.id && (OPEN_AGENT_REQUEST_STATUSES as readonly string[]).includes(String(r.status)),
    );
    const at = now.toISOString();
    const T = table();
    const outboxIds: string[] = [];
    const transact: unknown[] = [
      {
        Update: {
          TableName: T,
          Key: { pk: target.pk, sk: target.sk },
          UpdateExpression: 'SET #status = :paid, paidAt = :at, paidVia = :via, paymentRef = :ref, updatedAt = :at REMOVE gsi2pk, gsi2sk',
          ConditionExpression: '#status = :pp AND id = :id',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':paid': 'paid', ':pp': 'payment_pending', ':id': requestId, ':at': at, ':via': via, ':ref': paymentRef },
        },
      },
      {
        Update: {
          TableName: T,
          Key: keys.option(propertyId),
          UpdateExpression: 'SET assignedAgentId = :agent, assignedAt = :at, updatedAt = :at, gsi3pk = :g3pk, gsi3sk = :g3sk',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(assignedAgentId) OR attribute_type(assignedAgentId, :nullType) OR assignedAgentId = :agent)',
          ExpressionAttributeValues: { ':agent': agentId, ':at': at, ':nullType': 'NULL', ...prefixed(keys.assignedOptionIndex(agentId, at, propertyId)) },
        },
      },
    ];
    for (const other of others) {
      const outboxId = `agentreq-closed-${String(other.id)}-${requestId}`;
      outboxIds.push(outboxId);
      transact.push(
        {
          Update: {
            TableName: T,
            Key: { pk: other.pk, sk: other.sk },
            UpdateExpression: 'SET #status = :rejected, rejectedAt = :at, rejectedReason = :reason, decidedAt = :at, updatedAt = :at REMOVE gsi2pk, gsi2sk',
            ConditionExpression: '#status = :was AND id = :id',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':rejected': 'rejected', ':reason': 'assigned', ':at': at, ':was': other.status, ':id': other.id },
          },
        },
        outboxPut({
          id: outboxId,
          kind: 'agent-request-assigned-to-other',
          ref: String(other.id),
          now: at,
          mail: { to: [String(other.agentEmail)], ...assignedToOtherMail({ ...mailFacts(other), wasApproved: other.status === 'payment_pending' }, appUrl()) },
        }),
      );
    }
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: transact as never }));
    } catch (err) {
      const reasons = cancellation(err);
      if (!reasons.length) throw err;
      if (reasons[1] === 'ConditionalCheckFailed') throw new ConflictError(AGENT_MESSAGES.assignedToOther, 'OPTION_ASSIGNED');
      // the request or another one moved meanwhile (paid by a concurrent delivery, decided...):
      // read again; the first check of the next round answers 'already_paid' or the 409
      if (attempt >= 3) throw new ConflictError();
      await pause(20 * attempt + Math.random() * 30);
      continue;
    }
    logger.info('Agent request paid', { requestId, propertyId, agentId, via, paymentRef, rejected: others.length });
    await deliver(outboxIds, { requestId });
    return {
      outcome: 'paid',
      request: toAdminAgentRequest({ ...target, status: 'paid', paidAt: at, paidVia: via, updatedAt: at }),
      rejected: others.length,
    };
  }
}

function prefixed(index: { gsi3pk: string; gsi3sk: string }) {
  return { ':g3pk': index.gsi3pk, ':g3sk': index.gsi3sk };
}

/** Remembers the Checkout session made for a payment_pending request (spec payment_link_url). */
export async function saveCheckout(item: Item, session: { id: string; url: string }, now = new Date()): Promise<void> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'SET paymentLinkUrl = :url, checkoutSessionId = :sid, checkoutCreatedAt = :at',
        ConditionExpression: '#status = :pp AND id = :id',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':url': session.url, ':sid': session.id, ':at': now.toISOString(), ':pp': 'payment_pending', ':id': item.id },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
