import { bookVisitSchema, visitParams, type Visit } from '../domain/visits';
import { route } from '../lib/http';
import { agentOf } from './agent';
import { moveVisitAsAgent } from './visits';

/** PUT /agent/options/{propertyId}/visits/{visitId} {slotId}: the visit moved to another free slot, before the cut-off. */
export const handler = route('moveVisit', { params: visitParams, body: bookVisitSchema }, async ({ params, body, caller }): Promise<Visit> =>
  moveVisitAsAgent(params.propertyId, params.visitId, await agentOf(caller), body.slotId),
);
