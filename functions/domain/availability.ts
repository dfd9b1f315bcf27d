/**
 * THE contract of /availability/{token} (spec 001: seller availability page, entities
 * availability_slots and monthly_availability_quotas, the "Availability:" rules) between
 * functions/availability/ and the SPA page: messages, limits, the zod schema of a save
 * (Italian messages) and the pure rules (days in Europe/Rome, overlaps, quotas).
 *
 * Routes (access ['seller']; the property must be the caller's, else 404):
 * - GET /seller/availability/{token}   the e-mail's link, first arrival -> AvailabilityState
 *   (with its propertyId: the page goes on by id)
 * - GET /seller/properties/{propertyId}/availability                       -> AvailabilityState
 * - PUT /seller/properties/{propertyId}/availability  AvailabilitySaveBody -> AvailabilityState
 *   (while the option runs without keys: signed, published or assigned, else 409)
 *
 * A save REPLACES the free slots of the days it names (a day it does not name is left as it
 * is); booked slots are never removed and a new slot may not overlap one.
 */
import * as z from 'zod';
import type { DossierSlot } from './requests';

/** New slots start as 09:00-10:00 (spec 001 sections 5 and 9). */
export const DEFAULT_SLOT = { start: '09:00', end: '10:00' } as const;
/** At most this many slots in one save (one transaction: at most 100 items). */
export const MAX_SLOTS_PER_SAVE = 40;
/** At most this many slots on one day. */
export const MAX_SLOTS_PER_DAY = 10;
/** Days from today (Europe/Rome) a slot may be entered for. */
export const MAX_DAYS_AHEAD = 365;
/** The days of the product are the days of Italy. */
export const AVAILABILITY_TIME_ZONE = 'Europe/Rome';

export const AVAILABILITY_MESSAGES = {
  /** the invalid-link screen (spec 001), also every 404 of the routes */
  invalidLinkTitle: 'Link non valido',
  invalidLink: 'Il link per inserire le disponibilità non è valido o è scaduto.',
  atLeastOneSlot: 'Aggiungi almeno uno slot di disponibilità',
  saved: 'Disponibilità salvate con successo!',
  saveFailed: 'Errore nel salvataggio delle disponibilità',
  loadFailed: "Impossibile caricare i dati dell'immobile",
  dateInvalid: 'Data non valida (formato aaaa-mm-gg)',
  datePast: 'Non puoi inserire disponibilità per un giorno passato',
  dateTooFar: `Puoi inserire disponibilità al massimo per i prossimi ${MAX_DAYS_AHEAD} giorni`,
  afterExpiry: "Puoi inserire disponibilità solo fino al giorno di scadenza dell'opzione",
  dateTwice: 'Ogni giorno può comparire una sola volta',
  timeInvalid: 'Orario non valido (formato HH:mm)',
  endAfterStart: "L'orario di fine deve essere successivo a quello di inizio",
  overlap: 'Gli slot dello stesso giorno non possono sovrapporsi',
  overlapBooked: 'Lo slot si sovrappone a una visita già prenotata',
  tooManyPerDay: `Puoi inserire al massimo ${MAX_SLOTS_PER_DAY} slot per giorno`,
  tooManySlots: `Puoi salvare al massimo ${MAX_SLOTS_PER_SAVE} slot alla volta`,
  tooManyChanges: 'Troppe modifiche in un solo salvataggio: salva meno giorni alla volta',
  conflict: 'Le disponibilità sono state modificate nel frattempo: ricarica la pagina e riprova',
  propertyNotFound: 'Immobile non trovato',
  notRunning: "Puoi inserire le disponibilità solo mentre l'opzione è attiva.",
  withKeys: 'Hai affidato le chiavi: per le visite non servono le tue disponibilità.',
} as const;

// ---- days and times ------------------------------------------------------------------------

export const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
const isTime = (value: string) => TIME_PATTERN.test(value);

