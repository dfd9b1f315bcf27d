import { bookVisitSchema, dealParams, type Visit } from '../domain/visits';
import { route } from '../lib/http';
import { agentOf } from './agent';
import { bookVisitAsAgent } from './visits';

/** POST /agent/options/{propertyId}/visits {slotId}: 201 with the visit; 409 when the slot was taken. */
export const handler = route(
  'bookVisit',
  { params: dealParams, body: bookVisitSchema },
  async ({ params, body, caller }): Promise<Visit> => bookVisitAsAgent(params.propertyId, await agentOf(caller), body.slotId),
  { successStatus: 201 },
);
