import type { IdentityRecord } from '../../domain/identity';
import { route } from '../../lib/http';
import { getIdentity, identityParams } from './identity-check';

/** GET /seller/properties/{propertyId}/identity: the caller's own identity check (keys, no URLs), or null. */
export const handler = route(
  'getIdentity',
  { params: identityParams },
  async ({ params, caller }): Promise<{ identity: IdentityRecord | null }> => getIdentity(params.propertyId, caller.userId),
);
