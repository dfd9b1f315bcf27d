import { route } from '../lib/http';
import { deleteAccountBody } from './schemas';
import { deleteOwnAccount } from './erasure';

/**
 * DELETE /me {confirm: true}: the seller's account (functions/seller/erasure.ts): everything
 * without a signed or assigned option, the rest kept for its contract; the login always; 204.
 * 400 without the confirmation, 403 for another user type.
 */
export const handler = route('deleteOwnAccount', { body: deleteAccountBody }, async ({ caller }) => {
  await deleteOwnAccount(caller.userId);
});
