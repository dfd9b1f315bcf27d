import { route } from '../lib/http';
import { saveAvailability } from './availability';
import { propertyParams } from '../model/property';
import { saveBody } from './schemas';

/** PUT /seller/properties/{propertyId}/availability: replaces the free slots of the named days; answers the new state. */
export const handler = route('saveAvailability', { params: propertyParams, body: saveBody }, async ({ params, body, caller }) =>
  saveAvailability(params.propertyId, caller, body.days),
);
