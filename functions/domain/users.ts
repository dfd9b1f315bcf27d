/**
 * Gestione Utenti (/users): the shapes of the /users routes, shared by the handlers and
 * the SPA. The spec's role (user_roles: user or admin) is membership of the Cognito
 * `admin` group.
 */
import type { Profile } from './profile';

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** A new agent account waits for an admin; only approval adds the `agent` group. */
export const AGENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** A row of the Gestione Utenti table. */
export interface UserListItem extends Profile {
  role: Role;
  /** agents only; null for other user types */
  agentStatus: AgentStatus | null;
}

/** GET /users: pending agents first, then everyone by name. */
export interface UserList {
  items: UserListItem[];
}
