import type { SellerPropertyList } from '../domain/seller';
import { route } from '../lib/http';
import { listOwnProperties } from '../model/seller';

/** GET /seller/properties: the caller's own properties, newest first, with identity state and option summary. */
export const handler = route('listSellerProperties', {}, async ({ caller }): Promise<SellerPropertyList> => {
  return listOwnProperties(caller.userId);
});
