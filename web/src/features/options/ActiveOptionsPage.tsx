import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CheckCircle2, FileSearch, FileX2, Pencil } from 'lucide-react';
import { formatDate, formatDecimal, formatEuro } from '@domain/format';
import { FINAL_OPTION_STATES } from '@domain/option-lifecycle';
import { optionExpiryLabel, optionRateLabel, paymentTypeLabel, REVIEW_MESSAGES, salePriceOf } from '@domain/review/rules';
import { Badge, Button, CARD_LABEL, Card, CardTable, EmptyState, ErrorState, LoadingState, buttonClass } from '@/components/ui';
import { OptionStateBadge } from '@/components/option-state/OptionStateBadge';
import { errorMessage } from '@/lib/api';
import { usePageTitle } from '@/lib/use-page-title';
import { listOptions, optionKeys, updateOption, type OptionListItem } from './api';
import { AgentRequestsSection } from './AgentRequestsSection';
import { EditOptionDialog, type EditOptionValues } from './EditOptionDialog';

/**
 * Opzioni di Acquisto Attive (admin only): every option newest first, edit and details;
 * `?property={id}` (the Istruttoria's links) shows only that property's option and agent requests.
 */
export default function ActiveOptionsPage() {
  usePageTitle('Opzioni di Acquisto Attive');
  const [params] = useSearchParams();
  const propertyId = params.get('property') || undefined;
  const query = useQuery({ queryKey: optionKeys.all, queryFn: ({ signal }) => listOptions(signal) });
  const options = propertyId ? query.data?.items.filter((o) => o.propertyId === propertyId) : query.data?.items;
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold sm:text-3xl">Opzioni di Acquisto Attive</h1>
      <p className="mt-2 max-w-2xl text-slate-700">
        Tutte le opzioni di acquisto, dalla più recente: condizioni, firma e stato.{' '}
        <Link to="/activity" className="font-medium text-brand-navy underline underline-offset-2" data-testid="activity-link">
          Vedi tutte le attività
        </Link>
      </p>
      {propertyId && (
        <div role="note" className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-xl border border-slate-200 bg-slate-50 px-4 py-3 text-sm" data-testid="options-property-filter">
          <span className="text-slate-800">Solo l&apos;opzione e le richieste degli agenti di un immobile.</span>
          <Link to={`/investigation/${encodeURIComponent(propertyId)}`} className="font-medium text-brand-navy underline">
            Istruttoria dell&apos;immobile
          </Link>
          <Link to="/active-options" className="font-medium text-brand-navy underline">
            Mostra tutte le opzioni
          </Link>
        </div>
      )}
      <AgentRequestsSection propertyId={propertyId} />
      <Card className="mt-6 overflow-hidden">
        {query.isPending ? (
          <LoadingState label="Caricamento delle opzioni..." className="min-h-48" />
        ) : query.isError ? (
          <ErrorState title={REVIEW_MESSAGES.optionsLoadFailed} error={query.error} onRetry={() => void query.refetch()} testId="options-error" />
        ) : options && options.length > 0 ? (
          <OptionsTable options={options} />
        ) : (
          <EmptyState icon={FileX2} title={REVIEW_MESSAGES.noOptions} testId="options-empty" />
        )}
      </Card>
    </div>
  );
}

