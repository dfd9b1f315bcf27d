import { lazy } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import type { UserType } from '@domain/roles';
import { agentStatusOf } from '@domain/agent-status';
import { isApiError } from '@/lib/api';
import { useMe, useSession } from '@/lib/auth';
import { AgentPendingPage } from '@/features/users/AgentPendingPage';
import { GuardView, type GuardDecision } from './Guard';

// loaded only when an admin must set up the authenticator app: its form (react-hook-form,
// zod) stays out of the first JavaScript every visitor downloads
const AdminMfaSetupPage = lazy(() => import('@/features/auth/AdminMfaSetupPage'));

export const ACCESS_DENIED = 'Accesso negato';
export const ADMIN_ONLY = 'Non hai i permessi per accedere a questa pagina';
export const SOURCES_ADMIN_ONLY = 'Solo gli amministratori possono accedere a questa pagina';
export const SELLERS_ONLY = 'Questa pagina è riservata ai venditori';

/**
 * Admin pages: not signed in -> /auth; signed in without the admin group -> 'Accesso negato'
 * and /; an admin without TOTP MFA (GET /me `mfaRequired`) -> the set-up page first.
 */
export function RequireAdmin({ deniedDescription = ADMIN_ONLY }: { deniedDescription?: string }) {
  const { session, isLoading } = useSession();
  const me = useMe(Boolean(session?.groups.includes('admin')));
  let decision: GuardDecision;
  if (isLoading) decision = { status: 'loading' };
  else if (!session) decision = { status: 'deny', to: '/auth' };
  else if (session.groups.includes('admin')) {
    if (me.isPending) decision = { status: 'loading' };
    else if (me.data?.mfaRequired) return <AdminMfaSetupPage email={session.email} />;
    else decision = { status: 'allow' };
  } else decision = { status: 'deny', to: '/', toast: { title: ACCESS_DENIED, description: deniedDescription } };
  return <GuardView decision={decision} />;
}

/**
 * Pages of one user type (profile from /api/me): not signed in -> /auth; another type or
 * no profile -> / (with a toast when `deniedDescription` is given). An agente_immobiliare
 * whose account an admin has not approved (pending or rejected) sees the 'Account in
 * attesa di approvazione' page instead of the agent area.
 */
export function RequireUserType({ userType, deniedDescription }: { userType: UserType; deniedDescription?: string }) {
  const { session, isLoading } = useSession();
  const me = useMe();
  let decision: GuardDecision;
  if (isLoading) decision = { status: 'loading' };
  else if (!session) decision = { status: 'deny', to: '/auth' };
  else if (me.isPending) decision = { status: 'loading' };
  else if (me.data?.userType === userType) {
    const agentStatus = agentStatusOf(me.data);
    if (agentStatus === 'pending' || agentStatus === 'rejected') return <AgentPendingPage status={agentStatus} email={me.data.email} />;
    decision = { status: 'allow' };
  } else
    decision = {
      status: 'deny',
      to: '/',
      ...(deniedDescription && (me.data || isApiError(me.error, 404)) ? { toast: { title: ACCESS_DENIED, description: deniedDescription } } : {}),
    };
  return <GuardView decision={decision} />;
}

/**
 * /seller-kyc?token=...: no token -> 'Link non valido' and /; no session -> 'Accesso richiesto' and the seller sign-up page.
 * /seller-kyc?property=... (the owner's own page, by id): no session -> /auth.
 */
export function RequireInvitationSession() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim();
  const propertyId = params.get('property')?.trim();
  const { session, isLoading } = useSession();
  let decision: GuardDecision;
  if (propertyId && !token) decision = isLoading ? { status: 'loading' } : session ? { status: 'allow' } : { status: 'deny', to: '/auth' };
  else if (!token)
    decision = { status: 'deny', to: '/', toast: { title: 'Link non valido', description: 'Il link di invito non è valido o è incompleto.' } };
  else if (isLoading) decision = { status: 'loading' };
  else if (!session)
    decision = {
      status: 'deny',
      to: `/seller-register?token=${encodeURIComponent(token)}`,
      toast: { title: 'Accesso richiesto', description: 'Registrati o accedi per continuare.' },
    };
  else decision = { status: 'allow' };
  return <GuardView decision={decision} />;
}

/**
 * /availability/:token: no session -> 'Accesso richiesto' and /seller-register?token={token},
 * which sends the seller back here after sign-in (it asks GET /links/{token} what the token is).
 */
export function RequireTokenSession() {
  const { token = '' } = useParams();
  const { session, isLoading } = useSession();
  let decision: GuardDecision;
  if (isLoading) decision = { status: 'loading' };
  else if (!session)
    decision = {
      status: 'deny',
      to: `/seller-register?token=${encodeURIComponent(token)}`,
      toast: { title: 'Accesso richiesto', description: 'Registrati o accedi per continuare.' },
    };
  else decision = { status: 'allow' };
  return <GuardView decision={decision} />;
}
