import { requireCaller, route } from '../lib/http';
import { decideRequest } from '../agents/agent-request-store';
import { requestParams } from '../agents/schemas';

/** POST /admin/agent-requests/{requestId}/reject: pending -> rejected, the agent gets an e-mail. */
export const handler = route('rejectAgentRequest', { params: requestParams }, async ({ caller, params }) =>
  decideRequest(params.requestId, 'reject', requireCaller(caller).userId),
);
