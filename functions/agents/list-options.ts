import type { AgentOptionList } from '../domain/agent-requests';
import { route } from '../lib/http';
import { listAvailableOptions } from './marketplace';

/** GET /agent/options: the options listed to agents (pending, no agent), newest first, with the caller's own request on each. */
export const handler = route('listAgentOptions', {}, async ({ caller }): Promise<AgentOptionList> => ({
  items: await listAvailableOptions(caller.userId),
}));
