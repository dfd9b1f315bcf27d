import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ArrowLeft, CalendarPlus, Mail, Phone } from 'lucide-react';
import { formatDate, formatEuro, formatSlotDate } from '@domain/format';
import {
  hasStarted,
  INTEREST_LABELS,
  INTEREST_LEVELS,
  isBeforeCutoff,
  visitOutcomeSchema,
  type AgentDeal,
  type FreeSlot,
  type Visit,
  type VisitOutcomeInput,
} from '@domain/visits';
import { Button, Card, CardContent, Dialog, DialogActions, EmptyState, ErrorState, Field, LoadingState, Select } from '@/components/ui';
import { Textarea } from '@/components/property-wizard/controls';
import { VisitList } from '@/components/visits/VisitList';
import { errorMessage } from '@/lib/api';
import { formatPhone } from '@domain/phone';
import { usePageTitle } from '@/lib/use-page-title';
import { agentKeys, bookVisit, cancelVisit, getDeal, moveVisit, recordOutcome } from './api';

/** /agent-area/purchase-options/:propertyId: the option in the agent's charge: seller, price, keys, free slots and visits. */
export default function AgentDealPage() {
  usePageTitle('Venditore e visite');
  const { propertyId = '' } = useParams();
  const query = useQuery({ queryKey: agentKeys.deal(propertyId), queryFn: ({ signal }) => getDeal(propertyId, signal) });
  return (
    <div className="space-y-6">
      <Link to="/agent-area/purchase-options?tab=assigned" className="inline-flex items-center gap-1 text-sm font-medium text-brand-navy underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Opzioni in Carico
      </Link>
      {query.isPending ? (
        <LoadingState label="Caricamento dell'opzione..." className="min-h-48" />
      ) : query.isError ? (
        <ErrorState title="Impossibile caricare l'opzione" error={query.error} onRetry={() => void query.refetch()} testId="deal-error" />
      ) : (
        <Deal deal={query.data} />
      )}
    </div>
  );
}

