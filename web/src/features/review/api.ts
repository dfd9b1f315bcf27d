/**
 * Client of the Istruttoria routes (functions/routes.ts: createValuation, sendEstimate,
 * createOption, getOptionStatus, notifySeller, sendAvailabilityLink, listIdentityReviews,
 * decideIdentityReview); the dossier itself is
 * GET /admin/properties/{id} (web/src/lib/requests.ts, shared with the admin dashboard: same cache key).
 */
import type { DossierValuation, PurchaseOption } from '@domain/requests';
import type { AvailabilityLinkSent, CreateOptionInput, CreateValuationInput, EstimateSent, NotificationSent, OptionPoll, OptionTransitionInput, OptionTransitionResult } from '@domain/review/schemas';
import type { IdentityRecord, IdentityReviewDecisionInput, IdentityReviewItem } from '@domain/identity';
import { api } from '@/lib/api';

export { getRequest, requestKeys, type RequestDossier } from '@/lib/requests';

export const reviewKeys = {
  option: (id: string) => ['review', 'option', id] as const,
};

const path = (id: string) => `/admin/properties/${encodeURIComponent(id)}`;

export function createValuation(id: string, input: CreateValuationInput): Promise<DossierValuation> {
  return api.post<DossierValuation>(`${path(id)}/valuations`, input);
}

export function sendEstimate(id: string): Promise<EstimateSent> {
  return api.post<EstimateSent>(`${path(id)}/estimate-email`, {});
}

export function createOption(id: string, input: CreateOptionInput): Promise<PurchaseOption> {
  return api.post<PurchaseOption>(`${path(id)}/option`, input);
}

export function getOptionStatus(id: string, signal?: AbortSignal): Promise<OptionPoll> {
  return api.get<OptionPoll>(`${path(id)}/option`, { signal });
}

export function notifySeller(id: string): Promise<NotificationSent> {
  return api.post<NotificationSent>(`${path(id)}/option/notification`, {});
}

export function sendAvailabilityLink(id: string): Promise<AvailabilityLinkSent> {
  return api.post<AvailabilityLinkSent>(`${path(id)}/option/availability-link`, {});
}

export const identityReviewKeys = {
  queue: ['review', 'identity-reviews'] as const,
};

/** GET /admin/identity-reviews: the identity checks waiting for an admin (oldest first). */
export function listIdentityReviews(signal?: AbortSignal): Promise<{ reviews: IdentityReviewItem[] }> {
  return api.get<{ reviews: IdentityReviewItem[] }>('/admin/identity-reviews', { signal });
}

/** POST /admin/properties/{id}/identity/review: approve or reject a check in review, with a reason. */
export function decideIdentityReview(id: string, input: IdentityReviewDecisionInput): Promise<{ identity: IdentityRecord }> {
  return api.post<{ identity: IdentityRecord }>(`${path(id)}/identity/review`, input);
}

/** POST /admin/properties/{id}/co-owners/{coOwnerId}/identity/review: the same for a co-owner's check. */
export function decideCoOwnerIdentityReview(id: string, coOwnerId: string, input: IdentityReviewDecisionInput): Promise<{ identity: { status: string } }> {
  return api.post<{ identity: { status: string } }>(`${path(id)}/co-owners/${encodeURIComponent(coOwnerId)}/identity/review`, input);
}

/** An admin's action on the option's state (publish, withdraw, exercise, cancel with a reason). */
export function transitionOption(id: string, input: OptionTransitionInput): Promise<OptionTransitionResult> {
  return api.post<OptionTransitionResult>(`/admin/options/${encodeURIComponent(id)}/transitions`, input);
}
