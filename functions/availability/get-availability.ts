import { route } from '../lib/http';
import { getAvailability } from './availability';
import { tokenParams } from './schemas';

/** GET /seller/availability/{token}: address, minimum per month, saved slots and month quotas. */
export const handler = route('getAvailability', { params: tokenParams }, async ({ params, caller }) => getAvailability(params.token, caller));
