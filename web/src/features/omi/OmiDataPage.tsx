import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, RotateCcw, SearchX, Upload } from 'lucide-react';
import { STATI, TIPOLOGIA_FILTER_OPTIONS } from '@domain/omi/tipologia';
import { Button, Card, CardContent, Field, Input, LoadingState, Select, Spinner } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { usePageTitle } from '@/lib/use-page-title';
import { listQuotations, omiKeys, type Quotation, type QuotationFilters } from './api';
import { euroOrDash, formatNumber } from './format';
import { StatoBadge } from './StatoBadge';
import { useDebouncedValue } from './use-debounced-value';

export const LOAD_ERROR_TITLE = 'Errore nel caricamento dei dati';

const STATO_LABEL: Record<string, string> = { OTTIMO: 'Ottimo', NORMALE: 'Normale', SCADENTE: 'Scadente' };

/** Province codes are two letters: anything else is dropped as it is typed. */
function toProvincia(value: string): string {
  return value
    .toUpperCase()
    .replace(/[^A-Z]/g, '')
    .slice(0, 2);
}

export default function OmiDataPage() {
  usePageTitle('Dati OMI');
  const [comune, setComune] = useState('');
  const [provincia, setProvincia] = useState('');
  const [tipologia, setTipologia] = useState('');
  const [stato, setStato] = useState('');
  const [semestre, setSemestre] = useState('');
  const debouncedComune = useDebouncedValue(comune.trim());
  const debouncedProvincia = useDebouncedValue(provincia);

  const filters: QuotationFilters = useMemo(
    () => ({ comune: debouncedComune, provincia: debouncedProvincia, tipologia, stato, semestre }),
    [debouncedComune, debouncedProvincia, tipologia, stato, semestre],
  );
  // any filter change goes back to page 1: the page belongs to the filters it was chosen with
  const filterKey = JSON.stringify(filters);
  const [paging, setPaging] = useState({ key: filterKey, page: 1 });
  const page = paging.key === filterKey ? paging.page : 1;
  const goTo = (p: number) => setPaging({ key: filterKey, page: Math.max(1, p) });

  const query = useQuery({
    queryKey: omiKeys.quotations(filters, page),
    queryFn: ({ signal }) => listQuotations(filters, page, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const data = query.data;

  // semesters offered by the server (every semester stored), kept while a page loads
  const semesters = useMemo(() => {
    const list = [...(data?.semesters ?? [])];
    if (semestre && !list.includes(semestre)) list.unshift(semestre);
    return list;
  }, [data?.semesters, semestre]);

  const anyFilter = !!(comune || provincia || tipologia || stato || semestre);
  const resetFilters = () => {
    setComune('');
    setProvincia('');
    setTipologia('');
    setStato('');
    setSemestre('');
  };

  const showing = data && data.page === page ? data : undefined;
  const pages = data?.pages ?? 1;
  const total = data?.total ?? 0;
  const from = data && data.items.length ? (data.page - 1) * data.pageSize + 1 : 0;
  const to = data ? from + data.items.length - Math.min(1, data.items.length) : 0;
  const updating = query.isFetching && !!data;
  // a page past the end (data cleared or filtered meanwhile): offer the last one
  const pastEnd = !!showing && showing.items.length === 0 && showing.total > 0;

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">Dati OMI</h1>
          <p className="mt-2 max-w-2xl text-slate-700">
            Quotazioni immobiliari dell&apos;Osservatorio del Mercato Immobiliare (Agenzia Entrate - OMI), dal semestre più
            recente.
          </p>
        </div>
        <Link
          to="/omi-import"
          className="inline-flex items-center gap-1.5 self-start rounded font-semibold text-brand-navy hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy sm:self-auto"
        >
          <Upload aria-hidden="true" className="size-4" />
          Importa dati OMI
        </Link>
      </div>

      <Card className="mt-6">
        <CardContent>
          <form
            role="search"
            aria-label="Filtri dei dati OMI"
            onSubmit={(e) => e.preventDefault()}
            className="grid grid-cols-6 gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,0.8fr)_minmax(0,2fr)_minmax(0,1.3fr)_minmax(0,1.3fr)]"
          >
            <Field label="Comune" id="omi-filter-comune" className="col-span-4 lg:col-span-1">
              <Input
                type="search"
                value={comune}
                onChange={(e) => setComune(e.target.value)}
                placeholder="es. Milano"
                autoComplete="off"
                maxLength={100}
                data-testid="omi-filter-comune"
              />
            </Field>
            <Field label="Provincia" id="omi-filter-provincia" className="col-span-2 lg:col-span-1">
              <Input
                value={provincia}
                onChange={(e) => setProvincia(toProvincia(e.target.value))}
                placeholder="es. MI"
                autoComplete="off"
                autoCapitalize="characters"
                maxLength={2}
                className="uppercase placeholder:normal-case"
                data-testid="omi-filter-provincia"
              />
            </Field>
            <Field label="Tipologia" id="omi-filter-tipologia" className="col-span-6 lg:col-span-1">
              <Select value={tipologia} onChange={(e) => setTipologia(e.target.value)} data-testid="omi-filter-tipologia">
                <option value="">Tutte</option>
                {TIPOLOGIA_FILTER_OPTIONS.map((o) => (
                  <option key={o.codTip} value={String(o.codTip)}>
                    {o.label}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Stato" id="omi-filter-stato" className="col-span-3 lg:col-span-1">
              <Select value={stato} onChange={(e) => setStato(e.target.value)} data-testid="omi-filter-stato">
                <option value="">Tutti</option>
                {STATI.map((s) => (
                  <option key={s} value={s}>
                    {STATO_LABEL[s]}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Semestre" id="omi-filter-semestre" className="col-span-3 lg:col-span-1">
              <Select value={semestre} onChange={(e) => setSemestre(e.target.value)} data-testid="omi-filter-semestre">
                <option value="">Tutti</option>
                {semesters.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </Select>
            </Field>
          </form>
          {anyFilter && (
            <div className="mt-4 flex justify-end">
              <Button variant="ghost" size="sm" onClick={resetFilters} data-testid="omi-filter-reset">
                <RotateCcw aria-hidden="true" className="size-4" />
                Azzera filtri
              </Button>
            </div>
          )}
        </CardContent>
      </Card>

      <Card className="mt-6 overflow-hidden">
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

        {query.isPending ? (
          <LoadingState label="Caricamento dei dati OMI..." className="min-h-64" />
        ) : query.isError && !data ? (
          <div role="alert" className="flex min-h-64 flex-col items-center justify-center gap-3 p-6 text-center">
            <p className="font-semibold text-red-800">{LOAD_ERROR_TITLE}</p>
            <p className="text-sm text-slate-700">{errorMessage(query.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
              Riprova
            </Button>
          </div>
        ) : (
          <>
            {query.isError && (
              <p role="alert" className="border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800 sm:px-6">
                {LOAD_ERROR_TITLE}: {errorMessage(query.error)}
              </p>
            )}
            {data && data.items.length > 0 ? (
              <QuotationTable items={data.items} busy={updating} caption={`Dati OMI, pagina ${page} di ${pages}`} />
            ) : (
              <div className="flex min-h-48 flex-col items-center justify-center gap-2 p-6 text-center text-slate-700" data-testid="omi-empty">
                <SearchX aria-hidden="true" className="size-8 text-slate-500" />
                <p className="font-semibold text-slate-900">Nessun dato trovato</p>
                {pastEnd ? (
                  <Button variant="outline" size="sm" onClick={() => goTo(pages)}>
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
            )}
          </>
        )}

        {data && (
          <nav
            aria-label="Paginazione"
            className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-6"
          >
            <p className="text-sm text-slate-700" data-testid="omi-showing">
              {total > 0 && from > 0 ? `Mostrando ${formatNumber(from)} - ${formatNumber(to)} di ${formatNumber(total)}` : 'Mostrando 0 - 0 di 0'}
            </p>
            <div className="flex gap-2">
              <Button
                variant="outline"
                size="sm"
                onClick={() => goTo(page - 1)}
                disabled={page <= 1}
                className="flex-1 sm:flex-none"
                data-testid="omi-prev"
              >
                <ChevronLeft aria-hidden="true" className="size-4" />
                Precedente
              </Button>
              <Button
                variant="outline"
                size="sm"
                onClick={() => goTo(page + 1)}
                disabled={page >= pages}
                className="flex-1 sm:flex-none"
                data-testid="omi-next"
              >
                Successiva
                <ChevronRight aria-hidden="true" className="size-4" />
              </Button>
            </div>
          </nav>
        )}
      </Card>
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
