import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, CreditCard, Inbox } from 'lucide-react';
import { formatDate, formatDecimal, formatEuro, formatEuroCents } from '@domain/format';
import { AGENT_MESSAGES, agentRequestStatusLabel, type AgentRequestStatus, type AgentRequestView } from '@domain/agent-requests';
import { Badge, Button, CARD_LABEL, Card, CardTable, EmptyState, ErrorState, LoadingState, type BadgeVariant } from '@/components/ui';
import { agentKeys, listMyRequests } from './api';
import { PaymentDialog } from './PaymentDialog';

export const REQUEST_STATUS_VARIANTS: Record<AgentRequestStatus, BadgeVariant> = {
  pending: 'warning',
  payment_pending: 'default',
  paid: 'success',
  rejected: 'destructive',
};

/**
 * 'Le Mie Richieste': the agent's requests, newest first (property, value, premium,
 * commission, status, actions); 'Paga Ora' only for payment_pending, 'Completata' for paid.
 * `watchPayment`: just back from Stripe, polls until the webhook's 'Pagata' shows.
 */
export function MyRequestsTab({ watchPayment }: { watchPayment: boolean }) {
  const [paying, setPaying] = useState<AgentRequestView | null>(null);
  const query = useQuery({
    queryKey: agentKeys.requests,
    queryFn: ({ signal }) => listMyRequests(signal),
    refetchInterval: (q) => (watchPayment && q.state.data?.items.some((r) => r.status === 'payment_pending') ? 4000 : false),
  });
  if (query.isPending) return <LoadingState label="Caricamento delle richieste..." className="min-h-48" />;
  if (query.isError) return <ErrorState title={AGENT_MESSAGES.requestsLoadFailed} error={query.error} onRetry={() => void query.refetch()} testId="requests-error" />;
  const items = query.data.items;
  if (items.length === 0) {
    return (
      <EmptyState icon={Inbox} title={AGENT_MESSAGES.noRequests} className="rounded-2xl border border-dashed border-slate-300 p-8" testId="requests-empty">
        <p className="text-sm text-slate-600">Scegli un&apos;opzione in &quot;Opzioni Disponibili&quot; e richiedi l&apos;assegnazione.</p>
      </EmptyState>
    );
  }
  const th = 'px-3 py-3 text-left align-bottom font-semibold text-slate-700';
  const td = 'px-3 py-3 align-middle max-sm:block max-sm:py-1';
  const num = `${td} text-right tabular-nums sm:whitespace-nowrap max-sm:text-left`;
  return (
    <Card className="overflow-hidden">
      <CardTable label="Tabella delle mie richieste" caption="Le mie richieste di assegnazione, dalla più recente" minWidth="sm:min-w-[760px]" testId="my-requests">
        <thead className="bg-slate-50 max-sm:sr-only">
          <tr>
            <th scope="col" className={th}>Immobile</th>
            <th scope="col" className={`${th} text-right`}>Valore</th>
            <th scope="col" className={`${th} text-right`}>Premio</th>
            <th scope="col" className={`${th} text-right`}>Provvigione</th>
            <th scope="col" className={th}>Stato</th>
            <th scope="col" className={th}>Azioni</th>
          </tr>
        </thead>
        <tbody className="max-sm:block">
          {items.map((r) => (
            <tr key={r.id} className="border-t border-slate-200 max-sm:grid max-sm:grid-cols-1 max-sm:py-3 max-sm:first:border-t-0" data-testid="my-request" data-request-id={r.id}>
              <th scope="row" className={`${td} text-left font-medium text-slate-900`}>
                {r.propertyAddress}
                {r.propertyCity && <span className="block font-normal text-slate-600">{r.propertyCity}</span>}
                <span className="block text-xs font-normal text-slate-600">
                  Richiesta del <time dateTime={r.createdAt}>{formatDate(r.createdAt)}</time>
                </span>
              </th>
              <td className={`${num} ${CARD_LABEL}`} data-label="Valore">
                {formatEuro(r.propertyValue)}
              </td>
              <td className={`${num} ${CARD_LABEL}`} data-label="Premio">
                {formatEuro(r.optionAmount)}
              </td>
              <td className={`${num} ${CARD_LABEL}`} data-label="Provvigione">
                {formatDecimal(r.requestedCommissionPercentage)}%
                <span className="block text-xs text-slate-600 max-sm:inline max-sm:ml-1">{formatEuroCents(r.commissionAmount)}</span>
              </td>
              <td className={`${td} ${CARD_LABEL}`} data-label="Stato">
                <Badge variant={REQUEST_STATUS_VARIANTS[r.status] ?? 'outline'} data-testid="my-request-status">
                  {agentRequestStatusLabel(r.status)}
                </Badge>
              </td>
              <td className={`${td} max-sm:pt-2`}>
                {r.status === 'payment_pending' ? (
                  <Button size="sm" onClick={() => setPaying(r)} aria-label={`Paga Ora: ${r.propertyAddress}`} data-testid="pay-now">
                    <CreditCard aria-hidden="true" className="size-4" />
                    Paga Ora
                  </Button>
                ) : r.status === 'paid' ? (
                  <span className="inline-flex items-center gap-1 font-semibold text-green-800" data-testid="request-completed">
                    <CheckCircle2 aria-hidden="true" className="size-4" />
                    Completata
                  </span>
                ) : (
                  <span className="text-slate-500 max-sm:hidden" aria-label="Nessuna azione">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </CardTable>
      <PaymentDialog request={paying} onClose={() => setPaying(null)} />
    </Card>
  );
}
