import { route } from '../lib/http';
import { propertyParams } from './schemas';
import { sendAvailabilityLink } from './seller-mail';

/** POST /admin/properties/{propertyId}/option/availability-link: only for a signed option without keys. */
export const handler = route('sendAvailabilityLink', { params: propertyParams }, async ({ params }) => sendAvailabilityLink(params.propertyId));
