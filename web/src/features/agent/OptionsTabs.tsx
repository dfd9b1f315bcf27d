import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Briefcase, SearchX } from 'lucide-react';
import { AGENT_MESSAGES, type AgentOption } from '@domain/agent-requests';
import { provinceByCode } from '@domain/places';
import { EmptyState, ErrorState, Field, LoadingState, Select } from '@/components/ui';
import { errorMessage, isApiError } from '@/lib/api';
import { agentKeys, listAssignedOptions, listAvailableOptions, requestOption } from './api';
import { MediaDialog } from './MediaDialog';
import { OptionCard, placeOf } from './OptionCard';

const byName = (a: string, b: string) => a.localeCompare(b, 'it');

/**
 * 'Opzioni Disponibili': the options listed to agents, filtered by province ('Regione/Provincia')
 * and comune, both built from the loaded options; each card requests the assignment.
 */
export function AvailableOptionsTab() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: agentKeys.available, queryFn: ({ signal }) => listAvailableOptions(signal) });
  const [province, setProvince] = useState('');
  const [comune, setComune] = useState('');
  const [media, setMedia] = useState<AgentOption | null>(null);
  const items = useMemo(() => query.data?.items ?? [], [query.data]);

  const provinces = useMemo(
    () => [...new Set(items.map((o) => o.province).filter((p): p is string => Boolean(p)))].sort((a, b) => byName(provinceByCode(a)?.name ?? a, provinceByCode(b)?.name ?? b)),
    [items],
  );
  const comuni = useMemo(
    () => [...new Set(items.filter((o) => !province || o.province === province).map((o) => o.city).filter((c): c is string => Boolean(c)))].sort(byName),
    [items, province],
  );
  const shown = items.filter((o) => (!province || o.province === province) && (!comune || o.city === comune));

  const send = useMutation({
    mutationFn: ({ option, pct }: { option: AgentOption; pct: number }) => requestOption(option.propertyId, pct),
    onSuccess: (res) =>
      res.outcome === 'created'
        ? toast.success(AGENT_MESSAGES.sent, { description: AGENT_MESSAGES.sentDescription })
        : toast.success(AGENT_MESSAGES.updated, { description: AGENT_MESSAGES.updatedDescription }),
    onError: (err) => {
      if (isApiError(err, 409) && err.code === 'REQUEST_EXISTS') toast.warning(AGENT_MESSAGES.existsTitle, { description: err.message });
      else toast.error(AGENT_MESSAGES.sendFailed, { description: errorMessage(err) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: agentKeys.all }),
  });

  if (query.isPending) return <LoadingState label="Caricamento delle opzioni..." className="min-h-48" />;
  if (query.isError) return <ErrorState title={AGENT_MESSAGES.optionsLoadFailed} error={query.error} onRetry={() => void query.refetch()} testId="available-error" />;

  return (
    <div>
      <div className="grid gap-4 sm:grid-cols-2" role="search" aria-label="Filtra le opzioni disponibili">
        <Field label="Regione/Provincia">
          <Select
            value={province}
            onChange={(e) => {
              setProvince(e.target.value);
              setComune('');
            }}
            data-testid="filter-province"
          >
            <option value="">Tutte le regioni</option>
            {provinces.map((code) => {
              const p = provinceByCode(code);
              return (
                <option key={code} value={code}>
                  {p ? `${p.region} - ${p.name} (${p.code})` : code}
                </option>
              );
            })}
          </Select>
        </Field>
        <Field label="Comune">
          <Select value={comune} onChange={(e) => setComune(e.target.value)} data-testid="filter-comune">
            <option value="">Tutti i comuni</option>
            {comuni.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <p className="sr-only" role="status">
        {shown.length === 1 ? '1 opzione' : `${shown.length} opzioni`}
      </p>
      {shown.length === 0 ? (
        <EmptyState icon={SearchX} title={AGENT_MESSAGES.noOptions} className="mt-6 rounded-2xl border border-dashed border-slate-300 p-8" testId="available-empty" />
      ) : (
        <ul className="mt-6 grid gap-4 lg:grid-cols-2" data-testid="available-list">
          {shown.map((o) => (
            <li key={o.propertyId}>
              <OptionCard
                option={o}
                onMedia={setMedia}
                onRequest={(option, pct) => send.mutate({ option, pct })}
                requesting={send.isPending && send.variables?.option.propertyId === o.propertyId}
              />
            </li>
          ))}
        </ul>
      )}
      <MediaDialog propertyId={media?.propertyId ?? null} place={media ? placeOf(media) : ''} onClose={() => setMedia(null)} />
    </div>
  );
}

/** 'Opzioni in Carico': the options the agent paid for ('In Carico', slider disabled). */
export function AssignedOptionsTab() {
  const query = useQuery({ queryKey: agentKeys.assigned, queryFn: ({ signal }) => listAssignedOptions(signal) });
  const [media, setMedia] = useState<AgentOption | null>(null);
  if (query.isPending) return <LoadingState label="Caricamento delle opzioni..." className="min-h-48" />;
  if (query.isError) return <ErrorState title={AGENT_MESSAGES.assignedLoadFailed} error={query.error} onRetry={() => void query.refetch()} testId="assigned-error" />;
  const items = query.data.items;
  return (
    <div>
      {items.length === 0 ? (
        <EmptyState icon={Briefcase} title={AGENT_MESSAGES.noAssigned} className="rounded-2xl border border-dashed border-slate-300 p-8" testId="assigned-empty">
          <p className="text-sm text-slate-600">Le opzioni arrivano qui quando il pagamento di una tua richiesta approvata è confermato.</p>
        </EmptyState>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" data-testid="assigned-list">
          {items.map((o) => (
            <li key={o.propertyId}>
              <OptionCard option={o} onMedia={setMedia} />
            </li>
          ))}
        </ul>
      )}
      <MediaDialog propertyId={media?.propertyId ?? null} place={media ? placeOf(media) : ''} onClose={() => setMedia(null)} />
    </div>
  );
}
