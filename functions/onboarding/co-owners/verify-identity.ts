import { verifyIdentitySchema, type IdentityCheckResult } from '../../domain/identity';
import { kycQuerySchema } from '../../domain/onboarding/kyc';
import { route } from '../../lib/http';
import { verifyCoOwnerIdentity } from './co-owner-identity';

/**
 * POST /seller/kyc/identity?token={coOwnerToken} {documentType, documentNumber, fullName?,
 * faceKey, documentFrontKey, documentBackKey?}: the co-owner's identity check, answered as
 * {valid, reason, confidence}; a valid one sets the co-owner's verifiedAt ('Verificato').
 */
export const handler = route(
  'verifyCoOwnerIdentity',
  { query: kycQuerySchema, body: verifyIdentitySchema },
  async ({ query, body, caller }): Promise<IdentityCheckResult> => verifyCoOwnerIdentity(query.token, caller, body),
);
