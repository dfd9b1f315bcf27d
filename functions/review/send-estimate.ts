import { route } from '../lib/http';
import { sendEstimate } from './estimate';
import { propertyParams } from './schemas';

/** POST /admin/properties/{propertyId}/estimate-email: the estimate e-mail with a fresh registration link. */
export const handler = route('sendEstimate', { params: propertyParams }, async ({ params }) => sendEstimate(params.propertyId));
