/**
 * A payment received for an agent's request: the use case shared by Stripe's webhook
 * (agent-payment.ts, 'carta') and the admin's 'Segna come pagata' (admin/mark-request-paid.ts,
 * 'bonifico'). The transaction is model/agent-payment.ts markRequestPaid.
 */
import { config } from '../lib/config';
import { ConflictError } from '../lib/errors';
import { logger } from '../lib/logger';
import { isListed, requireRequestById, requestsOfOption, requestsVersionOf, toAdminAgentRequest, toRequestMailFacts } from '../model/agent-request';
import { markRequestPaid } from '../model/agent-payment';
import { readOption } from '../model/option';
import { str } from '../model/item';
import type { Actor } from '../domain/activity';
import { AGENT_MESSAGES, OPEN_AGENT_REQUEST_STATUSES, agentRequestStatusLabel, type AdminAgentRequest, type PaymentMethod } from '../domain/agent-requests';
import { assignedToOtherMail } from '../domain/agent-mail';
import { todayInRome } from '../domain/availability';
import { deliverRequestMails } from './request-mails';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type PaymentOutcome = { outcome: 'paid'; request: AdminAgentRequest; rejected: number } | { outcome: 'already_paid'; request: AdminAgentRequest };

/**
 * A payment received (Stripe webhook: 'carta', the session id as reference; an admin's 'Segna
 * come pagata': 'bonifico', the admin's id). ONE transaction: the request becomes paid (only
 * from payment_pending), the option gets the agent (only if nobody else has it), every other
 * pending or payment_pending request on the option becomes rejected and its agent gets an
 * e-mail (outbox items in the same transaction). A request already paid changes nothing
 * ('already_paid': a webhook delivered twice). A transaction cancelled because another
 * request moved or was saved on the option meanwhile is tried again from a fresh read, at
 * most 5 times.
 */
export async function recordPayment(requestId: string, via: PaymentMethod, paymentRef: string, actor: Actor, now = new Date()): Promise<PaymentOutcome> {
  for (let attempt = 1; ; attempt++) {
    const target = await requireRequestById(requestId);
    if (target.status === 'paid') return { outcome: 'already_paid', request: toAdminAgentRequest(target) };
    if (target.status !== 'payment_pending') {
      throw new ConflictError(AGENT_MESSAGES.notAwaitingPayment(agentRequestStatusLabel(String(target.status))), 'NOT_AWAITING_PAYMENT');
    }
    const propertyId = String(target.propertyId);
    const agentId = String(target.agentId);
    // the option's requests version before the requests: one saved after this read moves it
    const optionBefore = await readOption(propertyId);
    const others = (await requestsOfOption(propertyId)).filter(
      (r) => r.id !== target.id && (OPEN_AGENT_REQUEST_STATUSES as readonly string[]).includes(String(r.status)),
    );
    const closing = others.map((other) => ({
      request: other,
      outboxId: `agentreq-closed-${String(other.id)}-${requestId}`,
      mail: assignedToOtherMail({ ...toRequestMailFacts(other), wasApproved: other.status === 'payment_pending' }, config().APP_URL),
    }));
    const requestsVersion = optionBefore ? requestsVersionOf(optionBefore) : 0;
    const result = await markRequestPaid({ target, via, paymentRef, at: now.toISOString(), closing, requestsVersion, actor });
    if (result.outcome === 'option_moved') {
      // another agent has it, the option is no longer offered (withdrawn, cancelled, expired),
      // or a request was saved on it meanwhile (it must be closed too: read again)
      const option = await readOption(propertyId);
      if (option && str(option.assignedAgentId) && option.assignedAgentId !== agentId) throw new ConflictError(AGENT_MESSAGES.assignedToOther, 'OPTION_ASSIGNED');
      if (!option || !isListed(option, todayInRome(now)) || requestsVersionOf(option) === requestsVersion) throw new ConflictError(AGENT_MESSAGES.optionUnavailable, 'OPTION_UNAVAILABLE');
    }
    if (result.outcome === 'option_moved' || result.outcome === 'moved') {
      // the first check of the next round answers 'already_paid' or the 409
      if (attempt >= 5) throw new ConflictError();
      await pause(20 * attempt + Math.random() * 30);
      continue;
    }
    logger.info('Agent request paid', { requestId, propertyId, agentId, via, paymentRef, rejected: others.length });
    await deliverRequestMails(
      closing.map((c) => c.outboxId),
      { requestId },
    );
    return { outcome: 'paid', request: result.request, rejected: others.length };
  }
}
