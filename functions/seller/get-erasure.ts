import type { ErasurePlan } from '../domain/seller';
import { route } from '../lib/http';
import { erasurePlanOf } from './erasure';

/** GET /me/erasure: what DELETE /me would erase and keep for the caller ('full' or 'contract'), before the confirmation. */
export const handler = route('getErasurePlan', {}, async ({ caller }): Promise<ErasurePlan> => {
  return erasurePlanOf(caller.userId);
});
