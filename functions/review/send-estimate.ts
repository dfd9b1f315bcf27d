import { route } from '../lib/http';
import { actorOf } from '../lib/auth';
import { sendEstimate } from './estimate';
import { propertyParams } from './schemas';

/** POST /admin/properties/{propertyId}/estimate-email: the estimate e-mail with a fresh registration link. */
export const handler = route('sendEstimate', { params: propertyParams }, async ({ params, caller }) => sendEstimate(params.propertyId, actorOf(caller, 'admin')));
