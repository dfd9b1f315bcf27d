import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Card, CardContent, Tabs } from '@/components/ui';
import { SESSION_EXPIRED_MESSAGE } from '@domain/roles';
import { SESSION_ENDED_KEY } from '@/lib/api';
import { usePageTitle } from '@/lib/use-page-title';
import { AgentSignUpForm } from './AgentSignUpForm';
import { LoginForm } from '@/components/auth/LoginForm';

type AuthTab = 'login' | 'agent';

export default function AuthPage() {
  usePageTitle('Accedi');
  const [tab, setTab] = useState<AuthTab>('login');
  const [email, setEmail] = useState('');

  // the API client ended the session (role changed, account removed, signed out everywhere): say why once
  useEffect(() => {
    let ended = false;
    try {
      ended = sessionStorage.getItem(SESSION_ENDED_KEY) === '1';
      sessionStorage.removeItem(SESSION_ENDED_KEY);
    } catch {
      // storage unavailable
    }
    if (ended) toast.error('Sessione terminata', { description: SESSION_EXPIRED_MESSAGE });
  }, []);

  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <div className="mb-6 text-center">
        <h1 className="text-2xl font-bold sm:text-3xl">Area riservata</h1>
        <p className="mt-2 text-slate-700">Accedi al tuo account o registrati come agente immobiliare.</p>
      </div>
      <Card>
        <CardContent>
          <Tabs<AuthTab>
            label="Accesso e registrazione"
            value={tab}
            onChange={setTab}
            items={[
              {
                value: 'login',
                label: 'Login',
                testId: 'tab-login',
                content: <LoginForm key={email} origin="auth" defaultEmail={email} />,
              },
              {
                value: 'agent',
                label: 'Sei un agente immobiliare?',
                testId: 'tab-agent-signup',
                content: (
                  <AgentSignUpForm
                    onSignedUp={(signedUpEmail) => {
                      setEmail(signedUpEmail);
                      setTab('login');
                    }}
                  />
                ),
              },
            ]}
          />
        </CardContent>
      </Card>
    </div>
  );
}
