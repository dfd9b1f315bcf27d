import * as z from 'zod';
import { AGENT_MESSAGES } from '../domain/agent-requests';

/** Path parameters of the agent and agent-request routes; an unknown id is a 404 for the use case. */
export const optionParams = z.object({
  propertyId: z.string({ error: AGENT_MESSAGES.optionNotFound }).min(1, AGENT_MESSAGES.optionNotFound).max(100, AGENT_MESSAGES.optionNotFound),
});

export const requestParams = z.object({
  requestId: z.string({ error: AGENT_MESSAGES.requestNotFound }).min(1, AGENT_MESSAGES.requestNotFound).max(100, AGENT_MESSAGES.requestNotFound),
});
