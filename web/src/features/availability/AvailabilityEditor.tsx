import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useFieldArray, useForm, type Control, type FieldErrors, type Path, type UseFormRegister } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { DayPicker, type Modifiers } from 'react-day-picker';
import { it } from 'react-day-picker/locale/it';
import { format, parseISO } from 'date-fns';
import { CalendarCheck, CalendarDays, Plus, Save, Trash2, X } from 'lucide-react';
import 'react-day-picker/style.css';
import './availability.css';
import {
  addDays,
  AVAILABILITY_MESSAGES,
  availabilitySaveSchema,
  DEFAULT_SLOT,
  MAX_DAYS_AHEAD,
  MAX_SLOTS_PER_DAY,
  monthOf,
  type AvailabilitySaveBody,
  type AvailabilityState,
  type SlotTime,
} from '@domain/availability';
import { formatSlotDate, formatSlotTime } from '@domain/format';
import type { DossierSlot } from '@domain/requests';
import { Badge, Button, Card, EmptyState, Field, Select } from '@/components/ui';
import type { SelectProps } from '@/components/ui/Select';
import { errorMessage, isApiError } from '@/lib/api';
import { availabilityKeys, saveAvailability } from './api';

type FormValues = AvailabilitySaveBody;

const SLOT_TIME_STEP_MINUTES = 15;
const isoOf = (d: Date) => format(d, 'yyyy-MM-dd');
const monthLabel = (d: Date) => format(d, 'LLLL yyyy', { locale: it });

/** The day button's accessible name: the date, then what the colours and the dot show. */
function dayLabel(date: Date, m: Modifiers): string {
  const parts = [format(date, 'EEEE d MMMM yyyy', { locale: it })];
  if (m.today) parts.unshift('Oggi');
  if (m.selected) parts.push('selezionato');
  if (m.saved) parts.push('disponibilità salvate');
  if (m.quotaReached) parts.push('quota del mese raggiunta');
  return parts.join(', ');
}

/** The error of an array field (a field array keeps it under `root`). */
function arrayError(e: unknown): string | undefined {
  const err = e as { message?: string; root?: { message?: string } } | undefined;
  return err?.root?.message ?? err?.message;
}

/**
 * The calendar (multiple days; past days, days beyond MAX_DAYS_AHEAD and days after the
 * option's expiry disabled; months whose quota is reached shaded green; days with saved slots
 * dotted), the time slots of each selected day, and the save: the selected days' free slots
 * are replaced by what the form holds (booked ones stay), quotas come back from the server.
 */
