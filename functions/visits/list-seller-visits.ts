import { dealParams, type SellerVisits } from '../domain/visits';
import { route } from '../lib/http';
import { sellerVisits } from './visits';

/** GET /seller/properties/{propertyId}/visits: the visits of the caller's property. */
export const handler = route('listSellerVisits', { params: dealParams }, async ({ params, caller }): Promise<SellerVisits> => sellerVisits(params.propertyId, caller.userId));
