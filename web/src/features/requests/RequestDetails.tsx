import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CalendarDays, UserCheck } from 'lucide-react';
import { formatSlotDate, formatSlotTime } from '@domain/format';
import { OPTION_STATUS_LABELS } from '@domain/requests';
import { Badge, Button, ErrorState, LoadingState } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { assignRequest, getRequest, listUsers, requestKeys, type RequestDossier } from './api';
import { propertySections } from '@/lib/property-fields';
import { AssignUserDialog } from './RequestDialogs';
import { RoomMedia } from './RoomMedia';

export const DETAILS_ERROR = 'Impossibile caricare i dettagli';

/** The expanded row: every field, the assignee, the option's availability slots, the media per room. */
export function RequestDetails({ id }: { id: string }) {
  const query = useQuery({ queryKey: requestKeys.dossier(id), queryFn: ({ signal }) => getRequest(id, signal) });

  useEffect(() => {
    if (query.isError) toast.error(DETAILS_ERROR, { description: errorMessage(query.error), id: `details-${id}` });
  }, [query.isError, query.error, id]);

  if (query.isPending) return <LoadingState label="Caricamento dei dettagli..." className="min-h-32" />;
  if (query.isError) {
    return (
      <ErrorState title={DETAILS_ERROR} error={query.error} onRetry={() => void query.refetch()} className="p-6" testId="request-details-error" />
    );
  }
  return <DossierView dossier={query.data} />;
}

function DossierView({ dossier }: { dossier: RequestDossier }) {
  const p = dossier.property;
  const queryClient = useQueryClient();
  const [assignOpen, setAssignOpen] = useState(false);
  // the assignee's name, when the users list is already known (the dialog loads it)
  const users = useQuery({ queryKey: requestKeys.users, queryFn: ({ signal }) => listUsers(signal), enabled: Boolean(p.assignedUserId), staleTime: 60_000 });
  const assignee = p.assignedUserId
    ? (() => {
        const u = users.data?.items.find((x) => x.id === p.assignedUserId);
        // never the raw id: while the list loads, or when it failed or lacks the user
        return u ? `${u.fullName || u.email} (${u.email})` : users.isPending ? 'Caricamento…' : 'Utente non disponibile';
      })()
    : null;

  const assign = useMutation({
    mutationFn: (userId: string) => assignRequest(p.id, userId),
    onSuccess: () => {
      setAssignOpen(false);
      toast.success('Utente assegnato con successo');
    },
    onError: (err) => toast.error("Impossibile assegnare l'utente", { description: errorMessage(err) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: requestKeys.dossier(p.id) }),
  });

  return (
    <div className="space-y-6 p-4 sm:p-6" data-testid="request-details">
      <div className="gap-8 lg:columns-2">
        {propertySections(p, assignee).map((section) => (
          <section key={section.title} aria-label={section.title} className="mb-6 break-inside-avoid">
            <h3 className="mb-2 text-sm font-bold tracking-wide text-brand-navy uppercase">{section.title}</h3>
            <dl className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-x-4 gap-y-1.5 text-sm sm:grid-cols-[minmax(12rem,auto)_1fr]">
              {section.rows.map((r) => (
                <div key={r.label} className="contents">
                  <dt className="font-medium text-slate-600">{r.label}</dt>
                  <dd className="break-words text-slate-900">{r.value}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" size="sm" onClick={() => setAssignOpen(true)} data-testid="assign-open">
          <UserCheck aria-hidden="true" className="size-4" />
          Assegna utente
        </Button>
        <span className="text-sm text-slate-700" data-testid="assignee">
          {assignee ? (
            <>
              Assegnata a <strong>{assignee}</strong>
            </>
          ) : (
            'Nessun utente assegnato'
          )}
        </span>
      </div>

      <Slots dossier={dossier} />

      <section aria-labelledby={`media-${p.id}`} className="space-y-3">
        <h3 id={`media-${p.id}`} className="text-sm font-bold tracking-wide text-brand-navy uppercase">
          Foto e video per stanza
        </h3>
        {dossier.rooms.length === 0 ? (
          <p className="text-sm text-slate-600">Nessuna stanza inserita nella richiesta.</p>
        ) : (
          dossier.rooms.map((room) => <RoomMedia key={room.id} propertyId={p.id} room={room} />)
        )}
      </section>

      <AssignUserDialog
        open={assignOpen}
        currentUserId={p.assignedUserId}
        assigning={assign.isPending}
        onClose={() => {
          if (!assign.isPending) setAssignOpen(false);
        }}
        onAssign={(userId) => assign.mutate(userId)}
      />
    </div>
  );
}

function Slots({ dossier }: { dossier: RequestDossier }) {
  const { option, slots } = dossier;
  return (
    <section aria-labelledby={`slots-${dossier.property.id}`} className="space-y-2">
      <h3 id={`slots-${dossier.property.id}`} className="text-sm font-bold tracking-wide text-brand-navy uppercase">
        Disponibilità per le visite
      </h3>
      {option && (
        <p className="text-sm text-slate-700">
          Opzione di acquisto: <Badge variant="secondary">{OPTION_STATUS_LABELS[option.status] ?? option.status}</Badge>
        </p>
      )}
      {slots.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="slots-empty">
          {option ? 'Il venditore non ha ancora inserito disponibilità.' : "Nessuna disponibilità: l'opzione di acquisto non è ancora stata creata."}
        </p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2" data-testid="slots">
          {slots.map((s) => (
            <li key={s.id} className="flex items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm">
              <span className="flex items-center gap-2">
                <CalendarDays aria-hidden="true" className="size-4 text-slate-500" />
                <span>
                  {formatSlotDate(s.date)}, {formatSlotTime(s.start)}–{formatSlotTime(s.end)}
                </span>
              </span>
              <Badge variant={s.isBooked ? 'warning' : 'success'}>{s.isBooked ? 'Prenotato' : 'Disponibile'}</Badge>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
