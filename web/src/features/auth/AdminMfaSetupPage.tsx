import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Button, Card, CardContent } from '@/components/ui';
import { authErrorMessage, finishTotpSetup, meKey, startTotpSetup } from '@/lib/auth';
import { usePageTitle } from '@/lib/use-page-title';
import { TotpCodeForm } from '@/components/auth/TotpCodeForm';

/** The secret in groups of 4 characters, easier to type into an app. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

/**
 * An admin without TOTP MFA (GET /me `mfaRequired`): the admin area waits until an
 * authenticator app is set up (the API refuses admin routes until then: 403 MFA_REQUIRED).
 * The app gets the otpauth:// link (a tap on a phone) or the key typed in; its first code
 * confirms it, then the tokens are renewed with the `mfa` claim.
 */
export default function AdminMfaSetupPage({ email }: { email: string }) {
  usePageTitle('Verifica in due passaggi');
  const queryClient = useQueryClient();
  const [copied, setCopied] = useState(false);
  const setup = useMutation({ mutationFn: () => startTotpSetup(email) });

  const copy = async (secret: string) => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      toast.error('Copia non riuscita', { description: 'Seleziona la chiave e copiala a mano.' });
    }
  };

  return (
    <div className="mx-auto w-full max-w-lg px-4 py-10 sm:py-16">
      <div className="mb-6 text-center">
        <h1 className="text-2xl font-bold sm:text-3xl">Attiva la verifica in due passaggi</h1>
        <p className="mt-2 text-slate-700">
          L&apos;area amministratore è protetta da un secondo fattore: a ogni accesso ti chiederemo anche il codice di
          un&apos;app di autenticazione (ad esempio Google Authenticator, Microsoft Authenticator o 1Password).
        </p>
      </div>
      <Card>
        <CardContent className="space-y-5">
          {!setup.data ? (
            <div className="space-y-3">
              {setup.isError && (
                <p role="alert" className="text-sm font-medium text-red-700" data-testid="mfa-setup-error">
                  {authErrorMessage(setup.error)}
                </p>
              )}
              <Button size="lg" className="w-full" loading={setup.isPending} onClick={() => setup.mutate()} data-testid="mfa-setup-start">
                {setup.isPending ? 'Preparazione...' : 'Configura l\'app di autenticazione'}
              </Button>
            </div>
          ) : (
            <>
              <ol className="list-decimal space-y-3 pl-5 text-sm text-slate-800">
                <li>
                  Sul telefono,{' '}
                  <a className="font-semibold text-brand-navy underline" href={setup.data.uri} data-testid="mfa-setup-link">
                    apri il collegamento nell&apos;app di autenticazione
                  </a>
                  , oppure aggiungi un account a mano con questa chiave:
                  <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-center">
                    <code className="break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-base tracking-wide" data-testid="mfa-setup-secret">
                      {grouped(setup.data.secret)}
                    </code>
                    <Button variant="outline" size="sm" onClick={() => void copy(setup.data.secret)} data-testid="mfa-setup-copy">
                      {copied ? 'Copiata' : 'Copia chiave'}
                    </Button>
                  </div>
                </li>
                <li>Inserisci qui sotto il codice di 6 cifre che l&apos;app mostra per Opzione Casa.</li>
              </ol>
              <TotpCodeForm
                idPrefix="mfa-setup"
                title="Conferma l'app"
                intro="Il codice cambia ogni 30 secondi: usa quello visualizzato ora."
                submitLabel="Attiva la verifica"
                onCode={async (code) => {
                  await finishTotpSetup(code);
                  toast.success('Verifica in due passaggi attiva', { description: 'Dal prossimo accesso ti chiederemo il codice dell\'app.' });
                  // the guard's /me (mounted) asks again, with the renewed ID token
                  await queryClient.invalidateQueries({ queryKey: meKey });
                }}
              />
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
