import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Banknote, Check, X } from 'lucide-react';
import { formatDateTime, formatDecimal, formatEuro, formatEuroCents } from '@domain/format';
import { AGENT_MESSAGES, type AdminAgentRequest } from '@domain/agent-requests';
import { Button, CARD_LABEL, Card, CardTable, Dialog, ErrorState } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { useScrollToHash } from '@/lib/use-scroll-to-hash';
import { decideAgentRequest, listAgentRequests, optionKeys } from './api';

type Action = 'approve' | 'reject' | 'paid';

const th = 'px-2 py-3 text-left align-bottom font-semibold text-slate-700';
const td = 'px-2 py-3 align-middle max-sm:block max-sm:py-1';
const num = `${td} text-right tabular-nums sm:whitespace-nowrap max-sm:text-left`;
const place = (r: AdminAgentRequest) => (r.propertyCity ? `${r.propertyAddress}, ${r.propertyCity}` : r.propertyAddress);

const cellLink = 'font-medium text-brand-navy underline-offset-2 hover:underline focus-visible:rounded focus-visible:ring-2 focus-visible:ring-brand-navy focus-visible:outline-none';

/** The agent (a link to their row in Gestione Utenti) and the property (a link to its Istruttoria). */
function AgentCells({ r }: { r: AdminAgentRequest }) {
  return (
    <>
      <th scope="row" className={`${td} text-left font-medium text-slate-900`}>
        <Link to={`/users#user-${encodeURIComponent(r.agentId)}`} className={cellLink} aria-label={`${r.agentName}, agente in Gestione Utenti`} data-testid="agent-request-agent-link">
          {r.agentName}
        </Link>
      </th>
      <td className={`${td} sm:whitespace-nowrap max-sm:break-all ${CARD_LABEL}`} data-label="Email">
        {r.agentEmail}
      </td>
      <td className={`${td} ${CARD_LABEL}`} data-label="Immobile">
        <Link to={`/investigation/${encodeURIComponent(r.propertyId)}`} className={cellLink} aria-label={`Istruttoria dell'immobile ${place(r)}`} data-testid="agent-request-property-link">
          {r.propertyAddress}
        </Link>
        {r.propertyCity && <span className="block text-slate-600 max-sm:inline max-sm:before:content-[',_']">{r.propertyCity}</span>}
      </td>
    </>
  );
}

/**
 * One table of requests: agent, e-mail and property first (AgentCells), then the table's own
 * columns and an actions column; rows become cards on phones.
 */
