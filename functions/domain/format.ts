/** Italian formatting shared by the SPA, e-mails and documents. */
const int = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 0, useGrouping: true });
const dec = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 });
const date = new Intl.DateTimeFormat('it-IT', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Rome' });
const dateLong = new Intl.DateTimeFormat('it-IT', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Rome' });
const monthYear = new Intl.DateTimeFormat('it-IT', { month: 'long', year: 'numeric', timeZone: 'Europe/Rome' });
const dateTime = new Intl.DateTimeFormat('it-IT', {
  day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'Europe/Rome',
});

/** 250000 -> "250.000" (grouping always on, also for 4-digit numbers). */
export function formatNumber(value: number): string {
  return int.format(value).replace(/\u00a0/g, ' ');
}

/** 2.5 -> "2,5" */
export function formatDecimal(value: number): string {
  return dec.format(value);
}

/** 2500 -> "2.500 €" (whole euro, Italian grouping). */
export function formatEuro(value: number): string {
  // it-IT currency style skips grouping below 10.000 ("2500 €"); the product always groups.
  return `${formatNumber(Math.round(value))} €`;
}

const cents = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true });

/** 2575.5 -> "2.575,50 €": an amount to pay, to the cent (grouping always on). */
export function formatEuroCents(value: number): string {
  const [whole, fraction] = cents.format(Math.abs(value)).split(',');
  const grouped = formatNumber(Number((whole ?? '0').replace(/\./g, '')));
  return `${value < 0 ? '-' : ''}${grouped},${fraction ?? '00'} €`;
}

/** dd/MM/yyyy in Europe/Rome */
export function formatDate(value: Date | string | number): string {
  return date.format(new Date(value));
}

/** "22 novembre 2026" */
export function formatDateLong(value: Date | string | number): string {
  return dateLong.format(new Date(value));
}

/** "novembre 2026" (Europe/Rome) */
export function formatMonthYear(value: Date | string | number): string {
  return monthYear.format(new Date(value));
}

/** dd/MM/yyyy HH:mm in Europe/Rome */
export function formatDateTime(value: Date | string | number): string {
  return dateTime.format(new Date(value)).replace(',', '');
}

/**
 * Parses an amount typed or pasted by a person into whole euro (spec 000 section 5): an
 * Italian decimal part (",50") is dropped, then the euro sign, dots, commas and spaces.
 * Empty text -> null; anything else that is not a number -> NaN.
 */
export function parseAmount(text: string): number | null {
  const cleaned = text.trim().replace(/,\d{0,2}$/, '');
  const digits = cleaned.replace(/[€.,\s]/g, '');
  if (digits === '') return null;
  return /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
}

const slotWeekday = new Intl.DateTimeFormat('it-IT', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** '2026-12-01' -> 'Martedì 1 dicembre 2026' (spec 001: slot dates in long weekday format). */
export function formatSlotDate(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  const text = slotWeekday.format(d);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** '09:00:00' or '09:00' -> '09:00' (spec 001: slot times HH:mm) */
export function formatSlotTime(time: string): string {
  return /^\d{2}:\d{2}/.test(time) ? time.slice(0, 5) : time;
}

/**
 * Italian order with the numbers in a text by value (zone B2 before B12). One collator built
 * once: `localeCompare(b, 'it', opts)` builds one on every call, which made sorting a large
 * comune's zones most of a valuation's time.
 */
export const compareNatural = new Intl.Collator('it', { numeric: true }).compare;
