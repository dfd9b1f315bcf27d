import { route } from '../../lib/http';
import { actorOf } from '../../lib/auth';
import { decideRequest } from './decide-request';
import { requestParams } from '../schemas';

/** POST /admin/agent-requests/{requestId}/approve: pending -> payment_pending, the agent gets the payment link by e-mail. */
export const handler = route('approveAgentRequest', { params: requestParams }, async ({ caller, params }) =>
  decideRequest(params.requestId, 'approve', actorOf(caller, 'admin')),
);
