import { route } from '../lib/http';
import { optionMedia } from './marketplace';
import { optionParams } from './schemas';

/** GET /agent/options/{propertyId}/media: photos and videos by room, only of an option listed to agents or in the caller's charge. */
export const handler = route('getAgentOptionMedia', { params: optionParams }, async ({ caller, params }) =>
  optionMedia(caller.userId, params.propertyId),
);