function RequestsTable(props: {
  id: string;
  title: string;
  intro: string;
  label: string;
  caption: string;
  testId: string;
  rowTestId: string;
  columns: { label: string; right?: boolean }[];
  rows: AdminAgentRequest[];
  /** the cells after AgentCells, the actions cell last */
  cells: (r: AdminAgentRequest) => ReactNode;
}) {
  return (
    <section className="mt-6" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`} className="text-xl font-bold">
        {props.title}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{props.intro}</p>
      <Card className="mt-3 overflow-hidden">
        <CardTable label={props.label} caption={props.caption} minWidth="sm:min-w-[1000px]" className="px-1" testId={props.testId}>
          <thead className="bg-slate-50 max-sm:sr-only">
            <tr>
              {[{ label: 'Agente' }, { label: 'Email' }, { label: 'Immobile' }, ...props.columns].map((c) => (
                <th key={c.label} scope="col" className={c.right ? `${th} text-right` : th}>
                  {c.label}
                </th>
              ))}
              <th scope="col" className={th}>
                <span className="sr-only">Azioni</span>
              </th>
            </tr>
          </thead>
          <tbody className="max-sm:block">
            {props.rows.map((r) => (
              <tr key={r.id} className="border-t border-slate-200 max-sm:grid max-sm:grid-cols-1 max-sm:py-3 max-sm:first:border-t-0" data-testid={props.rowTestId} data-request-id={r.id}>
                <AgentCells r={r} />
                {props.cells(r)}
              </tr>
            ))}
          </tbody>
        </CardTable>
      </Card>
    </section>
  );
}

/**
 * The agents' assignment requests on /active-options: the pending ones (Approva / Rifiuta),
 * shown only when there are any, and those awaiting payment ('Segna come pagata' once the
 * bank transfer arrives, after a confirmation).
 */
export function AgentRequestsSection({ propertyId }: { propertyId?: string }) {
  const queryClient = useQueryClient();
  const pending = useQuery({ queryKey: optionKeys.agentRequests('pending'), queryFn: ({ signal }) => listAgentRequests('pending', signal) });
  const awaiting = useQuery({ queryKey: optionKeys.agentRequests('payment_pending'), queryFn: ({ signal }) => listAgentRequests('payment_pending', signal) });
  const [confirmPaid, setConfirmPaid] = useState<AdminAgentRequest | null>(null);

  const decide = useMutation({
    mutationFn: ({ r, action }: { r: AdminAgentRequest; action: Action }) => decideAgentRequest(r.id, action),
    onSuccess: (_res, { action }) => {
      if (action === 'approve') toast.success(AGENT_MESSAGES.approved, { description: AGENT_MESSAGES.approvedDescription });
      else if (action === 'reject') toast.success(AGENT_MESSAGES.rejected);
      else {
        setConfirmPaid(null);
        toast.success(AGENT_MESSAGES.markedPaid, { description: AGENT_MESSAGES.markedPaidDescription });
      }
    },
    onError: (err, { action }) =>
      toast.error(action === 'approve' ? AGENT_MESSAGES.approveFailed : action === 'reject' ? AGENT_MESSAGES.rejectFailed : AGENT_MESSAGES.markPaidFailed, {
        description: errorMessage(err),
      }),
    // the options table shows the assigned agent: refresh it with the requests
    onSettled: () => queryClient.invalidateQueries({ queryKey: optionKeys.all }),
  });
  const busy = (r: AdminAgentRequest, action: Action) => decide.isPending && decide.variables?.r.id === r.id && decide.variables.action === action;
  // the Istruttoria's link lands on #agent-requests once both lists are there
  useScrollToHash(pending.isSuccess && awaiting.isSuccess);

  const loadError = pending.error ?? awaiting.error;
  if (loadError) {
    return (
      <Card className="mt-6">
        <ErrorState
          title={AGENT_MESSAGES.adminLoadFailed}
          error={loadError}
          onRetry={() => {
            void pending.refetch();
            void awaiting.refetch();
          }}
          testId="agent-requests-error"
        />
      </Card>
    );
  }
  const ofProperty = (items: AdminAgentRequest[] | undefined) => (items ?? []).filter((r) => !propertyId || r.propertyId === propertyId);
  const pendingItems = ofProperty(pending.data?.items);
  const awaitingItems = ofProperty(awaiting.data?.items);

  return (
    <>
      {/* the target of the Istruttoria's link (#agent-requests): both lists, or the notice that there are none */}
      <div id="agent-requests">
        {propertyId && pending.isSuccess && awaiting.isSuccess && pendingItems.length === 0 && awaitingItems.length === 0 && (
          <section className="mt-6" aria-labelledby="agent-requests-none-title" data-testid="agent-requests-none">
            <h2 id="agent-requests-none-title" className="text-xl font-bold">
              Richieste degli agenti
            </h2>
            <p className="mt-1 text-sm text-slate-700">Nessuna richiesta di un agente in attesa di decisione o di pagamento per questo immobile.</p>
          </section>
        )}
        {pendingItems.length > 0 && (
          <RequestsTable
            id="agent-requests"
            title="Richieste di assegnazione in attesa"
            intro="Gli agenti che chiedono di prendere in carico un'opzione, dalla richiesta più recente."
            label="Tabella delle richieste di assegnazione in attesa"
            caption="Richieste di assegnazione degli agenti in attesa"
            testId="agent-requests-table"
            rowTestId="agent-request-row"
            columns={[{ label: 'Valore', right: true }, { label: 'Importo opzione', right: true }, { label: '% richiesta', right: true }, { label: 'Data richiesta' }]}
            rows={pendingItems}
            cells={(r) => (
              <>
                <td className={`${num} ${CARD_LABEL}`} data-label="Valore">
                  {formatEuro(r.propertyValue)}
                </td>
                <td className={`${num} ${CARD_LABEL}`} data-label="Importo opzione">
                  {formatEuro(r.optionAmount)}
                </td>
                <td className={`${num} ${CARD_LABEL}`} data-label="% richiesta">
                  {formatDecimal(r.requestedCommissionPercentage)}%
                </td>
                <td className={`${td} sm:whitespace-nowrap ${CARD_LABEL}`} data-label="Data richiesta">
                  <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                </td>
                <td className={`${td} max-sm:pt-2`}>
                  <div className="flex gap-2">
                    <Button size="sm" variant="secondary" onClick={() => decide.mutate({ r, action: 'approve' })} loading={busy(r, 'approve')} disabled={decide.isPending} aria-label={`Approva la richiesta di ${r.agentName} per ${place(r)}`} data-testid="agent-request-approve">
                      {!busy(r, 'approve') && <Check aria-hidden="true" className="size-4" />}
                      Approva
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => decide.mutate({ r, action: 'reject' })} loading={busy(r, 'reject')} disabled={decide.isPending} aria-label={`Rifiuta la richiesta di ${r.agentName} per ${place(r)}`} data-testid="agent-request-reject">
                      {!busy(r, 'reject') && <X aria-hidden="true" className="size-4" />}
                      Rifiuta
                    </Button>
                  </div>
                </td>
              </>
            )}
          />
        )}

        {awaitingItems.length > 0 && (
          <RequestsTable
            id="agent-payments"
            title="Richieste approvate in attesa di pagamento"
            intro="Il pagamento con carta si registra da solo; un bonifico ricevuto (causale con il riferimento) si segna qui."
            label="Tabella delle richieste in attesa di pagamento"
            caption="Richieste approvate in attesa di pagamento"
            testId="agent-payments-table"
            rowTestId="agent-payment-row"
            columns={[{ label: 'Provvigione', right: true }, { label: 'Importo', right: true }, { label: 'Riferimento' }, { label: 'Approvata il' }]}
            rows={awaitingItems}
            cells={(r) => (
              <>
                <td className={`${num} ${CARD_LABEL}`} data-label="Provvigione">
                  {formatDecimal(r.requestedCommissionPercentage)}%
                </td>
                <td className={`${num} ${CARD_LABEL}`} data-label="Importo">
                  {formatEuroCents(r.commissionAmount)}
                </td>
                <td className={`${td} font-mono ${CARD_LABEL}`} data-label="Riferimento">
                  {r.reference}
                </td>
                <td className={`${td} sm:whitespace-nowrap ${CARD_LABEL}`} data-label="Approvata il">
                  {r.approvedAt ? <time dateTime={r.approvedAt}>{formatDateTime(r.approvedAt)}</time> : '—'}
                </td>
                <td className={`${td} max-sm:pt-2`}>
                  <Button size="sm" variant="secondary" onClick={() => setConfirmPaid(r)} disabled={decide.isPending} aria-label={`Segna come pagata la richiesta ${r.reference} di ${r.agentName}`} data-testid="agent-request-paid">
                    <Banknote aria-hidden="true" className="size-4" />
                    Segna come pagata
                  </Button>
                </td>
              </>
            )}
          />
        )}

      </div>

      {(pendingItems.length > 0 || awaitingItems.length > 0) && <h2 className="mt-8 text-xl font-bold">Tutte le opzioni di acquisto</h2>}

      <Dialog
        open={confirmPaid !== null}
        onClose={() => {
          if (!decide.isPending) setConfirmPaid(null);
        }}
        title="Segna come pagata"
        description={confirmPaid ? `${confirmPaid.agentName}, ${place(confirmPaid)}` : undefined}
        footer={
          confirmPaid && (
            <>
              <Button variant="outline" onClick={() => setConfirmPaid(null)} disabled={decide.isPending}>
                Annulla
              </Button>
              <Button onClick={() => decide.mutate({ r: confirmPaid, action: 'paid' })} loading={decide.isPending} data-testid="agent-request-paid-confirm">
                Conferma pagamento
              </Button>
            </>
          )
        }
      >
        {confirmPaid && (
          <p className="text-slate-800">
            Confermi di aver ricevuto il bonifico di <strong>{formatEuroCents(confirmPaid.commissionAmount)}</strong> con causale{' '}
            <strong className="font-mono">{confirmPaid.reference}</strong>? L&apos;opzione passa all&apos;agente e le altre richieste su
            questa opzione vengono rifiutate (con un&apos;e-mail ai loro agenti).
          </p>
        )}
      </Dialog>
    </>
  );
}
