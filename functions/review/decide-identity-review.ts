import { IDENTITY_MESSAGES, identityReviewDecisionSchema, type IdentityRecord } from '../domain/identity';
import { route } from '../lib/http';
import { actorOf } from '../lib/auth';
import { logger } from '../lib/logger';
import { decideIdentityReview } from '../model/identity';
import { propertyParams } from './schemas';

/**
 * POST /admin/properties/{propertyId}/identity/review {decision: 'approve' | 'reject', reason, checkedAt}:
 * an admin's decision on the seller's identity check in review, recorded with who and when
 * (the IDENTITY item's `review`). Approved: verified, the step is done; rejected: the seller
 * reads the reason and checks again. Only while the check is still in review: a second
 * decision, or one after a new check by the seller (the check reviewed is named by `checkedAt`),
 * is 409 and changes nothing; a property
 * without a check is 404.
 */
export const handler = route('decideIdentityReview', { params: propertyParams, body: identityReviewDecisionSchema }, async ({ params, body, caller }): Promise<{ identity: IdentityRecord }> => {
  const identity = await decideIdentityReview({
    propertyId: params.propertyId,
    decision: body.decision,
    reason: body.reason,
    by: caller.userId,
    actor: actorOf(caller, 'admin'),
    now: new Date().toISOString(),
    checkedAt: body.checkedAt,
    sellerReason: body.decision === 'approve' ? IDENTITY_MESSAGES.reviewApproved : `${IDENTITY_MESSAGES.reviewRejected}: ${body.reason}`,
  });
  logger.info('Identity review decided', { propertyId: params.propertyId, decision: body.decision, by: caller.userId });
  return { identity };
});
