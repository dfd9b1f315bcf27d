import type { AgentRequestList } from '../domain/agent-requests';
import { route } from '../lib/http';
import { listRequestsOfAgent, toAgentRequestView } from '../model/agent-request';

/** GET /agent/requests: the caller's own requests, newest first (Le Mie Richieste). */
export const handler = route('listAgentRequests', {}, async ({ caller }): Promise<AgentRequestList> => ({
  items: (await listRequestsOfAgent(caller.userId)).map(toAgentRequestView),
}));
