import { route } from '../../lib/http';
import { actorOf } from '../../lib/auth';
import { decideRequest } from './decide-request';
import { requestParams } from '../schemas';

/** POST /admin/agent-requests/{requestId}/reject: pending -> rejected, the agent gets an e-mail. */
export const handler = route('rejectAgentRequest', { params: requestParams }, async ({ caller, params }) =>
  decideRequest(params.requestId, 'reject', actorOf(caller, 'admin')),
);
