import { route } from '../lib/http';
import { updateOwnProfileBody } from './schemas';
import { updateOwnProfile } from '../model/seller';

/** PATCH /me/profile {fullName}: the caller's own name (400 'Il nome è obbligatorio'); 404 without a profile. */
export const handler = route('updateOwnProfile', { body: updateOwnProfileBody }, async ({ body, caller }) => {
  return updateOwnProfile(caller.userId, body.fullName);
});
