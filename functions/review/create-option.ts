import { createOptionSchema } from '../domain/review/schemas';
import { route } from '../lib/http';
import { createOption } from './option';
import { propertyParams } from './schemas';

/** POST /admin/properties/{propertyId}/option: the purchase option and its PDF (201), once per property. */
export const handler = route(
  'createOption',
  { body: createOptionSchema, params: propertyParams },
  async ({ body, params }) => createOption(params.propertyId, body),
  { successStatus: 201 },
);
