/**
 * The daily reminders (docs/reminders.md): which reminder is due, as pure functions of an
 * item's facts and of "now". The job (functions/notifications/reminders.ts) reads the facts
 * and records each reminder on the item with the mail, once.
 *
 * - Onboarding (identity, co-owners, delegations) incomplete, 3 and 7 days after the
 *   invitation: the estimate e-mail (`property.estimateSentAt`), the mail whose link
 *   (/seller-register?token=, then /seller-kyc?token=) starts the onboarding. The option
 *   notification comes only once those steps are done (an option needs them), so it
 *   starts the next reminder instead.
 * - Option unsigned 3 days after the notification with its link (`option.notifiedAt`).
 * - Availability of a signed 'rateale' option (no keys) below the quota of the month asked
 *   for (availabilityMonth: the current month, the next one in the last days of the month),
 *   once per option and month asked for (Europe/Rome), from 3 days after the availability
 *   link (or signature).
 *
 * Each reminder may be sent only inside its window: a run that was missed catches up the
 * next day, but a reminder long overdue (older items when the job first runs) is not sent.
 */
import { FINAL_OPTION_STATES, isPastExpiry } from '../option-lifecycle';
import { addDays, isQuotaReached, monthOf, todayInRome } from '../availability';
import { formatMonthYear } from '../format';

export const DAY_MS = 86_400_000;

export interface ReminderWindow<K extends string = string> {
  kind: K;
  /** due this many days after the anchor */
  afterDays: number;
  /** no longer sent from this many days after the anchor */
  untilDays: number;
}

export const ONBOARDING_REMINDERS = [
  { kind: 'onboarding-3d', afterDays: 3, untilDays: 7 },
  { kind: 'onboarding-7d', afterDays: 7, untilDays: 14 },
] as const satisfies readonly ReminderWindow[];

export type OnboardingReminderKind = (typeof ONBOARDING_REMINDERS)[number]['kind'];

export const OPTION_REMINDER = { kind: 'option-unsigned', afterDays: 3, untilDays: 10 } as const satisfies ReminderWindow;

export type OptionReminderKind = typeof OPTION_REMINDER.kind;

/** Days after the availability link (or the signature, without a link) before the first monthly reminder. */
export const AVAILABILITY_GRACE_DAYS = 3;

/** `availability-{yyyy}-{MM}`: one per option and month. */
export type AvailabilityReminderKind = `availability-${string}`;

export type ReminderKind = OnboardingReminderKind | OptionReminderKind | AvailabilityReminderKind;

/** The summary's counters: the two onboarding reminders, the option one, the monthly availability one. */
export type ReminderGroup = 'onboarding3d' | 'onboarding7d' | 'optionUnsigned' | 'availability';

export function groupOf(kind: ReminderKind): ReminderGroup {
  if (kind === 'onboarding-3d') return 'onboarding3d';
  if (kind === 'onboarding-7d') return 'onboarding7d';
  if (kind === 'option-unsigned') return 'optionUnsigned';
  return 'availability';
}

