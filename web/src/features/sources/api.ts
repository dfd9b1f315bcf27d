/**
 * Client of the /sources routes (functions/routes.ts); the shapes are the server's
 * (functions/domain/sources.ts).
 */
import type { CreateSourceInput, Source, SourceList, SourceListItem } from '@domain/sources';
import { api } from '@/lib/api';

export type { Source, SourceListItem };

export const sourceKeys = {
  all: ['sources'] as const,
};

export function listSources(signal?: AbortSignal): Promise<SourceList> {
  return api.get<SourceList>('/sources', { signal });
}

export function createSource(input: CreateSourceInput): Promise<Source> {
  return api.post<Source>('/sources', input);
}

export function deleteSource(sourceId: string): Promise<void> {
  return api.delete<void>(`/sources/${encodeURIComponent(sourceId)}`);
}
