/**
 * Wall times in Italy as instants (@date-fns/tz TZDate, daylight saving included): a slot's
 * start, the first and last instant of a day. Pure, shared by the visits, the request list's
 * period filter and the availability links' expiry.
 */
import { TZDate } from '@date-fns/tz';
import { addDays } from './availability';

export const ROME_TIME_ZONE = 'Europe/Rome';

/** The instant a Rome wall time (yyyy-MM-dd, HH:mm) names, as a date in Rome (the .ics names the zone). */
export function romeInstant(date: string, time: string): TZDate {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  return new TZDate(y!, m! - 1, d!, hh!, mm!, 0, ROME_TIME_ZONE);
}

/** The first instant (ISO, UTC) of the day yyyy-MM-dd in Italy (midnight is never skipped there). */
export function romeDayStart(day: string): string {
  return new Date(romeInstant(day, '00:00').getTime()).toISOString();
}

/** The last millisecond (ISO, UTC) of the day yyyy-MM-dd in Italy. */
export function romeDayEnd(day: string): string {
  return new Date(Date.parse(romeDayStart(addDays(day, 1))) - 1).toISOString();
}
