import { route } from '../lib/http';
import { assignRequest } from '../model/request';
import { assignBody, requestParams } from './schemas';

/**
 * PUT /admin/properties/{propertyId}/assignee {userId}: assigns the request to an existing
 * user (assignedUserId and userId); 400 'Seleziona un utente da assegnare' without one.
 */
export const handler = route('assignRequest', { params: requestParams, body: assignBody }, async ({ params, body }) =>
  assignRequest(params.propertyId, body.userId),
);