function OptionsTable({ options }: { options: OptionListItem[] }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<OptionListItem | null>(null);
  const save = useMutation({
    mutationFn: ({ option, values }: { option: OptionListItem; values: EditOptionValues }) =>
      updateOption(option.propertyId, values),
    onSuccess: () => {
      setEditing(null);
      toast.success(REVIEW_MESSAGES.optionUpdated);
    },
    onError: (err) => toast.error(REVIEW_MESSAGES.optionUpdateFailed, { description: errorMessage(err) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: optionKeys.all }),
  });

  const th = 'px-2 py-3 text-left align-bottom font-semibold text-slate-700';
  const td = 'px-2 py-3 align-middle max-sm:block max-sm:py-1';
  const num = `${td} text-right tabular-nums sm:whitespace-nowrap max-sm:text-left`;
  return (
    <>
      <CardTable label="Tabella delle opzioni di acquisto" caption="Opzioni di acquisto, dalla più recente" minWidth="sm:min-w-[1080px]" className="px-1" testId="options-table">
        <thead className="bg-slate-50 max-sm:sr-only">
          <tr>
            <th scope="col" className={th}>Immobile</th>
            <th scope="col" className={th}>Venditore</th>
            <th scope="col" className={th}>Agente</th>
            <th scope="col" className={`${th} text-right`}>Valore</th>
            <th scope="col" className={`${th} text-right`}>Importo opzione</th>
            <th scope="col" className={th}>Pagamento</th>
            <th scope="col" className={`${th} text-right`}>Cond. agenti</th>
            <th scope="col" className={`${th} text-right`}>% vendita</th>
            <th scope="col" className={`${th} text-right`}>Prezzo di vendita</th>
            <th scope="col" className={`${th} text-right`}>Cond. minima</th>
            <th scope="col" className={th}>Firma</th>
            <th scope="col" className={th}>Stato</th>
            <th scope="col" className={th}>
              <span className="sr-only">Azioni</span>
            </th>
          </tr>
        </thead>
        <tbody className="max-sm:block">
          {options.map((o) => {
            const seller = `${o.sellerFirstName} ${o.sellerLastName}`.trim() || '—';
            // the agents' terms are edited until an agent has the option or it is closed
            const editable = o.status !== 'assigned' && !FINAL_OPTION_STATES.includes(o.status);
            return (
              <tr
                key={o.id}
                className="border-t border-slate-200 max-sm:grid max-sm:grid-cols-1 max-sm:py-3 max-sm:first:border-t-0"
                data-testid="option-row"
                data-property-id={o.propertyId}
              >
                <th scope="row" className={`${td} max-w-48 text-left font-medium text-slate-900 max-sm:max-w-none`}>
                  {o.propertyAddress}
                  {o.propertyCity && <span className="block font-normal text-slate-600">{o.propertyCity}</span>}
                </th>
                <td className={`${td} ${CARD_LABEL}`} data-label="Venditore">
                  {seller}
                </td>
                <td className={`${td} ${CARD_LABEL}`} data-label="Agente">
                  {o.agentName ? <Badge variant="secondary">{o.agentName}</Badge> : '-'}
                </td>
                <td className={`${num} ${CARD_LABEL}`} data-label="Valore">
                  {formatEuro(o.propertyValue)}
                </td>
                <td className={`${num} ${CARD_LABEL}`} data-label="Importo opzione">
                  {formatEuro(o.optionAmount)}
                  <span className="block text-xs font-normal text-slate-600" data-testid="option-rate">
                    {optionRateLabel(o.optionDuration)}
                  </span>
                </td>
                <td className={`${td} ${CARD_LABEL}`} data-label="Pagamento" data-testid="option-payment">
                  {paymentTypeLabel(o.paymentType)}
                </td>
                <td className={`${num} ${CARD_LABEL}`} data-label="Condivisione agenti" data-testid="option-agent-pct">
                  {formatDecimal(o.agentCommissionPercentage)}%
                </td>
                <td className={`${num} ${CARD_LABEL}`} data-label="% prezzo di vendita" data-testid="option-sale-pct">
                  {formatDecimal(o.salePricePercentage)}%
                </td>
                <td className={`${num} ${CARD_LABEL}`} data-label="Prezzo di vendita" data-testid="option-sale-price">
                  {formatEuro(salePriceOf(o.propertyValue, o.salePricePercentage))}
                </td>
                <td className={`${num} ${CARD_LABEL}`} data-label="Condivisione minima">
                  {formatDecimal(o.minAgentCommissionPercentage)}%
                </td>
                <td className={`${td} sm:whitespace-nowrap ${CARD_LABEL}`} data-label="Firma">
                  {o.signedAt ? (
                    <span className="inline-flex items-center gap-1 text-green-800">
                      <CheckCircle2 aria-hidden="true" className="size-4" />
                      <time dateTime={o.signedAt}>{formatDate(o.signedAt)}</time>
                    </span>
                  ) : (
                    'In attesa'
                  )}
                  {o.signedAt && (
                    <span className="block text-xs text-slate-600" data-testid="option-expiry">
                      Scadenza: {optionExpiryLabel(o)}
                    </span>
                  )}
                </td>
                <td className={`${td} ${CARD_LABEL}`} data-label="Stato">
                  <OptionStateBadge status={o.status} />
                </td>
                <td className={`${td} max-sm:pt-2`}>
                  <div className="flex gap-2 sm:flex-col sm:items-stretch">
                    {editable && (
                      <Button variant="outline" size="sm" onClick={() => setEditing(o)} aria-label={`Modifica l'opzione di ${o.propertyAddress}`} data-testid="option-edit">
                        <Pencil aria-hidden="true" className="size-4" />
                        Modifica
                      </Button>
                    )}
                    <Link
                      to={`/investigation/${o.propertyId}`}
                      className={buttonClass('outline', 'sm')}
                      aria-label={`Dettagli dell'immobile ${o.propertyAddress}`}
                      data-testid="option-details"
                    >
                      <FileSearch aria-hidden="true" className="size-4" />
                      Dettagli
                    </Link>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </CardTable>
      <EditOptionDialog
        option={editing}
        saving={save.isPending}
        onClose={() => {
          if (!save.isPending) setEditing(null);
        }}
        onSave={(values) => editing && save.mutate({ option: editing, values })}
      />
    </>
  );
}
