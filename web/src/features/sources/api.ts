/**
 * Client of the /sources routes (functions/routes.ts); the shapes are the server's
 * (functions/domain/sources.ts). The list and its cache key are shared (web/src/lib/sources.ts).
 */
import type { CreateSourceInput, Source, SourceListItem } from '@domain/sources';
import { api } from '@/lib/api';

export type { Source, SourceListItem };
export { listSources, sourceKeys } from '@/lib/sources';

export function createSource(input: CreateSourceInput): Promise<Source> {
  return api.post<Source>('/sources', input);
}

export function deleteSource(sourceId: string): Promise<void> {
  return api.delete<void>(`/sources/${encodeURIComponent(sourceId)}`);
}
