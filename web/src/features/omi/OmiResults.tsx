import { Link } from 'react-router-dom';
import type { UseQueryResult } from '@tanstack/react-query';
import { SearchX } from 'lucide-react';
import { Button, LoadingState, Spinner } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import type { Quotation, QuotationPage } from './api';
import { euroOrDash, formatNumber } from './format';
import { StatoBadge } from './StatoBadge';

export const LOAD_ERROR_TITLE = 'Errore nel caricamento dei dati';

/** The bar above the results: how many records, "Aggiornamento..." while a page loads, which page. */
export function OmiResultsSummary({ data, updating }: { data: QuotationPage | undefined; updating: boolean }) {
  const total = data?.total ?? 0;
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-b border-slate-200 px-4 py-3 sm:px-6">
      <p className="font-semibold text-brand-navy" data-testid="omi-total" aria-live="polite">
        {data ? `${formatNumber(total)} ${total === 1 ? 'record trovato' : 'record trovati'}` : '\u00a0'}
      </p>
      <p className="flex items-center gap-2 text-sm text-slate-700">
        {updating && (
          <span className="inline-flex items-center gap-1.5 text-slate-600">
            <Spinner className="size-4" />
            <span>Aggiornamento...</span>
          </span>
        )}
        {data && <span data-testid="omi-page-label">{`Pagina ${formatNumber(data.page)} di ${formatNumber(data.pages)}`}</span>}
      </p>
    </div>
  );
}

/** The results: loading, the error (with "Riprova"), the table or why it is empty. */
export function OmiResults({
  query,
  page,
  updating,
  anyFilter,
  onGoTo,
}: {
  query: UseQueryResult<QuotationPage>;
  page: number;
  updating: boolean;
  anyFilter: boolean;
  onGoTo: (page: number) => void;
}) {
  const data = query.data;
  if (query.isPending) return <LoadingState label="Caricamento dei dati OMI..." className="min-h-64" />;
  if (query.isError && !data) {
    return (
      <div role="alert" className="flex min-h-64 flex-col items-center justify-center gap-3 p-6 text-center">
        <p className="font-semibold text-red-800">{LOAD_ERROR_TITLE}</p>
        <p className="text-sm text-slate-700">{errorMessage(query.error)}</p>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          Riprova
        </Button>
      </div>
    );
  }
  const showing = data && data.page === page ? data : undefined;
  const pages = data?.pages ?? 1;
  // a page past the end (data cleared or filtered meanwhile): offer the last one
  const pastEnd = !!showing && showing.items.length === 0 && showing.total > 0;
  return (
    <>
      {query.isError && (
        <p role="alert" className="border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800 sm:px-6">
          {LOAD_ERROR_TITLE}: {errorMessage(query.error)}
        </p>
      )}
      {data && data.items.length > 0 ? (
        <QuotationTable items={data.items} busy={updating} caption={`Dati OMI, pagina ${page} di ${pages}`} />
      ) : (
        <OmiEmpty pastEnd={pastEnd} anyFilter={anyFilter} onLastPage={() => onGoTo(pages)} />
      )}
    </>
  );
}

function OmiEmpty({ pastEnd, anyFilter, onLastPage }: { pastEnd: boolean; anyFilter: boolean; onLastPage: () => void }) {
  return (
    <div className="flex min-h-48 flex-col items-center justify-center gap-2 p-6 text-center text-slate-700" data-testid="omi-empty">
      <SearchX aria-hidden="true" className="size-8 text-slate-500" />
      <p className="font-semibold text-slate-900">Nessun dato trovato</p>
      {pastEnd ? (
        <Button variant="outline" size="sm" onClick={onLastPage}>
          Vai all&apos;ultima pagina
        </Button>
      ) : anyFilter ? (
        <p className="text-sm">Prova a modificare o azzerare i filtri.</p>
      ) : (
        <p className="text-sm">
          Non ci sono quotazioni: importa un file dalla pagina{' '}
          <Link to="/omi-import" className="font-semibold text-brand-navy underline">
            Importazione Dati OMI
          </Link>
          .
        </p>
      )}
    </div>
  );
}

const th = 'px-3 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 first:pl-4 last:pr-4 sm:first:pl-6 sm:last:pr-6';
const td = 'px-3 py-3 align-top first:pl-4 last:pr-4 sm:first:pl-6 sm:last:pr-6 group-hover:bg-slate-50';
/** the comune stays in view while the table scrolls sideways on a phone */
const stickyCol = 'sticky left-0 z-10 max-w-40 break-words shadow-[1px_0_0_0_var(--color-slate-200)] md:static md:max-w-none md:shadow-none';

function QuotationTable({ items, busy, caption }: { items: Quotation[]; busy: boolean; caption: string }) {
  return (
    // a focusable region, so a keyboard can scroll it on a phone
    <div role="region" aria-label="Tabella dei dati OMI" tabIndex={0} className="overflow-x-auto focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-navy focus-visible:outline-none">
      <table className={cn('w-full min-w-[820px] border-collapse text-sm', busy && 'opacity-60')} aria-busy={busy} data-testid="omi-table">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={cn(th, stickyCol, 'bg-slate-50')}>Comune</th>
            <th scope="col" className={th}>Prov</th>
            <th scope="col" className={th}>Zona</th>
            <th scope="col" className={th}>Tipologia</th>
            <th scope="col" className={th}>Stato</th>
            <th scope="col" className={cn(th, 'text-right')}>Min €/mq</th>
            <th scope="col" className={cn(th, 'text-right')}>Max €/mq</th>
            <th scope="col" className={th}>Semestre</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((q) => (
            <tr key={q.id} className="group" data-testid="omi-row">
              <td className={cn(td, stickyCol, 'bg-white font-medium text-slate-900 group-hover:bg-slate-50')}>{q.comuneDescrizione}</td>
              <td className={td}>{q.provincia}</td>
              <td className={td}>
                <span className="font-medium text-slate-900">{q.zona}</span>
                <span className="block whitespace-nowrap text-xs text-slate-600">
                  Fascia {q.fascia}
                  {q.fasciaDescr && q.fasciaDescr !== q.fascia ? ` · ${q.fasciaDescr}` : ''}
                </span>
              </td>
              <td className={cn(td, 'whitespace-nowrap')}>{q.descrTipologia}</td>
              <td className={td}>
                <StatoBadge stato={q.stato} />
              </td>
              <td className={cn(td, 'whitespace-nowrap text-right tabular-nums')}>{euroOrDash(q.comprMin)}</td>
              <td className={cn(td, 'whitespace-nowrap text-right tabular-nums')}>{euroOrDash(q.comprMax)}</td>
              <td className={cn(td, 'whitespace-nowrap')}>{q.semestre}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
