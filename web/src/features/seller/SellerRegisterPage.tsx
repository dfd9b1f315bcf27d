import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { Card, CardContent, Tabs } from '@/components/ui';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchLinkKind, linkKindKey } from '@/lib/link-kind';
import { LoginForm } from '@/components/auth/LoginForm';
import { SellerSignUpForm } from './SellerSignUpForm';

type SellerTab = 'register' | 'login';

/**
 * /seller-register?token=...: sign-up or sign-in of a seller, usually from an e-mailed link.
 * The token may be a property's invitation, a co-owner's link or an availability link
 * (GET /links/{token}); after sign-in the seller goes where that link leads (post-sign-in.ts).
 */
export default function SellerRegisterPage() {
  usePageTitle('Registrazione Venditore');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() || null;
  const [tab, setTab] = useState<SellerTab>('register');
  const [email, setEmail] = useState('');
  const kind = useQuery({
    queryKey: linkKindKey(token ?? ''),
    queryFn: ({ signal }) => fetchLinkKind(token!, signal),
    enabled: Boolean(token),
    staleTime: 60_000,
    retry: 1,
  });
  const invitedEmail = kind.data?.kind === 'coOwner' ? kind.data.invitedEmail : undefined;
  const intro = !token
    ? 'Crea il tuo account per iniziare'
    : kind.data?.kind === 'availability'
      ? 'Registrati o accedi per inserire le tue disponibilità per le visite'
      : kind.data?.kind === 'coOwner'
        ? `Sei stato invitato come comproprietario: registrati o accedi con ${invitedEmail ?? "l'indirizzo a cui è arrivato l'invito"} per verificare la tua identità`
        : "Registrati o accedi per visualizzare l'opzione di acquisto";

  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <div className="mb-6 text-center">
        <h1 className="text-2xl font-bold sm:text-3xl">Registrazione Venditore</h1>
        <p className="mt-2 text-slate-700" data-testid="seller-register-intro">
          {intro}
        </p>
      </div>
      <Card>
        <CardContent>
          <Tabs<SellerTab>
            label="Registrazione o accesso venditore"
            value={tab}
            onChange={setTab}
            items={[
              {
                value: 'register',
                label: 'Registrati',
                testId: 'tab-seller-signup',
                content: (
                  <SellerSignUpForm
                    key={invitedEmail ?? ''}
                    invitedEmail={invitedEmail}
                    onSignedUp={(signedUpEmail) => {
                      setEmail(signedUpEmail);
                      setTab('login');
                    }}
                  />
                ),
              },
              {
                value: 'login',
                label: 'Accedi',
                testId: 'tab-seller-login',
                content: (
                  <LoginForm key={email || invitedEmail} origin="seller-register" token={token} idPrefix="seller-login" defaultEmail={email || invitedEmail || ''} />
                ),
              },
            ]}
          />
        </CardContent>
      </Card>
    </div>
  );
}
