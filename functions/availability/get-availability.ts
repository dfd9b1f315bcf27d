import { route } from '../lib/http';
import { getAvailabilityByLink } from './availability';
import { tokenParams } from './schemas';

/** GET /seller/availability/{token}: the e-mail's link (first arrival): the property, minimum per month, saved slots and month quotas. */
export const handler = route('getAvailability', { params: tokenParams }, async ({ params, caller }) => getAvailabilityByLink(params.token, caller));
