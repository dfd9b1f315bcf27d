import * as z from 'zod';
import { IDENTITY_MESSAGES, identityReviewDecisionSchema } from '../domain/identity';
import type { KycIdentity } from '../domain/onboarding/kyc';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import { route } from '../lib/http';
import { actorOf } from '../lib/auth';
import { logger } from '../lib/logger';
import { decideCoOwnerIdentityReview } from '../model/co-owner';

const id = (message: string) => z.string({ error: message }).min(1, message).max(100, message);
const params = z.object({ propertyId: id(REVIEW_MESSAGES.propertyNotFound), coOwnerId: id(IDENTITY_MESSAGES.reviewNotFound) });

/**
 * POST /admin/properties/{propertyId}/co-owners/{coOwnerId}/identity/review {decision, reason, checkedAt}:
 * an admin's decision on a co-owner's identity check in review (60-70 %, or not completed by
 * the engine), recorded with who and when on the COOWNER item and in the activity history.
 * Approved: the co-owner is 'Verificato'; rejected: they read the reason and check again. Only
 * while the check is still in review, and the one reviewed (`checkedAt`; else 409,
 * nothing changes); no such co-owner 404.
 */
export const handler = route('decideCoOwnerIdentityReview', { params, body: identityReviewDecisionSchema }, async ({ params, body, caller }): Promise<{ identity: KycIdentity }> => {
  const identity = await decideCoOwnerIdentityReview({
    propertyId: params.propertyId,
    coOwnerId: params.coOwnerId,
    decision: body.decision,
    reason: body.reason,
    actor: actorOf(caller, 'admin'),
    now: new Date().toISOString(),
    checkedAt: body.checkedAt,
    coOwnerReason: body.decision === 'approve' ? IDENTITY_MESSAGES.reviewApproved : `${IDENTITY_MESSAGES.reviewRejected}: ${body.reason}`,
  });
  logger.info('Co-owner identity review decided', { propertyId: params.propertyId, coOwnerId: params.coOwnerId, decision: body.decision, by: caller.userId });
  return { identity };
});
