/**
 * Client of the seller routes (functions/routes.ts: GET /seller/properties, PATCH /me/profile,
 * DELETE /me); the shapes are the server's (functions/domain/seller.ts).
 */
import type { Me } from '@domain/profile';
import type { SellerProperty, SellerPropertyList } from '@domain/seller';
import { api, request } from '@/lib/api';

export type { SellerProperty, SellerPropertyList };

export { sellerKeys } from '@/lib/seller-keys';

export function listSellerProperties(signal?: AbortSignal): Promise<SellerPropertyList> {
  return api.get<SellerPropertyList>('/seller/properties', { signal });
}

export function updateOwnProfile(fullName: string): Promise<Me> {
  return api.patch<Me>('/me/profile', { fullName });
}

/** The whole account: properties, dossiers, files, profile and login. */
export function deleteOwnAccount(): Promise<void> {
  return request<void>('DELETE', '/me', { confirm: true });
}
