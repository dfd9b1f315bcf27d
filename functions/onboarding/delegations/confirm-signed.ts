import { confirmSignedSchema } from '../../domain/onboarding/schemas';
import { route } from '../../lib/http';
import { confirmSigned } from './delegations';
import { delegationParams } from './schemas';

/**
 * POST /seller/properties/{propertyId}/delegations/{type}/signed: the uploaded signed copy
 * (its bytes checked; a firma digitale verified: content, signatures, certificates, delegator). Owner only.
 */
export const handler = route('confirmDelegationSigned', { body: confirmSignedSchema, params: delegationParams }, async ({ body, params, caller }) =>
  confirmSigned(params.propertyId, caller.userId, params.type, body.key, body.signature),
);
