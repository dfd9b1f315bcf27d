import { route } from '../lib/http';
import { getOwnAvailability } from './availability';
import { propertyParams } from '../model/property';

/** GET /seller/properties/{propertyId}/availability: the caller's property, while its option runs without keys. */
export const handler = route('getOwnAvailability', { params: propertyParams }, async ({ params, caller }) => getOwnAvailability(params.propertyId, caller));
