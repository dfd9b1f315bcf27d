import { route } from '../lib/http';
import { deleteMedia } from '../model/media';
import { mediaParams } from './schemas';

/** DELETE /admin/properties/{propertyId}/rooms/{roomId}/media/{mediaId}: 204, or 404. */
export const handler = route('deleteRequestMedia', { params: mediaParams }, async ({ params }) => {
  await deleteMedia(params.propertyId, params.roomId, params.mediaId);
});
