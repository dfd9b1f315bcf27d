import type { PresignedUpload } from '../domain/uploads';
import { route } from '../lib/http';
import { createMediaUpload } from '../model/media';
import { mediaUploadBody, requestParams } from './schemas';

/**
 * POST /admin/properties/{propertyId}/uploads {roomId, fileName, contentType, size}: a
 * presigned POST for a photo or video (20 MB at most) of one of the property's rooms.
 */
export const handler = route(
  'createRequestUpload',
  { params: requestParams, body: mediaUploadBody },
  async ({ params, body }): Promise<PresignedUpload> => createMediaUpload(params.propertyId, body),
);
