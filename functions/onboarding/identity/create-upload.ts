import { identityUploadSchema } from '../../domain/identity';
import type { PresignedUpload } from '../../domain/uploads';
import { route } from '../../lib/http';
import { createIdentityUpload, identityParams } from './identity-check';

/**
 * POST /seller/properties/{propertyId}/identity/uploads {kind, fileName, contentType, size}:
 * a presigned POST (JPEG or PNG, 10 MB at most) for the face photo or a side of the document,
 * at `{propertyId}/identity/{kind}-{timestamp}.{ext}`. Only the property's owner; anyone else
 * gets 404 'Immobile non trovato'.
 */
export const handler = route(
  'createIdentityUpload',
  { params: identityParams, body: identityUploadSchema },
  async ({ params, body, caller }): Promise<PresignedUpload> => createIdentityUpload(params.propertyId, caller.userId, body),
);
