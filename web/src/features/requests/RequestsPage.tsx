import { Fragment, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ChevronDown, ClipboardList, FunnelX, Inbox, RotateCcw, Search, Trash2 } from 'lucide-react';
import { formatDateTime, formatEuro, formatNumber } from '@domain/format';
import { LIFECYCLE, LIFECYCLE_LABELS, SEARCH_MIN_LENGTH, type Lifecycle } from '@domain/requests';
import {
  DELETED_SOURCE_LABEL,
  NO_SOURCE,
  NO_SOURCE_LABEL,
  nextActionOf,
  readRequestFilters,
  REQUEST_SORT_LABELS,
  REQUEST_SORTS,
  requestFilterParams,
  type RequestFilters,
  type RequestSort,
} from '@domain/request-list';
import { Badge, Button, CARD_LABEL, Card, CardTable, EmptyState, ErrorState, Field, Input, LoadingState, Select, buttonClass, type BadgeVariant } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { usePageTitle } from '@/lib/use-page-title';
import { listSources, sourceKeys } from '@/lib/sources';
import { deleteRequest, listRequests, requestKeys, type RequestList, type RequestListItem } from './api';
import { DateRangeFilter } from './DateRangeFilter';
import { DeleteRequestDialog } from './RequestDialogs';
import { RequestDetails } from './RequestDetails';

export const LOAD_ERROR = 'Impossibile caricare le richieste';
const SEARCH_DEBOUNCE_MS = 350;

const LIFECYCLE_VARIANTS: Record<Lifecycle, BadgeVariant> = {
  nuova: 'secondary',
  valutata: 'outline',
  stima_inviata: 'warning',
  opzione_creata: 'default',
  opzione_firmata: 'success',
};

const fullName = (r: RequestListItem) => `${r.firstName} ${r.lastName}`.trim() || r.email || 'senza nome';

/**
 * The filters live in the URL's query string (a reload, a shared link and the way back from
 * the Istruttoria keep them); every change replaces the entry instead of adding history.
 */
function useUrlFilters(): [RequestFilters, (patch: Partial<RequestFilters> | null) => void] {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readRequestFilters(params), [params]);
  const update = useCallback(
    (patch: Partial<RequestFilters> | null) =>
      setParams((prev) => new URLSearchParams(patch ? requestFilterParams({ ...readRequestFilters(prev), ...patch }) : {}), { replace: true }),
    [setParams],
  );
  return [filters, update];
}

