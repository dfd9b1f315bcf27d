import { createOptionSchema } from '../domain/review/schemas';
import { route } from '../lib/http';
import { actorOf } from '../lib/auth';
import { createOption } from './option';
import { propertyParams } from './schemas';

/** POST /admin/properties/{propertyId}/option: the purchase option and its PDF (201), once per property. */
export const handler = route(
  'createOption',
  { body: createOptionSchema, params: propertyParams },
  async ({ body, params, caller }) => createOption(params.propertyId, body, actorOf(caller, 'admin')),
  { successStatus: 201 },
);
