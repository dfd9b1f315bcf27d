import { createValuationSchema } from '../domain/review/schemas';
import { route } from '../lib/http';
import { propertyParams } from './schemas';
import { valuateProperty } from './valuate-property';

/** POST /admin/properties/{propertyId}/valuations: a new valuation (history kept), 201 with it. */
export const handler = route(
  'createValuation',
  { body: createValuationSchema, params: propertyParams },
  async ({ body, params, caller }) => {
    const me = caller;
    return valuateProperty({ propertyId: params.propertyId, body, admin: { userId: me.userId, email: me.email } });
  },
  { successStatus: 201 },
);
