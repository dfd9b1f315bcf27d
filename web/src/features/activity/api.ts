/** Client of GET /admin/activity (functions/routes.ts listActivity): the admins' feed, a page at a time. */
import type { ActivityPage } from '@domain/activity';
import { api } from '@/lib/api';

export const activityKeys = { feed: ['activity', 'feed'] as const };

export function listActivity(cursor: string | undefined, signal?: AbortSignal): Promise<ActivityPage> {
  return api.get<ActivityPage>(`/admin/activity${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { signal });
}
