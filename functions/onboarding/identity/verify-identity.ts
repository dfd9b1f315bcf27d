import { verifyIdentitySchema, type IdentityCheckResult } from '../../domain/identity';
import { route } from '../../lib/http';
import { identityParams, verifyIdentity } from './identity-check';

/**
 * POST /seller/properties/{propertyId}/identity {documentType, documentNumber, fullName?,
 * faceKey, documentFrontKey, documentBackKey?}: compares the face photo with the document's
 * front and answers {valid, reason, confidence}; the outcome is stored on the dossier.
 */
export const handler = route(
  'verifyIdentity',
  { params: identityParams, body: verifyIdentitySchema },
  async ({ params, body, caller }): Promise<IdentityCheckResult> => verifyIdentity(params.propertyId, caller.userId, body),
);
