/** Client of the availability routes (functions/routes.ts: getAvailability, getOwnAvailability, saveAvailability). */
import type { AvailabilitySaveBody, AvailabilityState } from '@domain/availability';
import { api } from '@/lib/api';

export const availabilityKeys = {
  byLink: (token: string) => ['availability', 'link', token] as const,
  byProperty: (propertyId: string) => ['availability', 'property', propertyId] as const,
};

const own = (propertyId: string) => `/seller/properties/${encodeURIComponent(propertyId)}/availability`;

/** The e-mail's link (first arrival): the answer names the property, and the page goes on by id. */
export function getAvailabilityByLink(token: string, signal?: AbortSignal): Promise<AvailabilityState> {
  return api.get<AvailabilityState>(`/seller/availability/${encodeURIComponent(token)}`, { signal });
}

export function getOwnAvailability(propertyId: string, signal?: AbortSignal): Promise<AvailabilityState> {
  return api.get<AvailabilityState>(own(propertyId), { signal });
}

export function saveAvailability(propertyId: string, body: AvailabilitySaveBody): Promise<AvailabilityState> {
  return api.put<AvailabilityState>(own(propertyId), body);
}
