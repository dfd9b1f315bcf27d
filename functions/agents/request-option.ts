import { createAgentRequestSchema } from '../domain/agent-requests';
import { route } from '../lib/http';
import { requestOption } from './requests';
import { optionParams } from './schemas';

/** POST /agent/options/{propertyId}/requests {commissionPercentage}: a new request (201) or a rejected one asked again. */
export const handler = route(
  'requestAgentOption',
  { body: createAgentRequestSchema, params: optionParams },
  async ({ caller, body, params }) => {
    const me = caller;
    return requestOption({ userId: me.userId, email: me.email }, params.propertyId, body.commissionPercentage);
  },
  { successStatus: 201 },
);