function Deal({ deal }: { deal: AgentDeal }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: agentKeys.deal(deal.propertyId) });
  const [moving, setMoving] = useState<Visit | null>(null);
  const [outcomeOf, setOutcomeOf] = useState<Visit | null>(null);
  const book = useMutation({
    mutationFn: (slot: FreeSlot) => bookVisit(deal.propertyId, slot.id),
    onSuccess: (v) => toast.success('Visita prenotata', { description: `${formatSlotDate(v.date)}, ${v.start}–${v.end}: venditore e amministrazione ricevono l'invito` }),
    onError: (err) => toast.error('Prenotazione non riuscita', { description: errorMessage(err) }),
    onSettled: refresh,
  });
  const cancel = useMutation({
    mutationFn: (v: Visit) => cancelVisit(deal.propertyId, v.id),
    onSuccess: () => toast.success('Visita annullata'),
    onError: (err) => toast.error('Annullamento non riuscito', { description: errorMessage(err) }),
    onSettled: refresh,
  });
  const now = new Date();
  const place = deal.city ? `${deal.address}, ${deal.city}${deal.province ? ` (${deal.province})` : ''}` : deal.address;
  const byDay = new Map<string, FreeSlot[]>();
  for (const s of deal.freeSlots) byDay.set(s.date, [...(byDay.get(s.date) ?? []), s]);

  return (
    <>
      <header>
        <h1 className="text-2xl font-bold sm:text-3xl" data-testid="deal-title">
          {place}
        </h1>
        <p className="mt-1 text-slate-700">Opzione in carico: contatti del venditore, prezzo e visite.</p>
      </header>

      <Card>
        <CardContent>
          <h2 className="text-lg font-bold text-brand-navy">Venditore e immobile</h2>
          <dl className="mt-3 grid gap-3 sm:grid-cols-2" data-testid="deal-facts">
            <Fact label="Venditore" value={deal.seller.name || '—'} />
            <Fact label="Telefono" value={<ContactLink scheme="tel" value={deal.seller.phone} icon={Phone} />} />
            <Fact label="E-mail" value={<ContactLink scheme="mailto" value={deal.seller.email} icon={Mail} />} />
            <Fact label="Prezzo di vendita" value={formatEuro(deal.salePrice)} testId="deal-sale-price" />
            <Fact label="Chiavi" value={deal.hasKeys ? 'Consegnate: visite da concordare con l’amministrazione' : 'Al venditore: prenota una delle sue fasce libere'} />
            <Fact label="Scadenza opzione" value={deal.expiresAt ? formatDate(`${deal.expiresAt}T12:00:00Z`) : '—'} />
          </dl>
        </CardContent>
      </Card>

      <Card>
        <CardContent>
          <h2 className="text-lg font-bold text-brand-navy">Fasce libere del venditore</h2>
          {deal.freeSlots.length === 0 ? (
            <EmptyState icon={CalendarPlus} title="Nessuna fascia libera" testId="deal-no-slots">
              <p className="text-sm text-slate-600">Il venditore non ha ancora indicato disponibilità per le prossime settimane.</p>
            </EmptyState>
          ) : (
            <ul className="mt-3 space-y-3" data-testid="deal-slots">
              {[...byDay.entries()].map(([date, slots]) => (
                <li key={date}>
                  <p className="text-sm font-semibold text-slate-800">{formatSlotDate(date)}</p>
                  <ul className="mt-1 flex flex-wrap gap-2">
                    {slots.map((s) => (
                      <li key={s.id}>
                        <Button
                          variant="outline"
                          size="sm"
                          onClick={() => book.mutate(s)}
                          loading={book.isPending && book.variables?.id === s.id}
                          disabled={book.isPending}
                          aria-label={`Prenota la visita: ${formatSlotDate(date)}, ${s.start}–${s.end}`}
                          data-testid="slot-book"
                          data-slot-id={s.id}
                        >
                          {s.start}–{s.end}
                        </Button>
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardContent>
          <h2 className="text-lg font-bold text-brand-navy">Le tue visite</h2>
          {deal.visits.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">Nessuna visita prenotata.</p>
          ) : (
            <VisitList
              visits={deal.visits}
              showAgent={false}
              actions={(v) =>
                v.status !== 'booked' ? null : hasStarted(v, now) ? (
                  <Button size="sm" onClick={() => setOutcomeOf(v)} data-testid="visit-outcome-open">
                    Registra l&apos;esito
                  </Button>
                ) : isBeforeCutoff(v, now) ? (
                  <>
                    <Button size="sm" variant="outline" onClick={() => setMoving(v)} disabled={deal.freeSlots.length === 0} data-testid="visit-move-open">
                      Sposta
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => cancel.mutate(v)} loading={cancel.isPending && cancel.variables?.id === v.id} data-testid="visit-cancel">
                      Annulla
                    </Button>
                  </>
                ) : null
              }
            />
          )}
        </CardContent>
      </Card>
      <MoveDialog deal={deal} visit={moving} onClose={() => setMoving(null)} onDone={refresh} />
      <OutcomeDialog propertyId={deal.propertyId} visit={outcomeOf} onClose={() => setOutcomeOf(null)} onDone={refresh} />
    </>
  );
}

function Fact({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <div>
      <dt className="text-xs font-medium text-slate-600 uppercase">{label}</dt>
      <dd className="font-semibold break-words text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function ContactLink({ scheme, value, icon: Icon }: { scheme: 'tel' | 'mailto'; value: string | null; icon: typeof Phone }) {
  if (!value) return <>—</>;
  return (
    <a href={`${scheme}:${value}`} className="inline-flex items-center gap-1 break-all underline">
      <Icon aria-hidden="true" className="size-4" />
      {scheme === 'tel' ? formatPhone(value) : value}
    </a>
  );
}

function MoveDialog({ deal, visit, onClose, onDone }: { deal: AgentDeal; visit: Visit | null; onClose: () => void; onDone: () => void }) {
  const [slotId, setSlotId] = useState('');
  const move = useMutation({
    mutationFn: () => moveVisit(deal.propertyId, visit!.id, slotId),
    onSuccess: () => {
      toast.success('Visita spostata');
      onClose();
    },
    onError: (err) => toast.error('Spostamento non riuscito', { description: errorMessage(err) }),
    onSettled: onDone,
  });
  return (
    <Dialog open={visit !== null} onClose={() => !move.isPending && onClose()} title="Sposta la visita" description={visit ? `Ora: ${formatSlotDate(visit.date)}, ${visit.start}–${visit.end}` : undefined}>
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (slotId) move.mutate();
        }}
      >
        <Field label="Nuova fascia oraria">
          <Select value={slotId} onChange={(e) => setSlotId(e.target.value)} data-testid="visit-move-slot">
            <option value="">Scegli una fascia libera</option>
            {deal.freeSlots.map((s) => (
              <option key={s.id} value={s.id}>
                {formatSlotDate(s.date)}, {s.start}–{s.end}
              </option>
            ))}
          </Select>
        </Field>
        <DialogActions onBack={onClose} pending={move.isPending} label="Sposta" disabled={!slotId} testId="visit-move-confirm" />
      </form>
    </Dialog>
  );
}

function OutcomeDialog({ propertyId, visit, onClose, onDone }: { propertyId: string; visit: Visit | null; onClose: () => void; onDone: () => void }) {
  const form = useForm<VisitOutcomeInput>({ resolver: zodResolver(visitOutcomeSchema), defaultValues: { note: '' } });
  const save = useMutation({
    mutationFn: (input: VisitOutcomeInput) => recordOutcome(propertyId, visit!.id, input),
    onSuccess: () => {
      toast.success('Esito registrato');
      form.reset({ note: '' });
      onClose();
    },
    onError: (err) => toast.error('Esito non registrato', { description: errorMessage(err) }),
    onSettled: onDone,
  });
  return (
    <Dialog open={visit !== null} onClose={() => !save.isPending && onClose()} title="Esito della visita">
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit((v) => save.mutate(v))}>
        <Field label="Interesse del visitatore" error={form.formState.errors.interest?.message}>
          <Select {...form.register('interest')} defaultValue="" data-testid="visit-outcome-interest">
            <option value="" disabled>
              Scegli
            </option>
            {INTEREST_LEVELS.map((i) => (
              <option key={i} value={i}>
                {INTEREST_LABELS[i]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Nota" optional error={form.formState.errors.note?.message}>
          <Textarea
            rows={3}
            maxLength={1000}
            {...form.register('note')}
            data-testid="visit-outcome-note"
          />
        </Field>
        <DialogActions onBack={onClose} pending={save.isPending} label="Salva l'esito" testId="visit-outcome-save" />
      </form>
    </Dialog>
  );
}
