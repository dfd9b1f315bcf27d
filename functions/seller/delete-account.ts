import { route } from '../lib/http';
import { deleteAccountBody } from './schemas';
import { deleteOwnAccount } from '../model/seller';

/**
 * DELETE /me {confirm: true}: the seller's whole account (properties with dossier and
 * files, profile, login); 204. 400 without the confirmation, 403 for another user type.
 */
export const handler = route('deleteOwnAccount', { body: deleteAccountBody }, async ({ caller }) => {
  await deleteOwnAccount(caller.userId);
});
