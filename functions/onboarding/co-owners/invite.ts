import { route } from '../../lib/http';
import { inviteCoOwners } from './co-owners';
import { propertyParams } from '../../model/owned-property';

/** POST /seller/properties/{propertyId}/co-owners/invitations: e-mails each co-owner not yet invited. Owner only. */
export const handler = route('inviteCoOwners', { params: propertyParams }, async ({ params, caller }) => inviteCoOwners(params.propertyId, caller.userId));
