import { replaceCoOwnersSchema } from '../../domain/onboarding/schemas';
import { route } from '../../lib/http';
import { replaceCoOwners } from './co-owners';
import { propertyParams } from '../../model/owned-property';

/** PUT /seller/properties/{propertyId}/co-owners: the seller's share and the co-owner list (shares total 100). Owner only. */
export const handler = route('replaceCoOwners', { body: replaceCoOwnersSchema, params: propertyParams }, async ({ body, params, caller }) =>
  replaceCoOwners(params.propertyId, caller, body),
);
