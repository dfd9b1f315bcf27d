import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Check, Copy, Link2, Plus, Trash2 } from 'lucide-react';
import { formatDateTime, formatNumber } from '@domain/format';
import { createSourceInput, sourceLink, SOURCE_NAME_MAX, type CreateSourceInput } from '@domain/sources';
import { Button, CARD_LABEL, Card, CardContent, CardTable, EmptyState, ErrorState, Field, Input, LoadingState } from '@/components/ui';
import { errorMessage, isApiError } from '@/lib/api';
import { usePageTitle } from '@/lib/use-page-title';
import { createSource, deleteSource, listSources, sourceKeys, type SourceListItem } from './api';
import { DeleteSourceDialog } from './DeleteSourceDialog';

export const LOAD_ERROR_TITLE = 'Impossibile caricare le fonti';
const COPIED_FOR_MS = 2000;


/** Gestione Fonti (admin only, see the route guard): create, list with request counts, copy link, delete. */
export default function SourcesPage() {
  usePageTitle('Gestione Fonti');
  const query = useQuery({ queryKey: sourceKeys.all, queryFn: ({ signal }) => listSources(signal) });
  const sources = query.data?.items;

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold sm:text-3xl">Gestione Fonti</h1>
      <p className="mt-2 max-w-2xl text-slate-700">
        Crea un link per ogni canale (volantino, campagna, partner): le richieste di valutazione arrivate da quel link vengono
        conteggiate per la sua fonte.
      </p>

      <Card className="mt-6">
        <CardContent>
          <CreateSourceForm />
        </CardContent>
      </Card>

      <Card className="mt-6 overflow-hidden">
        {query.isPending ? (
          <LoadingState label="Caricamento delle fonti..." className="min-h-48" />
        ) : query.isError ? (
          <ErrorState title={LOAD_ERROR_TITLE} error={query.error} onRetry={() => void query.refetch()} testId="sources-error" />
        ) : sources && sources.length > 0 ? (
          <SourcesTable sources={sources} />
        ) : (
          <EmptyState icon={Link2} title="Nessuna fonte" testId="sources-empty">
            <p className="text-sm text-slate-600">Crea la prima fonte con il modulo qui sopra.</p>
          </EmptyState>
        )}
      </Card>
    </div>
  );
}

function CreateSourceForm() {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<CreateSourceInput>({ resolver: zodResolver(createSourceInput), defaultValues: { name: '' } });

  const create = useMutation({
    mutationFn: createSource,
    onSuccess: (source) => {
      reset({ name: '' });
      toast.success('Fonte creata con successo', { description: source.name });
      void queryClient.invalidateQueries({ queryKey: sourceKeys.all });
    },
    onError: (err) => {
      const fieldError = isApiError(err, 400) ? err.fields?.name : undefined;
      if (fieldError) setError('name', { message: fieldError });
      toast.error('Impossibile creare la fonte', { description: errorMessage(err) });
    },
  });

  return (
    <form
      noValidate
      onSubmit={handleSubmit((values) => create.mutate(values))}
      className="flex flex-col gap-3 sm:flex-row sm:items-start"
      aria-label="Nuova fonte"
    >
      <Field label="Nome della fonte" error={errors.name?.message} className="sm:flex-1">
        <Input
          {...register('name')}
          maxLength={SOURCE_NAME_MAX}
          autoComplete="off"
          placeholder="Es. Volantino Milano Centro"
          data-testid="source-name"
        />
      </Field>
      <Button type="submit" loading={create.isPending} className="sm:mt-7" data-testid="source-create">
        {!create.isPending && <Plus aria-hidden="true" className="size-4" />}
        Crea fonte
      </Button>
    </form>
  );
}

function SourcesTable({ sources }: { sources: SourceListItem[] }) {
  const queryClient = useQueryClient();
  const [copiedId, setCopiedId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [target, setTarget] = useState<SourceListItem | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async (source: SourceListItem) => {
    const link = sourceLink(window.location.origin, source.id);
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      toast.error('Impossibile copiare il link', { description: link });
      return;
    }
    setCopiedId(source.id);
    setAnnouncement(`Copiato! Link della fonte ${source.name} negli appunti`);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setCopiedId(null);
      setAnnouncement('');
    }, COPIED_FOR_MS);
  };

  const remove = useMutation({
    mutationFn: (source: SourceListItem) => deleteSource(source.id),
    onSuccess: (_, source) => {
      setTarget(null);
      toast.success('Fonte eliminata', { description: source.name });
    },
    onError: (err) => {
      setTarget(null);
      toast.error('Impossibile eliminare la fonte', { description: errorMessage(err) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sourceKeys.all }),
  });

  const th = 'px-4 py-3 text-left font-semibold text-slate-700 whitespace-nowrap';
  const td = 'px-4 py-3 align-middle max-sm:block max-sm:py-1';
  return (
    <>
      <p role="status" aria-live="polite" className="sr-only" data-testid="source-copy-status">
        {announcement}
      </p>
      <CardTable label="Tabella delle fonti" caption="Fonti, dalla più recente" minWidth="sm:min-w-[720px]" testId="sources-table">
        <thead className="bg-slate-50 max-sm:sr-only">
          <tr>
            <th scope="col" className={th}>Nome</th>
            <th scope="col" className={th}>ID</th>
            <th scope="col" className={`${th} text-right`}>Richieste</th>
            <th scope="col" className={th}>Creata il</th>
            <th scope="col" className={th}>
              <span className="sr-only">Azioni</span>
            </th>
          </tr>
        </thead>
        <tbody className="max-sm:block">
          {sources.map((s) => {
            const copied = copiedId === s.id;
            return (
              <tr
                key={s.id}
                className="border-t border-slate-200 max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:py-2 max-sm:first:border-t-0"
                data-testid="source-row"
                data-source-id={s.id}
              >
                <th scope="row" className={`${td} max-w-64 text-left font-medium break-words text-slate-900 max-sm:col-span-2 max-sm:max-w-none`}>
                  {s.name}
                </th>
                <td className={`${td} font-mono text-xs text-slate-700 ${CARD_LABEL}`} data-label="ID">
                  {s.id}
                </td>
                <td className={`${td} text-right tabular-nums max-sm:text-left ${CARD_LABEL}`} data-label="Richieste" data-testid="source-requests">
                  {formatNumber(s.requests)}
                </td>
                <td className={`${td} whitespace-nowrap text-slate-700 max-sm:col-span-2 ${CARD_LABEL}`} data-label="Creata il">
                  <time dateTime={s.createdAt}>{formatDateTime(s.createdAt)}</time>
                </td>
                <td className={`${td} max-sm:col-span-2`}>
                  <div className="flex justify-end gap-2 max-sm:justify-start">
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => void copy(s)}
                      aria-label={copied ? `Copiato! Link della fonte ${s.name}` : `Copia link della fonte ${s.name}`}
                      data-testid="source-copy"
                      className="min-w-32"
                    >
                      {copied ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
                      {copied ? 'Copiato!' : 'Copia link'}
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => setTarget(s)}
                      aria-label={`Elimina la fonte ${s.name}`}
                      data-testid="source-delete"
                      className="text-red-700"
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                      Elimina
                    </Button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </CardTable>
      <DeleteSourceDialog
        name={target?.name ?? ''}
        open={target !== null}
        deleting={remove.isPending}
        onClose={() => {
          if (!remove.isPending) setTarget(null);
        }}
        onConfirm={() => target && remove.mutate(target)}
      />
    </>
  );
}
