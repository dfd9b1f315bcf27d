import { route } from '../../lib/http';
import { skipCoOwners } from './co-owners';
import { propertyParams } from '../../model/owned-property';

/** POST /seller/properties/{propertyId}/co-owners/skip: 'Salta (Proprietà Singola)'. Owner only. */
export const handler = route('skipCoOwners', { params: propertyParams }, async ({ params, caller }) => skipCoOwners(params.propertyId, caller.userId));
