import type { Group, UserType } from './roles';
import type { AgentStatus } from './users';

/** A user's profile (`USER#{sub}` / `PROFILE`), written at sign-up confirmation. */
export interface Profile {
  id: string;
  email: string;
  fullName: string;
  userType: UserType;
  phone: string | null;
  companyName?: string | null;
  companyVat?: string | null;
  companyRea?: string | null;
  companyAddress?: string | null;
  companyCity?: string | null;
  companyProvince?: string | null;
  createdAt: string;
}

/** GET /me: the caller's own profile and groups (the SPA's redirect after sign-in and its guards). */
export interface Me extends Profile {
  groups: Group[];
  /**
   * agente_immobiliare only (null otherwise): a self-registered agent is 'pending' until an
   * admin approves ('approved', the `agent` group is added) or rejects ('rejected').
   */
  agentStatus: AgentStatus | null;
  /** an admin without TOTP MFA: admin routes answer 403 MFA_REQUIRED until it is set up */
  mfaRequired?: boolean;
}
