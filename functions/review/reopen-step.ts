import * as z from 'zod';
import { route } from '../lib/http';
import { NotFoundError } from '../lib/errors';
import { logger } from '../lib/logger';
import { ONBOARDING_MESSAGES as M, REOPEN_REASON_MAX, REOPEN_STEP_PATHS, type StepReopening } from '../domain/onboarding/rules';
import { reopenStep } from '../model/property';
import { propertyParams } from './schemas';

const params = propertyParams.extend({
  step: z
    .string({ error: M.reopenStep })
    .refine((s) => Object.hasOwn(REOPEN_STEP_PATHS, s), M.reopenStep)
    .transform((s) => REOPEN_STEP_PATHS[s]!),
});

const body = z.object({
  reason: z.string({ error: M.reopenReason }).trim().min(1, M.reopenReason).max(REOPEN_REASON_MAX, M.reopenReasonTooLong),
});

/**
 * POST /admin/properties/{propertyId}/onboarding/{step}/reopen {reason}: after the option is
 * signed, identity, co-owners and delegations are read-only for the seller (the property
 * guard's `step`, model/property.ts); only an admin reopens one, with a reason, recorded on the
 * property with who and when (the dossier's `reopenings`). The seller's writes on that step
 * are accepted again until the seller completes it again. `{step}`: identity, co-owners,
 * delegations. 409 while the option is not signed; 404 for a missing property.
 */
export const handler = route('reopenOnboardingStep', { params, body }, async ({ params: p, body: b, caller }): Promise<{ reopening: StepReopening }> => {
  const reopening = await reopenStep(p.propertyId, p.step, caller.userId, b.reason, new Date().toISOString(), () => new NotFoundError(M.propertyNotFound));
  logger.info('Onboarding step reopened', { propertyId: p.propertyId, step: p.step, by: caller.userId });
  return { reopening };
});
