import { route } from '../lib/http';
import { saveAvailability } from './availability';
import { saveBody, tokenParams } from './schemas';

/** PUT /seller/availability/{token}: replaces the free slots of the named days; answers the new state. */
export const handler = route('saveAvailability', { params: tokenParams, body: saveBody }, async ({ params, body, caller }) =>
  saveAvailability(params.token, caller, body.days),
);