/** True for a real calendar day written yyyy-MM-dd (2026-02-30 is not). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE_PATTERN.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

const romeDay = new Intl.DateTimeFormat('en-GB', { timeZone: AVAILABILITY_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The day (yyyy-MM-dd) it is in Italy at `now`. */
export function todayInRome(now: Date = new Date()): string {
  const parts = Object.fromEntries(romeDay.formatToParts(now).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** yyyy-MM-dd plus `days` days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** 'yyyy-MM' of a yyyy-MM-dd day: the quota's month. */
export const monthOf = (date: string) => date.slice(0, 7);

/** A month's quota is reached when its slots are at least the option's minimum (spec 001). */
export function isQuotaReached(slotsCount: number, minMonthlySlots: number): boolean {
  return slotsCount >= minMonthlySlots;
}

export interface SlotTime {
  start: string;
  end: string;
}

const isValidSlot = (s: SlotTime) => isTime(s.start) && isTime(s.end) && s.end > s.start;

/** Two slots of the same day overlap when each starts before the other ends (10:00-11:00 and 11:00-12:00 do not). */
export const overlaps = (a: SlotTime, b: SlotTime) => a.start < b.end && b.start < a.end;

// ---- PUT /seller/availability/{token} --------------------------------------------------------

const timeSchema = z.string({ error: AVAILABILITY_MESSAGES.timeInvalid }).trim().regex(TIME_PATTERN, AVAILABILITY_MESSAGES.timeInvalid);

export const slotInputSchema = z
  .object({ start: timeSchema, end: timeSchema }, { error: AVAILABILITY_MESSAGES.timeInvalid })
  .refine((s) => !isTime(s.start) || !isTime(s.end) || s.end > s.start, { message: AVAILABILITY_MESSAGES.endAfterStart, path: ['end'] });

export interface SaveSchemaOptions {
  /** today in Europe/Rome, read at each validation (the server's clock; the page uses the server's answer) */
  today: () => string;
  /** the booked slots of a day (the page knows them; the server checks them against the stored ones) */
  booked?: (date: string) => readonly SlotTime[];
  /** the option's expiry day (yyyy-MM-dd, the last day it runs; none: no limit): no slot after it */
  expiresAt?: () => string | null;
}

/**
 * The body of a save: the days it replaces, each with its slots. Errors carry their field
 * path (`days.0.slots.1.end`) so the page shows them next to the input.
 */
export function availabilitySaveSchema({ today, booked, expiresAt }: SaveSchemaOptions) {
  const day = z.object(
    {
      date: z.string({ error: AVAILABILITY_MESSAGES.dateInvalid }).trim().refine(isIsoDate, AVAILABILITY_MESSAGES.dateInvalid),
      slots: z
        .array(slotInputSchema, { error: AVAILABILITY_MESSAGES.atLeastOneSlot })
        .min(1, AVAILABILITY_MESSAGES.atLeastOneSlot)
        .max(MAX_SLOTS_PER_DAY, AVAILABILITY_MESSAGES.tooManyPerDay),
    },
    { error: AVAILABILITY_MESSAGES.atLeastOneSlot },
  );
  return z
    .object(
      {
        days: z
          .array(day, { error: AVAILABILITY_MESSAGES.atLeastOneSlot })
          .min(1, AVAILABILITY_MESSAGES.atLeastOneSlot)
          // a bound before the per-day checks; the slot total is checked below
          .max(MAX_SLOTS_PER_SAVE, AVAILABILITY_MESSAGES.tooManySlots),
      },
      { error: AVAILABILITY_MESSAGES.atLeastOneSlot },
    )
    .superRefine((body, ctx) => {
      const total = body.days.reduce((n, d) => n + d.slots.length, 0);
      if (total > MAX_SLOTS_PER_SAVE) ctx.addIssue({ code: 'custom', message: AVAILABILITY_MESSAGES.tooManySlots, path: ['days'] });
      const now = today();
      const last = addDays(now, MAX_DAYS_AHEAD);
      const expiry = expiresAt?.() ?? null;
      const seen = new Set<string>();
      body.days.forEach((d, i) => {
        if (seen.has(d.date)) ctx.addIssue({ code: 'custom', message: AVAILABILITY_MESSAGES.dateTwice, path: ['days', i, 'date'] });
        seen.add(d.date);
        if (!isIsoDate(d.date)) return; // reported on its own field
        if (d.date < now) ctx.addIssue({ code: 'custom', message: AVAILABILITY_MESSAGES.datePast, path: ['days', i, 'date'] });
        else if (expiry && d.date > expiry) ctx.addIssue({ code: 'custom', message: AVAILABILITY_MESSAGES.afterExpiry, path: ['days', i, 'date'] });
        else if (d.date > last) ctx.addIssue({ code: 'custom', message: AVAILABILITY_MESSAGES.dateTooFar, path: ['days', i, 'date'] });
        for (const issue of slotIssues(d.slots, booked?.(d.date) ?? [])) {
          ctx.addIssue({ code: 'custom', message: issue.message, path: ['days', i, 'slots', issue.index, 'start'] });
        }
      });
    });
}

/**
 * The overlaps of a day's slots: with an earlier slot of the list, or with a booked slot.
 * One issue per slot, by its index in the list.
 */
export function slotIssues(slots: readonly SlotTime[], booked: readonly SlotTime[]): { index: number; message: string }[] {
  const out: { index: number; message: string }[] = [];
  slots.forEach((s, i) => {
    if (!isValidSlot(s)) return; // reported on its own field
    if (booked.some((b) => overlaps(s, b))) out.push({ index: i, message: AVAILABILITY_MESSAGES.overlapBooked });
    else if (slots.some((o, j) => j < i && isValidSlot(o) && overlaps(s, o))) out.push({ index: i, message: AVAILABILITY_MESSAGES.overlap });
  });
  return out;
}

export type AvailabilitySaveBody = z.infer<ReturnType<typeof availabilitySaveSchema>>;
export type AvailabilityDay = AvailabilitySaveBody['days'][number];

// ---- GET /seller/availability/{token} --------------------------------------------------------

/** A month's count (item QUOTA#{yyyy}-{MM}), kept in the transaction of every save. */
export interface MonthQuota {
  year: number;
  /** 1-12 */
  month: number;
  slotsCount: number;
  quotaReached: boolean;
}

export interface AvailabilityState {
  /** the property the page is about: after the e-mail's link the page goes on by id */
  propertyId: string;
  property: { address: string; city: string | null };
  minMonthlySlots: number;
  /** today in Europe/Rome by the server's clock: earlier days are disabled */
  today: string;
  /** the option's expiry day (the last day it runs): later days are disabled; null before the signature gives it */
  expiresAt: string | null;
  /** every slot of the option, by date and start */
  slots: DossierSlot[];
  /** the months that have slots, oldest first */
  quotas: MonthQuota[];
}
