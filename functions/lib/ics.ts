/**
 * Calendar invitations (.ics, RFC 5545) with ical-generator: one event in Europe/Rome (its
 * VTIMEZONE written out, so every calendar shows the seller's wall time), a stable UID per
 * visit and a SEQUENCE that grows when the visit moves; METHOD REQUEST for a booking, CANCEL
 * for a cancellation or a refusal.
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { romeInstant, VISIT_TIME_ZONE } from '../domain/visits';

// Europe/Rome since 1996 (EU rules): CEST from the last Sunday of March, CET from the last Sunday of October
const ROME_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Rome',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
].join('\r\n');

export interface VisitInvitation {
  /** stable per visit: `visit-{id}@{domain}` */
  uid: string;
  /** grows with each change of the same visit (a move) */
  sequence: number;
  date: string;
  start: string;
  end: string;
  summary: string;
  description: string;
  location: string;
  organizer: { name: string; email: string };
  cancelled?: boolean;
}

export function visitInvitation(v: VisitInvitation): string {
  const cal = ical({ name: 'Opzione Casa', prodId: { company: 'Opzione Casa', product: 'visite', language: 'IT' }, method: v.cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST });
  cal.timezone({ name: VISIT_TIME_ZONE, generator: (tz) => (tz === VISIT_TIME_ZONE ? ROME_VTIMEZONE : null) });
  cal.createEvent({
    id: v.uid,
    sequence: v.sequence,
    start: romeInstant(v.date, v.start),
    end: romeInstant(v.date, v.end),
    timezone: VISIT_TIME_ZONE,
    summary: v.summary,
    description: v.description,
    location: v.location,
    organizer: v.organizer,
    status: v.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return cal.toString();
}
