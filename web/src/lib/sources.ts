/**
 * The shared read of the lead sources (GET /sources, functions/routes.ts): the sources page
 * lists and edits them, the admin dashboard counts its requests by source. Same cache key.
 */
import type { SourceList } from '@domain/sources';
import { api } from '@/lib/api';

export const sourceKeys = {
  all: ['sources'] as const,
};

export function listSources(signal?: AbortSignal): Promise<SourceList> {
  return api.get<SourceList>('/sources', { signal });
}
