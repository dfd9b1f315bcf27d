import { addMonths } from 'date-fns';

/**
 * Up-front fee rule (spec 000 section 9): the provider pays a non-refundable sum of
 * 700, 1000 or 1500 euro for every 100,000 euro of value, for an option of 6, 8 or 12
 * months. Shared by the home-page simulator and the server.
 */
export const OPTION_DURATIONS = [6, 8, 12] as const;
export type OptionDuration = (typeof OPTION_DURATIONS)[number];
export const DEFAULT_DURATION: OptionDuration = 6;

export const FEE_RATE_PER_100K: Record<OptionDuration, number> = {
  6: 700,
  8: 1000,
  12: 1500,
};

export function isOptionDuration(value: number): value is OptionDuration {
  return (OPTION_DURATIONS as readonly number[]).includes(value);
}

/**
 * Fee in whole euro: value / 100000 x rate, rounded to the euro (a half up). Multiplied first:
 * value x rate is exact, while value / 100000 is not (100,100 € over 12 months gave
 * 1501.4999... and 1501 € instead of 1502 €).
 */
export function upfrontFee(value: number, months: OptionDuration): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return Math.round((value * FEE_RATE_PER_100K[months]) / 100_000);
}

/** The Italian message of a duration that is not 6, 8 or 12 months (every API that takes one). */
export const OPTION_DURATION_MESSAGE = "La durata dell'opzione deve essere di 6, 8 o 12 mesi";

/** A duration as sent by a form or a stored item (number or numeric text), or null when it is none of 6, 8, 12. */
export function toOptionDuration(value: unknown): OptionDuration | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && isOptionDuration(n) ? n : null;
}

const romeDay = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' });

/**
 * The option's expiry (yyyy-MM-dd): the calendar day of the signature in Italy plus the
 * duration in months (date-fns addMonths: a day the target month lacks becomes its last day,
 * 31 August + 6 months = 28 or 29 February).
 */
export function optionExpiryDate(signedAt: Date | string, months: OptionDuration): string {
  const parts = Object.fromEntries(romeDay.formatToParts(new Date(signedAt)).map((p) => [p.type, p.value]));
  // local noon of that calendar day: addMonths works on local fields, noon keeps clear of DST gaps
  const day = new Date(Number(parts.year), Number(parts.month) - 1, Number(parts.day), 12);
  const expiry = addMonths(day, months);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${expiry.getFullYear()}-${pad(expiry.getMonth() + 1)}-${pad(expiry.getDate())}`;
}
