import { route } from '../lib/http';
import { agentDecisionBody, userParams } from './schemas';
import { decideAgent } from '../model/user';

/** POST /users/{userId}/agent-approval {decision}: approve (agent group) or reject a pending agent; e-mails the agent. */
export const handler = route('decideAgent', { body: agentDecisionBody, params: userParams }, async ({ body, params, caller }) =>
  decideAgent(params.userId, body.decision, caller.userId),
);
