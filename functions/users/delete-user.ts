import { route } from '../lib/http';
import { userParams } from './schemas';
import { deleteUser } from '../model/user';

/** DELETE /users/{userId}: 204; profile, groups and login removed, their requests unlinked. Not oneself (409). */
export const handler = route('deleteUser', { params: userParams }, async ({ params, caller }) => {
  await deleteUser(params.userId, caller.userId);
});
