import { route } from '../lib/http';
import { deleteRequest } from '../model/request';
import { deleteBody, requestParams } from './schemas';

/**
 * DELETE /admin/properties/{propertyId} {confirm: 'elimina'}: the request with its whole
 * dossier and files (204); 400 without the word, 404 when there is nothing to delete.
 */
export const handler = route('deleteRequest', { params: requestParams, body: deleteBody }, async ({ params, body }) => {
  await deleteRequest(params.propertyId, body.confirm);
});