export function AvailabilityEditor({ state }: { state: AvailabilityState }) {
  const propertyId = state.propertyId;
  const queryClient = useQueryClient();
  const today = useMemo(() => parseISO(state.today), [state.today]);
  // the earlier of the two limits: MAX_DAYS_AHEAD from today, and the option's expiry day
  const lastDay = useMemo(() => {
    const ahead = addDays(state.today, MAX_DAYS_AHEAD);
    return parseISO(state.expiresAt && state.expiresAt < ahead ? state.expiresAt : ahead);
  }, [state.today, state.expiresAt]);
  const [month, setMonth] = useState(today);

  const byDate = useMemo(() => {
    const map = new Map<string, DossierSlot[]>();
    for (const s of state.slots) map.set(s.date, [...(map.get(s.date) ?? []), s]);
    return map;
  }, [state.slots]);
  const bookedOf = useMemo(() => (date: string): SlotTime[] => (byDate.get(date) ?? []).filter((s) => s.isBooked), [byDate]);
  const reachedMonths = useMemo(
    () => new Set(state.quotas.filter((q) => q.quotaReached).map((q) => `${q.year}-${String(q.month).padStart(2, '0')}`)),
    [state.quotas],
  );
  const upcoming = useMemo(() => state.slots.filter((s) => s.date >= state.today), [state.slots, state.today]);
  const savedDates = useMemo(() => new Set(upcoming.map((s) => s.date)), [upcoming]);

  const schema = useMemo(
    () => availabilitySaveSchema({ today: () => state.today, booked: bookedOf, expiresAt: () => state.expiresAt }),
    [state.today, state.expiresAt, bookedOf],
  );
  const form = useForm<FormValues>({ resolver: zodResolver(schema), defaultValues: { days: [] } });
  const { control, register, handleSubmit, setError, reset, watch, formState } = form;
  const days = useFieldArray({ control, name: 'days' });
  const values = watch('days');
  const selected = days.fields.map((f) => parseISO(f.date));
  const slotCount = values.reduce((n, d) => n + d.slots.length, 0);

  const toggle = (date: Date) => {
    const iso = isoOf(date);
    const at = days.fields.findIndex((f) => f.date === iso);
    if (at >= 0) {
      days.remove(at);
      return;
    }
    const free = (byDate.get(iso) ?? []).filter((s) => !s.isBooked).map((s) => ({ start: formatSlotTime(s.start), end: formatSlotTime(s.end) }));
    const index = days.fields.filter((f) => f.date < iso).length;
    days.insert(index, { date: iso, slots: free.length ? free : [{ ...DEFAULT_SLOT }] }, { shouldFocus: false });
  };

  const save = useMutation({
    mutationFn: (body: FormValues) => saveAvailability(propertyId, body),
    onSuccess: (next) => {
      queryClient.setQueryData(availabilityKeys.byProperty(propertyId), next);
      reset({ days: [] });
      toast.success(AVAILABILITY_MESSAGES.saved);
    },
    onError: (err) => {
      toast.error(AVAILABILITY_MESSAGES.saveFailed, { description: errorMessage(err) });
      if (isApiError(err, 400) && err.fields) {
        for (const [name, message] of Object.entries(err.fields)) {
          const target = /^days(\.\d+\.slots)?$/.test(name) ? `${name}.root` : name;
          setError(target as Path<FormValues>, { type: 'server', message });
        }
      }
      // the option no longer runs, or someone saved meanwhile: show the current state
      if (isApiError(err, 404) || isApiError(err, 409)) void queryClient.invalidateQueries({ queryKey: availabilityKeys.byProperty(propertyId) });
    },
  });

  const onInvalid = (errors: FieldErrors<FormValues>) => {
    const first = arrayError(errors.days) ?? firstMessage(errors);
    toast.error('Attenzione', { description: first ?? AVAILABILITY_MESSAGES.atLeastOneSlot, id: 'availability-invalid' });
  };

  const quota = state.quotas.find((q) => `${q.year}-${String(q.month).padStart(2, '0')}` === format(month, 'yyyy-MM'));
  const monthCount = quota?.slotsCount ?? 0;

  return (
    <form noValidate onSubmit={handleSubmit((v) => save.mutate(v), onInvalid)} aria-label="Disponibilità per le visite" className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-[auto_1fr] lg:items-start">
        <Card className="p-4 sm:p-5">
          <h2 className="text-lg font-bold">Scegli i giorni</h2>
          <div className="mt-2 flex justify-center" data-testid="availability-calendar">
            <DayPicker
              className="availability-calendar"
              mode="multiple"
              locale={it}
              selected={selected}
              onSelect={(_dates, day) => toggle(day)}
              month={month}
              onMonthChange={setMonth}
              startMonth={today}
              endMonth={lastDay}
              disabled={[{ before: today }, { after: lastDay }]}
              modifiers={{ quotaReached: (d: Date) => reachedMonths.has(monthOf(isoOf(d))), saved: (d: Date) => savedDates.has(isoOf(d)) }}
              modifiersClassNames={{ quotaReached: 'day-quota', saved: 'day-saved' }}
              labels={{ labelDayButton: dayLabel }}
            />
          </div>
          <p className="mt-2 text-sm text-slate-700" data-testid="availability-month-quota" aria-live="polite">
            Slot salvati in {monthLabel(month)}: <strong>{monthCount}</strong> su almeno {state.minMonthlySlots}
            {quota?.quotaReached ? ' (quota raggiunta)' : ''}
          </p>
          <ul className="mt-3 space-y-1.5 text-sm text-slate-700" data-testid="availability-legend" aria-label="Legenda del calendario">
            <li className="flex items-center gap-2">
              <span aria-hidden="true" className="inline-block size-4 shrink-0 rounded border border-green-300 bg-green-100" />
              Mese con la quota raggiunta (almeno {state.minMonthlySlots} slot)
            </li>
            <li className="flex items-center gap-2">
              <span aria-hidden="true" className="inline-flex size-4 shrink-0 items-center justify-center">
                <span className="size-1.5 rounded-full bg-brand-orange-dark" />
              </span>
              Giorno con disponibilità già salvate
            </li>
            <li className="flex items-center gap-2">
              <span aria-hidden="true" className="inline-block size-4 shrink-0 rounded-full bg-brand-navy" />
              Giorno selezionato
            </li>
          </ul>
        </Card>

        <Card className="p-4 sm:p-5">
          <h2 className="text-lg font-bold">Orari dei giorni selezionati</h2>
          <p className="mt-1 text-sm text-slate-600">
            Per cambiare un giorno già salvato selezionalo: i suoi orari liberi si possono modificare o rimuovere e il salvataggio li sostituisce.
            Le visite già prenotate restano.
          </p>
          {days.fields.length === 0 ? (
            <EmptyState icon={CalendarDays} title="Nessun giorno selezionato" testId="availability-no-days" className="p-6">
              <p className="text-sm text-slate-600">Seleziona uno o più giorni nel calendario per inserire gli orari.</p>
            </EmptyState>
          ) : (
            <div className="mt-4 space-y-4">
              {days.fields.map((field, index) => (
                <DayEditor
                  key={field.id}
                  index={index}
                  date={field.date}
                  booked={(byDate.get(field.date) ?? []).filter((s) => s.isBooked)}
                  control={control}
                  register={register}
                  errors={formState.errors}
                  values={values}
                  onRemoveDay={() => days.remove(index)}
                />
              ))}
            </div>
          )}
          {arrayError(formState.errors.days) && (
            <p className="mt-3 text-sm font-medium text-red-700" role="alert">
              {arrayError(formState.errors.days)}
            </p>
          )}
          <div className="mt-5 flex flex-col gap-3 border-t border-slate-200 pt-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="min-w-0 text-sm text-slate-700" data-testid="availability-summary">
              {days.fields.length === 1 ? '1 giorno selezionato' : `${days.fields.length} giorni selezionati`}, {slotCount} slot
            </p>
            <Button
              type="submit"
              size="lg"
              className="shrink-0 whitespace-nowrap"
              disabled={days.fields.length === 0}
              loading={save.isPending}
              data-testid="availability-save"
            >
              <Save aria-hidden="true" className="size-4" />
              {save.isPending ? 'Salvataggio...' : 'Salva disponibilità'}
            </Button>
          </div>
        </Card>
      </div>

      <SavedSlots slots={upcoming} />
    </form>
  );
}

