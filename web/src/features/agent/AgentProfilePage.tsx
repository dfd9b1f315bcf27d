import type { ReactNode } from 'react';
import { Card, CardContent, ErrorState, LoadingState } from '@/components/ui';
import { useMe } from '@/lib/auth';
import { USER_TYPE_LABELS } from '@/lib/labels';
import { formatPhone } from '@domain/phone';
import { usePageTitle } from '@/lib/use-page-title';
import { formatDate } from '@domain/format';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="break-words text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

/** Read-only profile of the signed-in agent (GET /api/me). */
export default function AgentProfilePage() {
  usePageTitle('Profilo Agente');
  const me = useMe();
  return (
    <div>
      <h1 className="text-2xl font-bold sm:text-3xl">Profilo Agente</h1>
      <p className="mt-2 text-slate-700">I dati del tuo account. Per modificarli contatta l&apos;assistenza.</p>
      <Card className="mt-6">
        <CardContent>
          {me.isPending ? (
            <LoadingState className="min-h-32" />
          ) : me.error ? (
            <ErrorState title="Impossibile caricare il profilo" error={me.error} onRetry={() => void me.refetch()} testId="agent-profile-error" />
          ) : (
            <dl className="divide-y divide-slate-200" data-testid="agent-profile">
              <Row label="Nome completo">{me.data.fullName || '—'}</Row>
              <Row label="Email">{me.data.email}</Row>
              <Row label="Tipo utente">{USER_TYPE_LABELS[me.data.userType] ?? me.data.userType}</Row>
              <Row label="Telefono">{me.data.phone ? formatPhone(me.data.phone) : '—'}</Row>
              {me.data.createdAt && <Row label="Registrato il">{formatDate(me.data.createdAt)}</Row>}
            </dl>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
