import type { AgentOptionList } from '../domain/agent-requests';
import { route } from '../lib/http';
import { listAssignedOptions } from './marketplace';

/** GET /agent/options/assigned: the options in the caller's charge (Opzioni in Carico). */
export const handler = route('listAgentAssignedOptions', {}, async ({ caller }): Promise<AgentOptionList> => ({
  items: await listAssignedOptions(caller.userId),
}));