function firstMessage(errors: unknown): string | undefined {
  if (!errors || typeof errors !== 'object') return undefined;
  const e = errors as { message?: unknown };
  if (typeof e.message === 'string' && e.message) return e.message;
  for (const [key, value] of Object.entries(errors)) {
    if (key === 'ref') continue;
    const found = firstMessage(value);
    if (found) return found;
  }
  return undefined;
}

/** Times every 15 minutes: the select shows HH:mm in every browser (a time input follows the browser's language). */
const TIME_OPTIONS = Array.from({ length: (24 * 60) / SLOT_TIME_STEP_MINUTES }, (_, i) => {
  const minutes = i * SLOT_TIME_STEP_MINUTES;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});

/** A HH:mm select; a saved time off the 15-minute grid stays among the choices. */
function TimeSelect({ current, ...props }: SelectProps & { current: string | undefined }) {
  const options = current && !TIME_OPTIONS.includes(current) ? [...TIME_OPTIONS, current].sort() : TIME_OPTIONS;
  return (
    <Select {...props}>
      {options.map((t) => (
        <option key={t} value={t}>
          {t}
        </option>
      ))}
    </Select>
  );
}

function DayEditor({
  index,
  date,
  booked,
  control,
  register,
  errors,
  values,
  onRemoveDay,
}: {
  index: number;
  date: string;
  booked: DossierSlot[];
  control: Control<FormValues>;
  register: UseFormRegister<FormValues>;
  errors: FieldErrors<FormValues>;
  values: FormValues['days'];
  onRemoveDay: () => void;
}) {
  const slots = useFieldArray({ control, name: `days.${index}.slots` });
  const label = formatSlotDate(date);
  const headingId = `day-${date}`;
  const dayErrors = errors.days?.[index];
  const full = slots.fields.length >= MAX_SLOTS_PER_DAY;
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 p-3 sm:p-4" data-testid="availability-day" data-date={date}>
      <div className="flex items-start justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold">
          {label}
        </h3>
        <Button variant="ghost" size="sm" onClick={onRemoveDay} aria-label={`Togli ${label} dalla selezione`} data-testid="day-remove">
          <X aria-hidden="true" className="size-4" />
        </Button>
      </div>
      {dayErrors?.date?.message && <p className="mt-1 text-sm font-medium text-red-700">{dayErrors.date.message}</p>}
      {booked.length > 0 && (
        <ul className="mt-2 space-y-1 text-sm text-slate-700" aria-label={`Visite prenotate di ${label}`}>
          {booked.map((b) => (
            <li key={b.id} className="flex items-center gap-2">
              {formatSlotTime(b.start)}–{formatSlotTime(b.end)} <Badge variant="warning">Prenotato</Badge>
            </li>
          ))}
        </ul>
      )}
      <ul className="mt-3 space-y-3">
        {slots.fields.map((slot, j) => {
          const e = dayErrors?.slots?.[j];
          return (
            <li key={slot.id} data-testid="availability-slot">
              <div role="group" aria-label={`Slot ${j + 1} di ${label}`} className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-start gap-2 sm:gap-3">
                <Field label="Inizio" id={`slot-${date}-${j}-start`} error={e?.start?.message}>
                  <TimeSelect current={values[index]?.slots[j]?.start} data-testid="slot-start" {...register(`days.${index}.slots.${j}.start`)} />
                </Field>
                <Field label="Fine" id={`slot-${date}-${j}-end`} error={e?.end?.message}>
                  <TimeSelect current={values[index]?.slots[j]?.end} data-testid="slot-end" {...register(`days.${index}.slots.${j}.end`)} />
                </Field>
                <Button
                  variant="outline"
                  size="md"
                  className="mt-[1.625rem] w-11 px-0"
                  onClick={() => slots.remove(j)}
                  aria-label={`Rimuovi lo slot ${j + 1} di ${label}`}
                  data-testid="slot-remove"
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      {arrayError(dayErrors?.slots) && (
        <p className="mt-2 text-sm font-medium text-red-700" role="alert">
          {arrayError(dayErrors?.slots)}
        </p>
      )}
      <Button variant="outline" size="sm" className="mt-3" onClick={() => slots.append({ ...DEFAULT_SLOT })} disabled={full} data-testid="slot-add">
        <Plus aria-hidden="true" className="size-4" />
        Aggiungi slot<span className="sr-only"> a {label}</span>
      </Button>
    </section>
  );
}

/** The saved slots from today on, by day. */
function SavedSlots({ slots }: { slots: DossierSlot[] }) {
  const groups = useMemo(() => {
    const map = new Map<string, DossierSlot[]>();
    for (const s of slots) map.set(s.date, [...(map.get(s.date) ?? []), s]);
    return [...map];
  }, [slots]);
  return (
    <Card className="p-4 sm:p-5">
      <h2 className="text-lg font-bold">Disponibilità salvate</h2>
      {groups.length === 0 ? (
        <EmptyState icon={CalendarCheck} title="Non hai ancora salvato disponibilità" className="p-6" testId="availability-saved-empty" />
      ) : (
        <ul className="mt-3 grid gap-3 sm:grid-cols-2" data-testid="availability-saved">
          {groups.map(([date, list]) => (
            <li key={date} className="rounded-xl border border-slate-200 p-3" data-testid="availability-saved-day" data-date={date}>
              <p className="font-semibold text-slate-900">{formatSlotDate(date)}</p>
              <ul className="mt-1 space-y-1 text-sm text-slate-700">
                {list.map((s) => (
                  <li key={s.id} className="flex items-center justify-between gap-2">
                    <span>
                      {formatSlotTime(s.start)}–{formatSlotTime(s.end)}
                    </span>
                    <Badge variant={s.isBooked ? 'warning' : 'success'}>{s.isBooked ? 'Prenotato' : 'Disponibile'}</Badge>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
