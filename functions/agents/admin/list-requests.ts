import { adminAgentRequestsQuery, type AdminAgentRequestList } from '../../domain/agent-requests';
import { route } from '../../lib/http';
import { listRequestsByStatus } from '../../model/agent-request';

/** GET /admin/agent-requests?status=pending|payment_pending: the agents' requests in that status, newest first. */
export const handler = route('listAgentRequestsAdmin', { query: adminAgentRequestsQuery }, async ({ query }): Promise<AdminAgentRequestList> => ({
  items: await listRequestsByStatus(query.status),
}));
