import { route } from '../lib/http';
import { updateUserBody, userParams } from './schemas';
import { updateUser } from '../model/user';

/** PATCH /users/{userId}: name, e-mail (also the login's), user type, company fields (empty -> null). 404 / 409 in Italian. */
export const handler = route('updateUser', { body: updateUserBody, params: userParams }, async ({ body, params }) =>
  updateUser(params.userId, body),
);
