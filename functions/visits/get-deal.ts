import { dealParams, type AgentDeal } from '../domain/visits';
import { route } from '../lib/http';
import { agentDeal } from './visits';

/** GET /agent/options/{propertyId}/deal: the option in the caller's charge: seller contact, price, keys, free slots, visits. */
export const handler = route('getAgentDeal', { params: dealParams }, async ({ params, caller }): Promise<AgentDeal> => agentDeal(params.propertyId, caller.userId));
