import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Hourglass, LogOut, RotateCcw, ShieldX } from 'lucide-react';
import type { AgentStatus } from '@domain/users';
import { Button, Card, CardContent } from '@/components/ui';
import { refreshTokens } from '@/lib/api';
import { resetSessionState, useMe, useSignOut } from '@/lib/auth';
import { usePageTitle } from '@/lib/use-page-title';

export const PENDING_TITLE = 'Account in attesa di approvazione';
export const REJECTED_TITLE = 'Account non approvato';

/**
 * What a signed-in agente_immobiliare sees instead of the Area Agente until an admin
 * approves the account (Gestione Utenti), or after a rejection.
 */
export function AgentPendingPage({ status, email }: { status: Exclude<AgentStatus, 'approved'>; email?: string }) {
  const rejected = status === 'rejected';
  const title = rejected ? REJECTED_TITLE : PENDING_TITLE;
  usePageTitle(title);
  const me = useMe();
  const signOut = useSignOut();
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState(false);
  // new tokens first (an approval adds the agent group, which only a new token carries), then
  // the session and the profile read again: once approved, the Area Agente opens without signing out
  const checkAgain = async () => {
    setChecking(true);
    try {
      await refreshTokens();
      await resetSessionState(queryClient);
      await me.refetch();
    } finally {
      setChecking(false);
    }
  };
  const busy = checking || me.isFetching;
  const Icon = rejected ? ShieldX : Hourglass;
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-10 sm:px-6" data-testid="agent-pending" data-status={status}>
      <Card>
        <CardContent className="flex flex-col gap-4 sm:flex-row sm:items-start">
          <Icon aria-hidden="true" className={`size-8 shrink-0 ${rejected ? 'text-red-700' : 'text-brand-orange-dark'}`} />
          <div className="space-y-3">
            <h1 className="text-2xl font-bold">{title}</h1>
            {rejected ? (
              <>
                <p className="text-slate-700">
                  Il tuo account agente non è stato approvato da un amministratore, quindi non puoi accedere all&apos;Area Agente.
                </p>
                <p className="text-slate-700">Se pensi che si tratti di un errore, contatta l&apos;assistenza.</p>
              </>
            ) : (
              <>
                <p className="text-slate-700">
                  Grazie per esserti registrato come agente immobiliare. Prima di usare l&apos;Area Agente un amministratore deve
                  approvare il tuo account.
                </p>
                <p className="text-slate-700">
                  Riceverai un&apos;e-mail{email ? <> all&apos;indirizzo <strong className="break-all">{email}</strong></> : null} quando
                  l&apos;account sarà approvato.
                </p>
                <p className="text-slate-700">
                  Una volta approvato, premi <strong>Controlla di nuovo</strong>: l&apos;Area Agente si apre senza bisogno di
                  uscire.
                </p>
              </>
            )}
            <div className="flex flex-wrap gap-2 pt-2">
              {!rejected && (
                <Button variant="outline" onClick={() => void checkAgain()} loading={busy} data-testid="agent-pending-refresh">
                  {!busy && <RotateCcw aria-hidden="true" className="size-4" />}
                  Controlla di nuovo
                </Button>
              )}
              <Button variant="secondary" onClick={() => void signOut({ to: '/auth' })} data-testid="agent-pending-signout">
                <LogOut aria-hidden="true" className="size-4" />
                Esci
              </Button>
            </div>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
