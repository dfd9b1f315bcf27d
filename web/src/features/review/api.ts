/**
 * Client of the Istruttoria routes (functions/routes.ts: createValuation, sendEstimate,
 * createOption, getOptionStatus, notifySeller, sendAvailabilityLink); the dossier itself is
 * GET /admin/properties/{id} (web/src/lib/requests.ts, shared with the admin dashboard: same cache key).
 */
import type { DossierValuation, PurchaseOption } from '@domain/requests';
import type { AvailabilityLinkSent, CreateOptionInput, CreateValuationInput, EstimateSent, NotificationSent, OptionPoll } from '@domain/review/schemas';
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
