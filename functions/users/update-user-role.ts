import { route } from '../lib/http';
import { updateRoleBody, userParams } from './schemas';
import { setRole } from '../model/user';

/** PUT /users/{userId}/role {role}: joins or leaves the admin group (the user's older tokens stop counting); nobody changes their own role (409). */
export const handler = route('updateUserRole', { body: updateRoleBody, params: userParams }, async ({ body, params, caller }) =>
  setRole(params.userId, body.role, caller.userId),
);
