import { identityUploadSchema } from '../../domain/identity';
import { kycQuerySchema } from '../../domain/onboarding/kyc';
import type { PresignedUpload } from '../../domain/uploads';
import { route } from '../../lib/http';
import { createCoOwnerIdentityUpload } from './co-owner-identity';

/**
 * POST /seller/kyc/identity/uploads?token={coOwnerToken} {kind, fileName, contentType, size}:
 * a presigned POST for the co-owner's face photo or a side of their document, at
 * `{propertyId}/identity/coowner-{coOwnerId}-{kind}-{timestamp}.{ext}`. Only the invited
 * e-mail with an unexpired token; anything else 404 'Proprietà non trovata o link scaduto'.
 */
export const handler = route(
  'createCoOwnerIdentityUpload',
  { query: kycQuerySchema, body: identityUploadSchema },
  async ({ query, body, caller }): Promise<PresignedUpload> => createCoOwnerIdentityUpload(query.token, caller, body),
);
