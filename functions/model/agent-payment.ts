/**
 * The payment of an agent's request (model/agent-request.ts holds the request itself): the
 * Checkout session remembered on a request awaiting payment, and the transaction that makes
 * a request paid, gives the option to its agent and closes every other open request on it.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './db';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { cancellationReasons, toAdminAgentRequest, type AgentMail, type Item } from './agent-request';
import type { AdminAgentRequest, PaymentMethod } from '../domain/agent-requests';

export type MarkPaidOutcome =
  | { outcome: 'paid'; request: AdminAgentRequest }
  /** another agent has the option */
  | { outcome: 'option_assigned' }
  /** the request or another one moved meanwhile (paid by a concurrent delivery, decided...): read again */
  | { outcome: 'moved' };

/**
 * ONE transaction: the request becomes paid (only from payment_pending), the option gets the
 * agent (only if nobody else has it), every request in `closing` becomes rejected (only from
 * the status it was read in) with its agent's e-mail (outbox item `outboxId`).
 */
export async function markRequestPaid(input: {
  target: Item;
  via: PaymentMethod;
  paymentRef: string;
  at: string;
  closing: readonly { request: Item; outboxId: string; mail: AgentMail }[];
}): Promise<MarkPaidOutcome> {
  const { target, via, paymentRef, at, closing } = input;
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
        UpdateExpression: 'SET assignedAgentId = :agent, assignedAt = :at, updatedAt = :at, gsi3pk = :g3pk, gsi3sk = :g3sk',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(assignedAgentId) OR attribute_type(assignedAgentId, :nullType) OR assignedAgentId = :agent)',
        ExpressionAttributeValues: { ':agent': agentId, ':at': at, ':nullType': 'NULL', ':g3pk': assigned.gsi3pk, ':g3sk': assigned.gsi3sk },
      },
    },
  ];
  for (const { request: other, outboxId, mail } of closing) {
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
      outboxPut({ id: outboxId, kind: 'agent-request-assigned-to-other', ref: String(other.id), now: at, mail: { to: [String(other.agentEmail)], ...mail } }),
    );
  }
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: transact as never }));
  } catch (err) {
    const reasons = cancellationReasons(err);
    if (!reasons.length) throw err;
    if (reasons[1] === 'ConditionalCheckFailed') return { outcome: 'option_assigned' };
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
