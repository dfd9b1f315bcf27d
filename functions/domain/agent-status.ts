/**
 * The approval state of an agent account, apart from the /users schemas so the SPA's
 * route guards can use it without loading zod into the first page.
 */
import type { UserType } from './roles';

/** A new agent account waits for an admin; only approval adds the `agent` group. */
export const AGENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const AGENT_STATUS_LABELS: Record<AgentStatus, string> = {
  pending: 'In attesa di approvazione',
  approved: 'Approvato',
  rejected: 'Non approvato',
};

/**
 * The approval state of a profile: only `agente_immobiliare` accounts have one. An agent
 * profile written before approvals existed has none stored: it got the `agent` group at
 * sign-up, so it counts as approved.
 */
export function agentStatusOf(p: { userType: UserType; agentStatus?: AgentStatus | null }): AgentStatus | null {
  if (p.userType !== 'agente_immobiliare') return null;
  return p.agentStatus ?? 'approved';
}

/** True for an agent account an admin has not approved (pending or rejected). */
export function awaitsApproval(p: { userType?: UserType | null; agentStatus?: AgentStatus | null }): boolean {
  if (!p.userType) return false;
  const status = agentStatusOf({ userType: p.userType, agentStatus: p.agentStatus });
  return status !== null && status !== 'approved';
}
