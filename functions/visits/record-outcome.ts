import { visitOutcomeSchema, visitParams, type Visit } from '../domain/visits';
import { route } from '../lib/http';
import { agentOf } from './agent';
import { recordVisitOutcome } from './visits';

/** POST /agent/options/{propertyId}/visits/{visitId}/outcome {interest, note}: after the visit started, once. */
export const handler = route('recordVisitOutcome', { params: visitParams, body: visitOutcomeSchema }, async ({ params, body, caller }): Promise<Visit> =>
  recordVisitOutcome(params.propertyId, params.visitId, await agentOf(caller), body),
);
