import { route } from '../../lib/http';
import { delegationDocumentUrl } from './delegations';
import { delegationParams } from './schemas';

/** GET /seller/properties/{propertyId}/delegations/{type}/document: presigned GET of the generated PDF. Owner only. */
export const handler = route('getDelegationDocument', { params: delegationParams }, async ({ params, caller }) =>
  delegationDocumentUrl(params.propertyId, caller.userId, params.type),
);