const time = (iso: string | null | undefined): number | null => {
  if (typeof iso !== 'string' || !iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

const iso = (ms: number) => new Date(ms).toISOString();

/** The window's reminder when `now` is inside it, else null. */
function inWindow<K extends string>(w: ReminderWindow<K>, anchor: string | null | undefined, now: Date): K | null {
  const t = time(anchor);
  if (t === null) return null;
  const age = now.getTime() - t;
  return age >= w.afterDays * DAY_MS && age < w.untilDays * DAY_MS ? w.kind : null;
}

/** The onboarding reminder due `now` for an invitation sent at `estimateSentAt` (the 7-day one once it is due). */
export function dueOnboardingReminder(estimateSentAt: string | null | undefined, now: Date): OnboardingReminderKind | null {
  for (const w of [...ONBOARDING_REMINDERS].reverse()) {
    const kind = inWindow(w, estimateSentAt, now);
    if (kind) return kind;
  }
  return null;
}

/** The unsigned-option reminder due `now` for a notification sent at `notifiedAt`. */
export function dueOptionReminder(notifiedAt: string | null | undefined, now: Date): OptionReminderKind | null {
  return inWindow(OPTION_REMINDER, notifiedAt, now);
}

/** The anchors (ISO) a due reminder of these windows can have: `from` < anchor <= `to`. */
export function anchorRange(windows: readonly ReminderWindow[], now: Date): { from: string; to: string } {
  const after = Math.min(...windows.map((w) => w.afterDays));
  const until = Math.max(...windows.map((w) => w.untilDays));
  return { from: iso(now.getTime() - until * DAY_MS), to: iso(now.getTime() - after * DAY_MS) };
}

/** The month of `now` in Italy (the availability page's day and month): year, month 1-12 and `yyyy-MM`. */
export function romeMonth(now: Date): { year: number; month: number; key: string } {
  const key = monthOf(todayInRome(now));
  return { year: Number(key.slice(0, 4)), month: Number(key.slice(5, 7)), key };
}

/**
 * From this many days before the end of the month (today included, Europe/Rome) the
 * availability reminder asks for the next month. The seller gives slots for visits that can
 * still be booked: in the last 10 days the current month has few bookable days left (an
 * agent books a visit days ahead), so its quota would ask for slots that are mostly useless,
 * while the next month is the one agents are planning. 10 days also leaves the seller a week
 * or more to fill the next month before it starts.
 */
export const AVAILABILITY_NEXT_MONTH_DAYS = 10;

/**
 * The month the availability reminder asks slots for at `now`: the current month in Italy,
 * or the next one when at most AVAILABILITY_NEXT_MONTH_DAYS days of it are left (today
 * included): from the 21st of a 30-day month, the 22nd of a 31-day one, the 19th of February.
 */
export function availabilityMonth(now: Date): { year: number; month: number; key: string } {
  const today = todayInRome(now);
  const current = romeMonth(now);
  const daysInMonth = new Date(Date.UTC(current.year, current.month, 0)).getUTCDate();
  const daysLeft = daysInMonth - Number(today.slice(8, 10)) + 1;
  if (daysLeft > AVAILABILITY_NEXT_MONTH_DAYS) return current;
  const key = monthOf(addDays(today, daysLeft)); // the 1st of the next month
  return { year: Number(key.slice(0, 4)), month: Number(key.slice(5, 7)), key };
}

/** The reminder of the month asked for (availabilityMonth): one per option and month asked for. */
export function availabilityKind(now: Date): AvailabilityReminderKind {
  return `availability-${availabilityMonth(now).key}`;
}

/** "dicembre 2026": the month asked for, named in the reminder. */
export function monthLabelOf(m: { year: number; month: number }): string {
  return formatMonthYear(Date.UTC(m.year, m.month - 1, 15, 12));
}

/** The option facts the availability reminder depends on. */
export interface AvailabilityFacts {
  paymentType?: unknown;
  hasKeys?: unknown;
  status?: unknown;
  signedAt?: unknown;
  availabilityLinkSentAt?: unknown;
  /** the option's expiry day (the last day it runs) */
  expiresAt?: unknown;
}

/** Options that no longer need anything from the seller (the lifecycle's final states, and the legacy 'completed'). */
export const CLOSED_OPTION_STATUSES: readonly string[] = [...FINAL_OPTION_STATES, 'completed'];

/**
 * True when a signed 'rateale' option (the seller keeps the keys and gives visit slots) may
 * get this month's availability reminder: open, signed, its link (or the signature) at least
 * AVAILABILITY_GRACE_DAYS old, and still running in the month asked for (availabilityMonth):
 * no slots are asked for a month after its expiry day, nor once that day is past (before the
 * daily job closes it).
 */
export function availabilityReminderApplies(o: AvailabilityFacts, now: Date): boolean {
  if (o.paymentType !== 'rateale' || o.hasKeys === true) return false;
  if (typeof o.status === 'string' && CLOSED_OPTION_STATUSES.includes(o.status)) return false;
  if (typeof o.expiresAt === 'string' && o.expiresAt) {
    if (isPastExpiry(o.expiresAt, todayInRome(now)) || availabilityMonth(now).key > monthOf(o.expiresAt)) return false;
  }
  const signed = time(typeof o.signedAt === 'string' ? o.signedAt : null);
  if (signed === null) return false;
  const since = time(typeof o.availabilityLinkSentAt === 'string' ? o.availabilityLinkSentAt : null) ?? signed;
  return now.getTime() - since >= AVAILABILITY_GRACE_DAYS * DAY_MS;
}

/** The month's quota is reached (isQuotaReached of the availability page), or its QUOTA item says so. */
export function quotaReached(slotsCount: number, minMonthlySlots: number, quotaReachedFlag?: unknown): boolean {
  return quotaReachedFlag === true || isQuotaReached(slotsCount, minMonthlySlots);
}

/** True when an unsigned option may get its reminder (open and not signed). */
export function optionAwaitsSignature(o: { status?: unknown; signedAt?: unknown }): boolean {
  if (typeof o.status === 'string' && CLOSED_OPTION_STATUSES.includes(o.status)) return false;
  return typeof o.signedAt !== 'string' || o.signedAt === '';
}
