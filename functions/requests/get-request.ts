import type { RequestDossier } from '../domain/requests';
import { route } from '../lib/http';
import { getDossier } from '../model/dossier';
import { sourceNames } from '../model/source';
import { requestParams } from './schemas';

/**
 * GET /admin/properties/{propertyId}: the whole dossier (property, rooms with media and
 * presigned URLs, valuations, identity, co-owners, delegations, option, slots, documents)
 * from one Query; 404 'Immobile non trovato' when there is none or it is being deleted.
 * A request stored before the source's name was copied onto it reads the name from the
 * source (null once the source is deleted: 'Fonte eliminata').
 */
export const handler = route('getRequest', { params: requestParams }, async ({ params }): Promise<RequestDossier> => {
  const dossier = await getDossier(params.propertyId);
  const { sourceId, sourceName } = dossier.property;
  if (sourceId && !sourceName) dossier.property.sourceName = (await sourceNames([sourceId])).get(sourceId) ?? null;
  return dossier;
});
