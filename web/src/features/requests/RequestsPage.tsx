import { Fragment, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ChevronDown, ClipboardList, Inbox, RotateCcw, Search, Trash2 } from 'lucide-react';
import { formatDateTime, formatEuro } from '@domain/format';
import { LIFECYCLE_LABELS, SEARCH_MIN_LENGTH, type Lifecycle } from '@domain/requests';
import { Badge, Button, CARD_LABEL, Card, CardTable, EmptyState, ErrorState, Field, Input, LoadingState, buttonClass, type BadgeVariant } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { usePageTitle } from '@/lib/use-page-title';
import { listSources, sourceKeys } from '@/lib/sources';
import { deleteRequest, listRequests, requestKeys, type RequestList, type RequestListItem } from './api';
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

/** The search sent to the server: trimmed, only from 2 characters on. */
function useDebouncedSearch(text: string): string {
  const [value, setValue] = useState('');
  useEffect(() => {
    const t = setTimeout(() => {
      const q = text.trim();
      setValue(q.length >= SEARCH_MIN_LENGTH ? q : '');
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);
  return value;
}

const fullName = (r: RequestListItem) => `${r.firstName} ${r.lastName}`.trim() || r.email || 'senza nome';

/** Dashboard Admin (/admin): every request newest first, search, details, media, assignment, deletion. */
export default function RequestsPage() {
  usePageTitle('Dashboard Admin');
  const [text, setText] = useState('');
  const q = useDebouncedSearch(text);
  const tooShort = text.trim().length > 0 && text.trim().length < SEARCH_MIN_LENGTH;

  const query = useInfiniteQuery({
    queryKey: requestKeys.list(q),
    queryFn: ({ pageParam, signal }) => listRequests({ q: q || undefined, cursor: pageParam }, signal),
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

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 sm:py-10">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">Dashboard Admin</h1>
          <p className="mt-2 text-slate-700">Tutte le richieste di valutazione, dalla più recente.</p>
        </div>
        {/* a line tall even before the total arrives: the page below does not move */}
        <p className="min-h-8 text-slate-800" aria-live="polite" data-testid="requests-total">
          {query.isPlaceholderData ? (
            <span className="text-slate-600">Ricerca in corso...</span>
          ) : (
            total !== undefined && (
              <>
                <strong className="text-2xl text-brand-navy tabular-nums">{total}</strong>{' '}
                {q ? (total === 1 ? 'richiesta trovata' : 'richieste trovate') : total === 1 ? 'richiesta in totale' : 'richieste in totale'}
              </>
            )
          )}
        </p>
      </div>

      <SourcesPanel />

      <div className="mt-6">
        <div className="min-w-0 space-y-4">
          <form role="search" aria-label="Cerca richieste" onSubmit={(e) => e.preventDefault()}>
            <Field
              label="Cerca per nome, email o comune"
              hint={tooShort ? `Scrivi almeno ${SEARCH_MIN_LENGTH} caratteri per cercare` : undefined}
            >
              <div className="relative">
                <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-500" />
                <Input
                  type="search"
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                  placeholder="Es. Rossi, mario@esempio.it, Milano"
                  className="pl-10"
                  autoComplete="off"
                  data-testid="requests-search"
                />
              </div>
            </Field>
          </form>

          <Card className="overflow-hidden" aria-busy={query.isFetching && !query.isFetchingNextPage}>
            {query.isPending ? (
              <LoadingState label="Caricamento delle richieste..." className="min-h-48" />
            ) : query.isError ? (
              <ErrorState title={LOAD_ERROR} error={query.error} onRetry={() => void query.refetch()} testId="requests-error" />
            ) : items.length === 0 ? (
              <EmptyState icon={Inbox} title="Nessuna richiesta" testId="requests-empty">
                <p className="text-sm text-slate-600">
                  {q ? 'Nessuna richiesta corrisponde alla ricerca.' : 'Le richieste di valutazione compariranno qui.'}
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

function SourcesPanel() {
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
              <li key={s.id} className="inline-flex items-center gap-2 rounded-full border border-slate-200 bg-slate-50 py-1 pr-1 pl-3">
                <span className="break-words text-slate-800">{s.name}</span>
                <span className="rounded-full bg-brand-navy px-2 py-0.5 text-xs font-semibold text-white tabular-nums">
                  {s.requests}
                  <span className="sr-only"> {s.requests === 1 ? 'richiesta' : 'richieste'}</span>
                </span>
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

  const th = 'px-3 py-3 text-left font-semibold text-slate-700 whitespace-nowrap';
  const td = 'px-3 py-3 align-middle max-sm:block max-sm:py-0.5';
  return (
    <>
      <CardTable label="Tabella delle richieste" caption="Richieste di valutazione, dalla più recente" testId="requests-table">
        <thead className="bg-slate-50 max-sm:sr-only">
          <tr>
            <th scope="col" className={th}>Data</th>
            <th scope="col" className={th}>Nome</th>
            <th scope="col" className={th}>Cognome</th>
            <th scope="col" className={th}>Email</th>
            <th scope="col" className={`${th} text-right`}>Importo desiderato</th>
            <th scope="col" className={th}>Comune</th>
            <th scope="col" className={th}>Provincia</th>
            <th scope="col" className={th}>Stato</th>
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
                  <td className={`${td} whitespace-nowrap text-slate-700 max-sm:col-span-2 ${CARD_LABEL}`} data-label="Data">
                    <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                  </td>
                  <td className={`${td} font-medium text-slate-900 ${CARD_LABEL}`} data-label="Nome">
                    {r.firstName || '—'}
                  </td>
                  <td className={`${td} font-medium text-slate-900 ${CARD_LABEL}`} data-label="Cognome">
                    {r.lastName || '—'}
                  </td>
                  <td className={`${td} break-all text-slate-700 max-sm:col-span-2 sm:min-w-44 ${CARD_LABEL}`} data-label="Email">
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
                  <td className={`${td} max-sm:col-span-2 max-sm:pt-1.5`}>
                    <Badge variant={LIFECYCLE_VARIANTS[r.lifecycle]} data-testid="request-lifecycle">
                      {LIFECYCLE_LABELS[r.lifecycle]}
                    </Badge>
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
                    <td colSpan={9} className="max-sm:block">
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