/** Dashboard Admin (/admin): every request, search, filters and sorts, details, media, assignment, deletion. */
export default function RequestsPage() {
  usePageTitle('Dashboard Admin');
  const [filters, setFilters] = useUrlFilters();
  const [text, setText] = useState(filters.q ?? '');
  const tooShort = text.trim().length > 0 && text.trim().length < SEARCH_MIN_LENGTH;

  // the text typed goes to the URL a moment after the last key (from 2 characters on)
  useEffect(() => {
    const t = setTimeout(() => {
      const q = text.trim();
      const next = q.length >= SEARCH_MIN_LENGTH ? q : undefined;
      if (next !== filters.q) setFilters({ q: next });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, filters.q, setFilters]);

  // what the server is asked: a search only from 2 characters on (a hand-written URL may have less)
  const asked = useMemo<RequestFilters>(() => ({ ...filters, q: filters.q && filters.q.length >= SEARCH_MIN_LENGTH ? filters.q : undefined }), [filters]);
  const narrowed = Boolean(asked.q || asked.state || asked.source || asked.from || asked.to);

  const query = useInfiniteQuery({
    queryKey: requestKeys.list(asked),
    queryFn: ({ pageParam, signal }) => listRequests({ ...asked, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: RequestList) => last.nextCursor,
    // a new search keeps the current rows on screen until its answer arrives
    placeholderData: keepPreviousData,
  });
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const total = query.data?.pages[0]?.total;

  useEffect(() => {
    if (query.isError) toast.error(LOAD_ERROR, { description: errorMessage(query.error), id: 'requests-load' });
  }, [query.isError, query.error]);

  const reset = () => {
    setText('');
    setFilters(null);
  };

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 sm:py-10">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">Dashboard Admin</h1>
          <p className="mt-2 text-slate-700">
            Tutte le richieste di valutazione: cerca, filtra per stato, fonte e periodo, ordina.{' '}
            <Link to="/activity" className="font-medium text-brand-navy underline underline-offset-2" data-testid="requests-activity-link">
              Attività recenti
            </Link>
          </p>
        </div>
        {/* a line tall even before the total arrives: the page below does not move */}
        <p className="min-h-8 text-slate-800" aria-live="polite" data-testid="requests-total">
          {query.isPlaceholderData ? (
            <span className="text-slate-600">Ricerca in corso...</span>
          ) : (
            total !== undefined && (
              <>
                <strong className="text-2xl text-brand-navy tabular-nums">{formatNumber(total)}</strong>{' '}
                {narrowed ? (total === 1 ? 'richiesta trovata' : 'richieste trovate') : total === 1 ? 'richiesta in totale' : 'richieste in totale'}
              </>
            )
          )}
        </p>
      </div>

      <SourcesPanel filters={filters} />

      <div className="mt-6">
        <div className="min-w-0 space-y-4">
          <form role="search" aria-label="Cerca e filtra le richieste" onSubmit={(e) => e.preventDefault()} className="space-y-3" data-testid="requests-filters">
            <Field
              label="Cerca per nome, email, comune, indirizzo, telefono o codice richiesta"
              hint={tooShort ? `Scrivi almeno ${SEARCH_MIN_LENGTH} caratteri per cercare` : undefined}
            >
              <div className="relative">
                <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-500" />
                <Input
                  type="search"
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                  placeholder="Es. Rossi, Via Roma 12, 333 1234567"
                  className="pl-10"
                  autoComplete="off"
                  data-testid="requests-search"
                />
              </div>
            </Field>
            <Filters filters={filters} onChange={setFilters} />
            {(narrowed || filters.sort) && (
              <Button variant="ghost" size="sm" onClick={reset} data-testid="requests-reset">
                <FunnelX aria-hidden="true" className="size-4" />
                Azzera ricerca e filtri
              </Button>
            )}
          </form>

          <Card className="overflow-hidden" aria-busy={query.isFetching && !query.isFetchingNextPage}>
            {query.isPending ? (
              <LoadingState label="Caricamento delle richieste..." className="min-h-48" />
            ) : query.isError ? (
              <ErrorState title={LOAD_ERROR} error={query.error} onRetry={() => void query.refetch()} testId="requests-error" />
            ) : items.length === 0 ? (
              <EmptyState icon={Inbox} title="Nessuna richiesta" testId="requests-empty">
                <p className="text-sm text-slate-600">
                  {narrowed ? 'Nessuna richiesta corrisponde alla ricerca e ai filtri.' : 'Le richieste di valutazione compariranno qui.'}
                </p>
              </EmptyState>
            ) : (
              <RequestsTable items={items} />
            )}
          </Card>

          {query.hasNextPage && (
            <div className="flex justify-center">
              <Button variant="outline" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage} data-testid="requests-more">
                Carica altre
              </Button>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

/** State, source, period and order; each applies at once. */
function Filters({ filters, onChange }: { filters: RequestFilters; onChange: (patch: Partial<RequestFilters>) => void }) {
  const sources = useQuery({ queryKey: sourceKeys.all, queryFn: ({ signal }) => listSources(signal) });
  const list = [...(sources.data?.items ?? [])].sort((a, b) => a.name.localeCompare(b.name, 'it'));
  // a link to a source deleted since: the select still says which one is applied
  const unknownSource = filters.source && filters.source !== NO_SOURCE && sources.data && !list.some((s) => s.id === filters.source);
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Field label="Stato">
        <Select value={filters.state ?? ''} onChange={(e) => onChange({ state: (e.target.value || undefined) as Lifecycle | undefined })} data-testid="requests-state">
          <option value="">Tutti gli stati</option>
          {LIFECYCLE.map((s) => (
            <option key={s} value={s}>
              {LIFECYCLE_LABELS[s]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Fonte">
        <Select value={filters.source ?? ''} onChange={(e) => onChange({ source: e.target.value || undefined })} data-testid="requests-source">
          <option value="">Tutte le fonti</option>
          <option value={NO_SOURCE}>{NO_SOURCE_LABEL}</option>
          {list.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
          {unknownSource && <option value={filters.source}>{DELETED_SOURCE_LABEL}</option>}
        </Select>
      </Field>
      <DateRangeFilter className="max-sm:col-span-2" from={filters.from} to={filters.to} onChange={(period) => onChange({ from: period.from, to: period.to })} />
      <Field label="Ordina per" className="max-sm:col-span-2">
        <Select value={filters.sort ?? 'newest'} onChange={(e) => onChange({ sort: e.target.value as RequestSort })} data-testid="requests-sort">
          {REQUEST_SORTS.map((s) => (
            <option key={s} value={s}>
              {REQUEST_SORT_LABELS[s]}
            </option>
          ))}
        </Select>
      </Field>
    </div>
  );
}

function SourcesPanel({ filters }: { filters: RequestFilters }) {
  const sources = useQuery({ queryKey: sourceKeys.all, queryFn: ({ signal }) => listSources(signal) });
  const list = [...(sources.data?.items ?? [])].sort((a, b) => b.requests - a.requests || a.name.localeCompare(b.name, 'it'));
  return (
    <section aria-labelledby="sources-panel-title" className="mt-6 rounded-2xl border border-slate-200 bg-white px-4 py-3 shadow-sm sm:px-5">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
        <h2 id="sources-panel-title" className="shrink-0 text-base font-bold text-brand-navy">
          Richieste per fonte
        </h2>
        {sources.isPending ? (
          <p role="status" className="text-sm leading-8 text-slate-600">
            Caricamento delle fonti...
          </p>
        ) : sources.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-2 text-sm">
            <span className="text-red-700">Impossibile caricare le fonti</span>
            <Button variant="outline" size="sm" onClick={() => void sources.refetch()}>
              <RotateCcw aria-hidden="true" className="size-4" />
              Riprova
            </Button>
          </div>
        ) : list.length === 0 ? (
          <p className="text-sm leading-8 text-slate-600">
            Nessuna fonte.{' '}
            <Link to="/sources" className="font-medium text-brand-navy underline">
              Crea una fonte
            </Link>
          </p>
        ) : (
          <ul className="flex min-h-8 flex-wrap items-center gap-2 text-sm" data-testid="sources-panel">
            {list.map((s) => (
              <li key={s.id}>
                <Link
                  to={{ search: `?${new URLSearchParams(requestFilterParams({ ...filters, source: s.id }))}` }}
                  replace
                  aria-current={filters.source === s.id ? 'true' : undefined}
                  title={`Mostra le richieste della fonte ${s.name}`}
                  className={cn(
                    'inline-flex items-center gap-2 rounded-full border py-1 pr-1 pl-3 hover:border-brand-navy focus-visible:ring-2 focus-visible:ring-brand-navy focus-visible:outline-none',
                    filters.source === s.id ? 'border-brand-navy bg-brand-navy/10' : 'border-slate-200 bg-slate-50',
                  )}
                  data-testid="sources-panel-link"
                >
                  <span className="break-words text-slate-800">
                    <span className="sr-only">Mostra le richieste della fonte </span>
                    {s.name}
                  </span>
                  <span className="rounded-full bg-brand-navy px-2 py-0.5 text-xs font-semibold text-white tabular-nums">
                    {formatNumber(s.requests)}
                    <span className="sr-only"> {s.requests === 1 ? 'richiesta' : 'richieste'}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function RequestsTable({ items }: { items: RequestListItem[] }) {
  const queryClient = useQueryClient();
  const location = useLocation();
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [target, setTarget] = useState<RequestListItem | null>(null);

  const toggle = (id: string) =>
    setExpanded((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const remove = useMutation({
    mutationFn: ({ item, typed }: { item: RequestListItem; typed: string }) => deleteRequest(item.id, typed),
    onSuccess: (_, { item }) => {
      setTarget(null);
      toast.success('Richiesta eliminata con successo', { description: `${fullName(item)} - ${item.address}` });
      queryClient.removeQueries({ queryKey: requestKeys.dossier(item.id) });
    },
    onError: (err) => {
      setTarget(null);
      toast.error('Impossibile eliminare la richiesta', { description: errorMessage(err) });
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: requestKeys.all });
      void queryClient.invalidateQueries({ queryKey: sourceKeys.all });
    },
  });

  const th = 'px-2.5 py-3 text-left align-bottom font-semibold text-slate-700 whitespace-nowrap';
  // a long header on two lines (its column's values are short)
  const wrap = 'px-2.5 py-3 text-left align-bottom font-semibold text-slate-700';
  const td = 'px-3 py-3 align-middle max-sm:block max-sm:py-0.5 sm:px-2.5';
  return (
    <>
      <CardTable label="Tabella delle richieste" caption="Richieste di valutazione" testId="requests-table">
        <thead className="bg-slate-50 max-sm:sr-only">
          <tr>
            <th scope="col" className={th}>Data</th>
            <th scope="col" className={th}>Nome</th>
            <th scope="col" className={th}>Cognome</th>
            <th scope="col" className={th}>Email</th>
            <th scope="col" className={`${wrap} text-right`}>Importo desiderato</th>
            <th scope="col" className={th}>Comune</th>
            <th scope="col" className={th}>
              <abbr title="Provincia" className="no-underline">
                Prov.
              </abbr>
            </th>
            <th scope="col" className={th}>Fonte</th>
            <th scope="col" className={wrap}>Stato e prossima azione</th>
            <th scope="col" className={th}>
              <span className="sr-only">Azioni</span>
            </th>
          </tr>
        </thead>
        <tbody className="max-sm:block">
          {items.map((r) => {
            const open = expanded.has(r.id);
            const detailsId = `request-details-${r.id}`;
            const name = fullName(r);
            return (
              <Fragment key={r.id}>
                <tr
                  className={cn(
                    'border-t border-slate-200 max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:py-3 max-sm:first:border-t-0',
                    open && 'bg-slate-50',
                  )}
                  data-testid="request-row"
                  data-request-id={r.id}
                >
                  {/* date and time on two lines from sm up: the actions column stays in view at 1280 px */}
                  <td className={`${td} text-slate-700 max-sm:col-span-2 max-sm:whitespace-nowrap sm:w-24 ${CARD_LABEL}`} data-label="Data">
                    <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                  </td>
                  <td className={`${td} font-medium text-slate-900 ${CARD_LABEL}`} data-label="Nome">
                    {r.firstName || '—'}
                  </td>
                  <td className={`${td} font-medium text-slate-900 ${CARD_LABEL}`} data-label="Cognome">
                    {r.lastName || '—'}
                  </td>
                  <td className={`${td} break-all text-slate-700 max-sm:col-span-2 sm:min-w-40 ${CARD_LABEL}`} data-label="Email">
                    {r.email || '—'}
                  </td>
                  <td className={`${td} text-right whitespace-nowrap tabular-nums max-sm:col-span-2 max-sm:text-left ${CARD_LABEL}`} data-label="Importo desiderato">
                    {r.desiredAmount === null ? '—' : formatEuro(r.desiredAmount)}
                  </td>
                  <td className={`${td} text-slate-700 ${CARD_LABEL}`} data-label="Comune">
                    {r.city ?? '—'}
                  </td>
                  <td className={`${td} text-slate-700 ${CARD_LABEL}`} data-label="Provincia">
                    {r.province ?? '—'}
                  </td>
                  <td className={`${td} text-slate-700 max-sm:col-span-2 sm:max-w-40 ${CARD_LABEL}`} data-label="Fonte" data-testid="request-source">
                    {/* the source's name; 'Fonte eliminata' when it is gone; a dash without one */}
                    {r.sourceId ? (r.sourceName ?? <span className="text-slate-600 italic">{DELETED_SOURCE_LABEL}</span>) : '—'}
                  </td>
                  <td className={`${td} max-sm:col-span-2 max-sm:pt-1.5 sm:min-w-40`}>
                    <Badge variant={LIFECYCLE_VARIANTS[r.lifecycle]} data-testid="request-lifecycle">
                      {LIFECYCLE_LABELS[r.lifecycle]}
                    </Badge>
                    <span className="mt-1 block text-xs text-slate-700 max-sm:inline max-sm:mt-0 max-sm:ml-2" data-testid="request-next-action">
                      <span className="sr-only">Prossima azione: </span>
                      <span aria-hidden="true">→ </span>
                      {nextActionOf(r)}
                    </span>
                  </td>
                  <td className={`${td} max-sm:col-span-2 max-sm:pt-2`}>
                    <div className="flex flex-wrap justify-end gap-1.5 sm:flex-nowrap max-sm:justify-start">
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => toggle(r.id)}
                        aria-expanded={open}
                        aria-controls={open ? detailsId : undefined}
                        aria-label={`${open ? 'Nascondi' : 'Mostra'} i dettagli della richiesta di ${name}`}
                        data-testid="request-expand"
                      >
                        <ChevronDown aria-hidden="true" className={cn('size-4 transition-transform', open && 'rotate-180')} />
                        <span className="sm:sr-only">Dettagli</span>
                      </Button>
                      <Link
                        to={`/investigation/${r.id}`}
                        state={{ back: `/admin${location.search}` }}
                        className={buttonClass('outline', 'sm')}
                        aria-label={`Istruttoria della richiesta di ${name}`}
                        data-testid="request-investigation"
                      >
                        <ClipboardList aria-hidden="true" className="size-4" />
                        Istruttoria
                      </Link>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-red-700"
                        onClick={() => setTarget(r)}
                        aria-label={`Elimina la richiesta di ${name}`}
                        data-testid="request-delete"
                      >
                        <Trash2 aria-hidden="true" className="size-4" />
                        <span className="sm:sr-only">Elimina</span>
                      </Button>
                    </div>
                  </td>
                </tr>
                {open && (
                  <tr id={detailsId} className="border-t border-slate-100 bg-white max-sm:block">
                    <td colSpan={10} className="max-sm:block">
                      <RequestDetails id={r.id} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </CardTable>
      <DeleteRequestDialog
        label={target ? `${fullName(target)} - ${target.address}` : ''}
        open={target !== null}
        deleting={remove.isPending}
        onClose={() => {
          if (!remove.isPending) setTarget(null);
        }}
        onConfirm={(typed) => target && remove.mutate({ item: target, typed })}
      />
    </>
  );
}
