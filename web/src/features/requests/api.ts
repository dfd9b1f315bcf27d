/**
 * Client of the /admin/properties routes (functions/routes.ts); the shapes are the server's
 * (functions/domain/requests.ts). The users of the assign dialog come from GET /users. The
 * dossier read and the cache keys are shared with the Istruttoria page (web/src/lib/requests.ts).
 */
import { requestFilterParams, type RequestFilters } from '@domain/request-list';
import type { DossierMedia, RequestDossier, RequestList, RequestListItem } from '@domain/requests';
import type { PresignedUpload } from '@domain/uploads';
import type { UserList, UserListItem } from '@domain/users';
import { api, request } from '@/lib/api';
import { requestPath } from '@/lib/requests';

export type { DossierMedia, RequestDossier, RequestList, RequestListItem, UserListItem };

export { getRequest, requestKeys } from '@/lib/requests';

const path = requestPath;

export function listRequests(input: RequestFilters & { cursor?: string; limit?: number }, signal?: AbortSignal): Promise<RequestList> {
  const { cursor, limit, ...filters } = input;
  return api.get<RequestList>('/admin/properties', { query: { ...requestFilterParams(filters), cursor, limit }, signal });
}

export function deleteRequest(id: string, confirm: string): Promise<void> {
  return request<void>('DELETE', path(id), { confirm });
}

export function assignRequest(id: string, userId: string): Promise<{ assignedUserId: string }> {
  return api.put(`${path(id)}/assignee`, { userId });
}

export function createRequestUpload(id: string, input: { roomId: string; fileName: string; contentType: string; size: number }): Promise<PresignedUpload> {
  return api.post<PresignedUpload>(`${path(id)}/uploads`, input);
}

export function addRequestMedia(id: string, input: { roomId: string; key: string }): Promise<DossierMedia> {
  return api.post<DossierMedia>(`${path(id)}/media`, input);
}

export function deleteRequestMedia(id: string, roomId: string, mediaId: string): Promise<void> {
  return api.delete<void>(`${path(id)}/rooms/${encodeURIComponent(roomId)}/media/${encodeURIComponent(mediaId)}`);
}

export function listUsers(signal?: AbortSignal): Promise<UserList> {
  return api.get<UserList>('/users', { signal });
}
