import { route } from '../lib/http';
import { propertyParams } from './schemas';
import { notifySeller } from './seller-mail';

/** POST /admin/properties/{propertyId}/option/notification: the option e-mail with the onboarding link. */
export const handler = route('notifySeller', { params: propertyParams }, async ({ params }) => notifySeller(params.propertyId));
