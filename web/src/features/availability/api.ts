/** Client of the availability routes (functions/routes.ts: getAvailability, saveAvailability). */
import type { AvailabilitySaveBody, AvailabilityState } from '@domain/availability';
import { api } from '@/lib/api';

export const availabilityKeys = {
  byToken: (token: string) => ['availability', token] as const,
};

const path = (token: string) => `/seller/availability/${encodeURIComponent(token)}`;

export function getAvailability(token: string, signal?: AbortSignal): Promise<AvailabilityState> {
  return api.get<AvailabilityState>(path(token), { signal });
}

export function saveAvailability(token: string, body: AvailabilitySaveBody): Promise<AvailabilityState> {
  return api.put<AvailabilityState>(path(token), body);
}
