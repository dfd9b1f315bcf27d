/**
 * The shared read of a request's dossier (GET /admin/properties/{id}, functions/routes.ts)
 * and the cache keys of the requests: the admin dashboard and the Istruttoria page use the
 * same ones, so a change on either page refreshes the other.
 */
import type { RequestFilters } from '@domain/request-list';
import type { RequestDossier } from '@domain/requests';
import { api } from '@/lib/api';

export type { RequestDossier };

export const requestKeys = {
  all: ['requests'] as const,
  list: (filters: RequestFilters) => ['requests', 'list', filters] as const,
  dossier: (id: string) => ['requests', 'dossier', id] as const,
  users: ['users', 'list'] as const,
};

export const requestPath = (id: string) => `/admin/properties/${encodeURIComponent(id)}`;

export function getRequest(id: string, signal?: AbortSignal): Promise<RequestDossier> {
  return api.get<RequestDossier>(requestPath(id), { signal });
}
