/**
 * The payment of an agent's request (model/agent-request.ts holds the request itself): the
 * Checkout session remembered on a request awaiting payment, and the transaction that makes
 * a request paid, gives the option to its agent and closes every other open request on it.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './db';
import { keys } from './keys';
import { cancellationReasons, closeRequestWrites, optionListed, requestsVersionIs, toAdminAgentRequest, type AgentMail, type Item } from './agent-request';
import type { AdminAgentRequest, PaymentMethod } from '../domain/agent-requests';
import type { Actor } from '../domain/activity';
import { todayInRome } from '../domain/availability';
import { requestActivity } from './activity';
import { str } from './item';

export type MarkPaidOutcome =
  | { outcome: 'paid'; request: AdminAgentRequest }
  /** the option is no longer offered (another agent has it, withdrawn...), or a request was saved on it since `requestsVersion` */
  | { outcome: 'option_moved' }
  /** the request or another one moved meanwhile (paid by a concurrent delivery, decided...): read again */
  | { outcome: 'moved' };

/**
 * ONE transaction: the request becomes paid (only from payment_pending), the option gets the
 * agent (only if nobody else has it, and only at `requestsVersion`, the option's requests
 * version read before listing `closing`), every request in `closing` becomes rejected (only
 * from the status it was read in) with its agent's e-mail (outbox item `outboxId`).
 */
export async function markRequestPaid(input: {
  target: Item;
  via: PaymentMethod;
  paymentRef: string;
  at: string;
  closing: readonly { request: Item; outboxId: string; mail: AgentMail }[];
  requestsVersion: number;
  /** who recorded the payment: the admin (bonifico) or the system (Stripe's webhook) */
  actor: Actor;
}): Promise<MarkPaidOutcome> {
  const { target, via, paymentRef, at, closing, actor } = input;
  const version = requestsVersionIs(input.requestsVersion);
  // published and nobody's, not past its expiry day: until the daily job expires it, an expired option is not assigned
  const listed = optionListed(todayInRome(new Date(at)));
  const requestId = String(target.id);
  const propertyId = String(target.propertyId);
  const agentId = String(target.agentId);
  const T = table();
  const assigned = keys.assignedOptionIndex(agentId, at, propertyId);
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
        // published -> assigned (domain/option-lifecycle): only an option still offered to agents
        UpdateExpression: 'SET assignedAgentId = :agent, assignedAt = :at, updatedAt = :at, gsi3pk = :g3pk, gsi3sk = :g3sk, #optStatus = :assigned',
        ConditionExpression: `attribute_exists(pk) AND ${listed.expression} AND ${version.expression}`,
        ExpressionAttributeNames: listed.names,
        ExpressionAttributeValues: { ':agent': agentId, ':at': at, ':g3pk': assigned.gsi3pk, ':g3sk': assigned.gsi3sk, ':assigned': 'assigned', ...listed.values, ...version.values },
      },
    },
    {
      Update: {
        TableName: T,
        Key: keys.property(propertyId),
        UpdateExpression: 'SET optionState = :assigned, updatedAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':assigned': 'assigned', ':at': at },
      },
    },
    requestActivity(propertyId, 'payment.paid', actor, at, {
      propertyLabel: str(target.propertyAddress),
      userId: agentId,
      before: 'payment_pending',
      after: 'paid',
      note: `${via === 'bonifico' ? 'Bonifico' : 'Carta'}: ${String(target.agentName ?? target.agentEmail ?? '')}`,
    }),
    requestActivity(propertyId, 'option.assign', actor, at, {
      propertyLabel: str(target.propertyAddress),
      userId: agentId,
      before: 'published',
      after: 'assigned',
      note: String(target.agentName ?? target.agentEmail ?? ''),
    }),
  ];
  for (const { request: other, outboxId, mail } of closing) {
    transact.push(...closeRequestWrites(other, { reason: 'assigned', at, outboxId, kind: 'agent-request-assigned-to-other', mail }));
  }
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: transact as never }));
  } catch (err) {
    const reasons = cancellationReasons(err);
    if (!reasons.length) throw err;
    if (reasons[1] === 'ConditionalCheckFailed') return { outcome: 'option_moved' };
    return { outcome: 'moved' };
  }
  return { outcome: 'paid', request: toAdminAgentRequest({ ...target, status: 'paid', paidAt: at, paidVia: via, updatedAt: at }) };
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
