import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { api, errorMessage } from '@/lib/api';
import { fetchMe, meKey, resetSessionState, type Me } from '@/lib/auth';
import type { LinkKind } from '@domain/links';
import { fetchLinkKind, linkKindKey } from './link-kind';
import { decidePostSignIn, type SignInOrigin } from './post-sign-in';

/**
 * Runs once after a successful sign-in: refreshes the session, loads /api/me (and, on the
 * seller sign-up page with a token, what kind of link the token is) and follows
 * `decidePostSignIn` (claiming the invitation when the token is one).
 */
export function usePostSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async ({ origin, token }: { origin: SignInOrigin; token?: string | null }) => {
      await resetSessionState(queryClient);
      let me: Me | null = null;
      try {
        me = await queryClient.fetchQuery({ queryKey: meKey, queryFn: fetchMe, staleTime: 0 });
      } catch {
        me = null;
      }
      let linkKind: LinkKind | null = null;
      const cleanToken = token?.trim();
      if (origin === 'seller-register' && cleanToken) {
        try {
          linkKind = (await queryClient.fetchQuery({ queryKey: linkKindKey(cleanToken), queryFn: ({ signal }) => fetchLinkKind(cleanToken, signal), staleTime: 60_000 })).kind;
        } catch {
          linkKind = null; // as before: the claim answers for an unknown token
        }
      }
      const step = decidePostSignIn({ me, origin, token, linkKind });
      if (step.kind === 'navigate') {
        navigate(step.to, { replace: true });
        return;
      }
      try {
        await api.post('/invitations/claim', { token: step.token });
        navigate(step.to, { replace: true });
      } catch (err) {
        toast.error('Errore', { description: errorMessage(err) });
        navigate(step.onError, { replace: true });
      }
    },
    [queryClient, navigate],
  );
}
