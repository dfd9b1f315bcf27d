import type { RequestDossier } from '../domain/requests';
import { route } from '../lib/http';
import { getDossier } from '../model/dossier';
import { requestParams } from './schemas';

/**
 * GET /admin/properties/{propertyId}: the whole dossier (property, rooms with media and
 * presigned URLs, valuations, identity, co-owners, delegations, option, slots, documents)
 * from one Query; 404 'Immobile non trovato' when there is none or it is being deleted.
 */
export const handler = route('getRequest', { params: requestParams }, async ({ params }): Promise<RequestDossier> => getDossier(params.propertyId));
