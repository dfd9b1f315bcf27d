import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { formatSlotDate } from '@domain/format';
import { declineVisitSchema, hasStarted, type DeclineVisitInput, type Visit } from '@domain/visits';
import { Button, Card, CardContent, Dialog, DialogActions, ErrorState, Field, LoadingState } from '@/components/ui';
import { Textarea } from '@/components/property-wizard/controls';
import { VisitList } from '@/components/visits/VisitList';
import { errorMessage } from '@/lib/api';
import { declineVisit, listVisits, visitsKey } from './api';

/** The visits the agent in charge booked on the seller's slots: upcoming first, each declinable with a reason before it starts. */
export function PropertyVisits({ propertyId, address }: { propertyId: string; address: string }) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: visitsKey(propertyId), queryFn: ({ signal }) => listVisits(propertyId, signal) });
  const [declining, setDeclining] = useState<Visit | null>(null);
  const now = new Date();
  const visits = query.data?.visits ?? [];
  const upcoming = visits.filter((v) => !hasStarted(v, now));
  const past = visits.filter((v) => hasStarted(v, now)).reverse();
  return (
    <Card className="mt-3" data-testid="seller-visits">
      <CardContent>
        <h3 className="font-bold text-brand-navy">Visite dell&apos;agente: {address}</h3>
        {query.isPending ? (
          <LoadingState label="Caricamento delle visite..." className="min-h-24" />
        ) : query.isError ? (
          <ErrorState title="Impossibile caricare le visite" error={query.error} onRetry={() => void query.refetch()} testId="seller-visits-error" />
        ) : visits.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">Nessuna visita prenotata: l&apos;agente prenota sulle fasce libere che hai indicato.</p>
        ) : (
          <VisitList
            visits={[...upcoming, ...past]}
            actions={(v) =>
              v.status === 'booked' && !hasStarted(v, now) ? (
                <Button size="sm" variant="outline" onClick={() => setDeclining(v)} aria-label={`Rifiuta la visita del ${formatSlotDate(v.date)}, ${v.start}`} data-testid="visit-decline-open">
                  Rifiuta
                </Button>
              ) : null
            }
          />
        )}
      </CardContent>
      <DeclineDialog
        propertyId={propertyId}
        visit={declining}
        onClose={() => setDeclining(null)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: visitsKey(propertyId) })}
      />
    </Card>
  );
}

function DeclineDialog({ propertyId, visit, onClose, onDone }: { propertyId: string; visit: Visit | null; onClose: () => void; onDone: () => void }) {
  const form = useForm<DeclineVisitInput>({ resolver: zodResolver(declineVisitSchema), defaultValues: { reason: '' } });
  const decline = useMutation({
    mutationFn: (input: DeclineVisitInput) => declineVisit(propertyId, visit!.id, input),
    onSuccess: () => {
      toast.success("Visita rifiutata: l'agente è stato avvisato");
      form.reset({ reason: '' });
      onClose();
    },
    onError: (err) => toast.error('Rifiuto non riuscito', { description: errorMessage(err) }),
    onSettled: onDone,
  });
  return (
    <Dialog
      open={visit !== null}
      onClose={() => !decline.isPending && onClose()}
      title="Rifiuta la visita"
      description={visit ? `${formatSlotDate(visit.date)}, ${visit.start}–${visit.end}: l'agente riceve il motivo per e-mail.` : undefined}
    >
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit((v) => decline.mutate(v))}>
        <Field label="Motivo" error={form.formState.errors.reason?.message}>
          <Textarea
            rows={3}
            maxLength={500}
            {...form.register('reason')}
            data-testid="visit-decline-reason"
          />
        </Field>
        <DialogActions onBack={onClose} pending={decline.isPending} label="Rifiuta la visita" variant="danger" testId="visit-decline-confirm" />
      </form>
    </Dialog>
  );
}
