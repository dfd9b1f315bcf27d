import { route } from '../lib/http';
import { actorOf } from '../lib/auth';
import { propertyParams } from './schemas';
import { notifySeller } from './seller-mail';

/** POST /admin/properties/{propertyId}/option/notification: the option e-mail with the onboarding link. */
export const handler = route('notifySeller', { params: propertyParams }, async ({ params, caller }) => notifySeller(params.propertyId, actorOf(caller, 'admin')));
