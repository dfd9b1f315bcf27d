/**
 * Client of the seller routes (functions/routes.ts: GET /seller/properties, PATCH /me/profile,
 * GET /me/erasure, DELETE /me); the shapes are the server's (functions/domain/seller.ts).
 */
import type { DeclineVisitInput, SellerVisits, Visit } from '@domain/visits';
import type { Me } from '@domain/profile';
import type { ErasurePlan, SellerProperty, SellerPropertyList } from '@domain/seller';
import { api, request } from '@/lib/api';

export type { ErasurePlan, SellerProperty, SellerPropertyList };

export { sellerKeys } from '@/lib/seller-keys';

export function listSellerProperties(signal?: AbortSignal): Promise<SellerPropertyList> {
  return api.get<SellerPropertyList>('/seller/properties', { signal });
}

export function updateOwnProfile(fullName: string): Promise<Me> {
  return api.patch<Me>('/me/profile', { fullName });
}

/** What DELETE /me would erase and keep ('full' or 'contract'), for the confirmation dialog. */
export function getErasurePlan(signal?: AbortSignal): Promise<ErasurePlan> {
  return api.get<ErasurePlan>('/me/erasure', { signal });
}

/** The account: everything, or what a signed or assigned option does not need (GET /me/erasure says which). */
export function deleteOwnAccount(): Promise<void> {
  return request<void>('DELETE', '/me', { confirm: true });
}

export const visitsKey = (propertyId: string) => ['seller', 'properties', propertyId, 'visits'] as const;
const visitsPath = (propertyId: string) => `/seller/properties/${encodeURIComponent(propertyId)}/visits`;

/** GET /seller/properties/{id}/visits: the agent's visits of the caller's property. */
export function listVisits(propertyId: string, signal?: AbortSignal): Promise<SellerVisits> {
  return api.get<SellerVisits>(visitsPath(propertyId), { signal });
}

export function declineVisit(propertyId: string, visitId: string, input: DeclineVisitInput): Promise<Visit> {
  return api.post<Visit>(`${visitsPath(propertyId)}/${encodeURIComponent(visitId)}/decline`, input);
}
