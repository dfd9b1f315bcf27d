import { route } from '../lib/http';
import { createSourceBody } from './schemas';
import { createSource } from '../model/source';

/** POST /sources {name}: a new lead source created by the calling admin (201). */
export const handler = route(
  'createSource',
  { body: createSourceBody },
  async ({ body, caller }) => createSource({ name: body.name, userId: caller.userId }),
  { successStatus: 201 },
);
