import { declineVisitSchema, visitParams, type Visit } from '../domain/visits';
import { route } from '../lib/http';
import { declineVisit } from './visits';

/** POST /seller/properties/{propertyId}/visits/{visitId}/decline {reason}: the seller declines a booked visit before it starts. */
export const handler = route('declineVisit', { params: visitParams, body: declineVisitSchema }, async ({ params, body, caller }): Promise<Visit> =>
  declineVisit(params.propertyId, params.visitId, caller.userId, body.reason),
);
