import { signedUploadSchema } from '../../domain/onboarding/schemas';
import { route } from '../../lib/http';
import { createSignedUpload } from './delegations';
import { delegationParams } from './schemas';

/** POST /seller/properties/{propertyId}/delegations/{type}/uploads: presigned POST of the signed copy. Owner only. */
export const handler = route('createDelegationUpload', { body: signedUploadSchema, params: delegationParams }, async ({ body, params, caller }) =>
  createSignedUpload(params.propertyId, caller.userId, params.type, body),
);
