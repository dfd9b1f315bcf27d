import { visitParams, type Visit } from '../domain/visits';
import { route } from '../lib/http';
import { agentOf } from './agent';
import { cancelVisitAsAgent } from './visits';

/** DELETE /agent/options/{propertyId}/visits/{visitId}: cancelled before the cut-off; the slot is free again. */
export const handler = route('cancelVisit', { params: visitParams }, async ({ params, caller }): Promise<Visit> => cancelVisitAsAgent(params.propertyId, params.visitId, await agentOf(caller)));
