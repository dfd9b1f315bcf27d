import { AGENT_MESSAGES, type AdminAgentRequest } from '../../domain/agent-requests';
import { ConflictError } from '../../lib/errors';
import { route } from '../../lib/http';
import { actorOf } from '../../lib/auth';
import { recordPayment } from '../payments';
import { requestParams } from '../schemas';

/**
 * POST /admin/agent-requests/{requestId}/paid: the bank transfer arrived ('Segna come pagata'):
 * the request becomes paid and the option the agent's, in one transaction with the others' rejection.
 */
export const handler = route('markAgentRequestPaid', { params: requestParams }, async ({ caller, params }): Promise<AdminAgentRequest> => {
  const result = await recordPayment(params.requestId, 'bonifico', `admin:${caller.userId}`, actorOf(caller, 'admin'));
  if (result.outcome === 'already_paid') throw new ConflictError(AGENT_MESSAGES.notAwaitingPayment('Pagata'), 'NOT_AWAITING_PAYMENT');
  return result.request;
});
