import { generateDelegationsSchema } from '../../domain/onboarding/schemas';
import { route } from '../../lib/http';
import { generateDelegations } from './generate';
import { propertyParams } from './schemas';

/** PUT /seller/properties/{propertyId}/delegations ('Genera Deleghe'): upsert the selected types, remove the others. Owner only. */
export const handler = route('generateDelegations', { body: generateDelegationsSchema, params: propertyParams }, async ({ body, params, caller }) =>
  generateDelegations(params.propertyId, caller.userId, body),
);
