/**
 * Client of the /users routes (functions/routes.ts); the shapes are the server's
 * (functions/domain/users.ts).
 */
import type { AgentDecision, Role, UpdateUserInput, UserList, UserListItem } from '@domain/users';
import { api } from '@/lib/api';

export type { UserListItem };

export const userKeys = {
  all: ['users'] as const,
};

const path = (userId: string) => `/users/${encodeURIComponent(userId)}`;

export function listUsers(signal?: AbortSignal): Promise<UserList> {
  return api.get<UserList>('/users', { signal });
}

export function updateUser(userId: string, input: UpdateUserInput): Promise<UserListItem> {
  return api.patch<UserListItem>(path(userId), input);
}

export function updateUserRole(userId: string, role: Role): Promise<UserListItem> {
  return api.put<UserListItem>(`${path(userId)}/role`, { role });
}

export function deleteUser(userId: string): Promise<void> {
  return api.delete<void>(path(userId));
}

export function decideAgent(userId: string, decision: AgentDecision): Promise<UserListItem> {
  return api.post<UserListItem>(`${path(userId)}/agent-approval`, { decision });
}
