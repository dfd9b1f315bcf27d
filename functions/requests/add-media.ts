import type { DossierMedia } from '../domain/requests';
import { route } from '../lib/http';
import { addMedia } from '../model/media';
import { addMediaBody, requestParams } from './schemas';

/**
 * POST /admin/properties/{propertyId}/media {roomId, key}: registers an uploaded file in the
 * room (201 with the media and a presigned URL; 200 when that key was already added).
 */
export const handler = route('addRequestMedia', { params: requestParams, body: addMediaBody }, async ({ params, body, caller }): Promise<DossierMedia> => {
  const { media } = await addMedia(params.propertyId, { roomId: body.roomId, key: body.key, userId: caller.userId });
  return media;
}, { successStatus: 201 });
