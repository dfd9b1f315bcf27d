/**
 * The admin decides an agent's pending request: the use case of
 * POST /admin/agent-requests/{requestId}/approve|reject. The transaction is
 * model/agent-request.ts decideAgentRequest.
 */
import { config } from '../../lib/config';
import { ConflictError } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { currentStatus, decideAgentRequest, requireRequestById, toRequestMailFacts } from '../../model/agent-request';
import { AGENT_MESSAGES, agentRequestStatusLabel, type AdminAgentRequest } from '../../domain/agent-requests';
import { approvedMail, rejectedMail } from '../../domain/agent-mail';
import { deliverRequestMails } from '../request-mails';
import type { Actor } from '../../domain/activity';
import { readOption } from '../../model/option';
import { str } from '../../model/item';

/**
 * Only a pending request (condition on the item, else 409 with its current status); ONE
 * transaction writes the new status and the agent's e-mail (approve: the payment link to
 * 'Le Mie Richieste'; approving an option another agent has taken meanwhile is a 409).
 */
export async function decideRequest(requestId: string, decision: 'approve' | 'reject', actor: Actor, now = new Date()): Promise<AdminAgentRequest> {
  const adminId = actor.id;
  const item = await requireRequestById(requestId);
  if (item.status !== 'pending') throw new ConflictError(AGENT_MESSAGES.notPending(agentRequestStatusLabel(String(item.status))), 'NOT_PENDING');
  const approve = decision === 'approve';
  const status = approve ? 'payment_pending' : 'rejected';
  const outboxId = `agentreq-${status}-${requestId}-${now.getTime()}`;
  const facts = toRequestMailFacts(item);
  const mail = approve ? approvedMail(facts, config().APP_URL) : rejectedMail(facts, config().APP_URL);
  const result = await decideAgentRequest(item, { decision, actor, at: now.toISOString(), outboxId, mail });
  switch (result.outcome) {
    case 'not_pending':
      throw new ConflictError(AGENT_MESSAGES.notPending(agentRequestStatusLabel(await currentStatus(item))), 'NOT_PENDING');
    case 'option_assigned': {
      // another agent has it, or the option is no longer offered (withdrawn, cancelled, expired)
      const option = await readOption(String(item.propertyId));
      if (option && str(option.assignedAgentId)) throw new ConflictError(AGENT_MESSAGES.assignedToOther, 'OPTION_ASSIGNED');
      throw new ConflictError(AGENT_MESSAGES.optionUnavailable, 'OPTION_UNAVAILABLE');
    }
    case 'conflict':
      throw new ConflictError();
  }
  logger.info('Agent request decided', { requestId, decision, by: adminId });
  await deliverRequestMails([outboxId], { requestId });
  return result.request;
}
