/** zod schemas of the seller routes, with Italian messages (functions/domain/seller.ts). */
export { deleteAccountInput as deleteAccountBody, updateOwnProfileInput as updateOwnProfileBody } from '../domain/seller';
