/** The pure rules of the availability page (functions/domain/availability.ts) and where a seller goes after sign-in from a link. */
import { describe, expect, it } from 'vitest';
import {
  addDays,
  AVAILABILITY_MESSAGES as M,
  availabilitySaveSchema,
  isIsoDate,
  isQuotaReached,
  overlaps,
  slotIssues,
  todayInRome,
} from '../../functions/domain/availability';
import { formatSlotDate, formatSlotTime } from '../../functions/domain/format';
import { decidePostSignIn } from '../../web/src/lib/post-sign-in';

const issues = (body: unknown, today = '2026-11-23', booked: Record<string, { start: string; end: string }[]> = {}) => {
  const r = availabilitySaveSchema({ today: () => today, booked: (d) => booked[d] ?? [] }).safeParse(body);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('days in Europe/Rome', () => {
  it('takes the Italian day, across midnight and both offsets', () => {
    expect(todayInRome(new Date('2026-11-23T22:59:00Z'))).toBe('2026-11-23');
    expect(todayInRome(new Date('2026-11-23T23:00:00Z'))).toBe('2026-11-24'); // CET, +1
    expect(todayInRome(new Date('2026-06-30T21:59:00Z'))).toBe('2026-06-30');
    expect(todayInRome(new Date('2026-06-30T22:00:00Z'))).toBe('2026-07-01'); // CEST, +2
  });

  it('knows real calendar days and adds days across months and years', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('1/12/2026')).toBe(false);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-11-23', 365)).toBe('2027-11-23');
  });

  it('formats slot dates in the long weekday form and times as HH:mm', () => {
    expect(formatSlotDate('2026-12-10')).toBe('Giovedì 10 dicembre 2026');
    expect(formatSlotTime('09:00:00')).toBe('09:00');
  });
});

describe('slots and quotas', () => {
  it('two slots overlap only when each starts before the other ends', () => {
    expect(overlaps({ start: '10:00', end: '11:00' }, { start: '11:00', end: '12:00' })).toBe(false);
    expect(overlaps({ start: '10:00', end: '11:30' }, { start: '11:00', end: '12:00' })).toBe(true);
    expect(overlaps({ start: '09:00', end: '18:00' }, { start: '11:00', end: '12:00' })).toBe(true);
  });

  it('reports each overlapping slot once, a booked one first', () => {
    const day = [
      { start: '09:00', end: '10:00' },
      { start: '09:30', end: '10:30' },
      { start: '15:00', end: '16:00' },
    ];
    expect(slotIssues(day, [])).toEqual([{ index: 1, message: M.overlap }]);
    expect(slotIssues(day, [{ start: '15:30', end: '16:30' }])).toEqual([
      { index: 1, message: M.overlap },
      { index: 2, message: M.overlapBooked },
    ]);
  });

  it('a month reaches its quota at minMonthlySlots', () => {
    expect(isQuotaReached(3, 4)).toBe(false);
    expect(isQuotaReached(4, 4)).toBe(true);
    expect(isQuotaReached(5, 4)).toBe(true);
  });
});

describe('the save schema', () => {
  const one = (date: string, start = '09:00', end = '10:00') => ({ date, slots: [{ start, end }] });

  it('accepts today and up to 365 days ahead', () => {
    expect(issues({ days: [one('2026-11-23'), one('2027-11-23')] })).toEqual({});
  });

  it("refuses a day after the option's expiry day, and takes the expiry day itself", () => {
    const withExpiry = (body: unknown) => {
      const r = availabilitySaveSchema({ today: () => '2026-11-23', expiresAt: () => '2027-02-28' }).safeParse(body);
      return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
    };
    expect(withExpiry({ days: [one('2027-02-28')] })).toEqual({});
    expect(withExpiry({ days: [one('2027-02-28'), one('2027-03-01')] })).toEqual({ 'days.1.date': M.afterExpiry });
  });

  it('gives one Italian message per field', () => {
    expect(issues({ days: [] })).toEqual({ days: M.atLeastOneSlot });
    expect(issues({ days: [{ date: '2026-12-01', slots: [] }] })).toEqual({ 'days.0.slots': M.atLeastOneSlot });
    expect(issues({ days: [one('2026-11-22')] })).toEqual({ 'days.0.date': M.datePast });
    expect(issues({ days: [one('2027-11-24')] })).toEqual({ 'days.0.date': M.dateTooFar });
    expect(issues({ days: [one('2026-02-30')] })).toEqual({ 'days.0.date': M.dateInvalid });
    expect(issues({ days: [one('2026-12-01', '10:00', '10:00')] })).toEqual({ 'days.0.slots.0.end': M.endAfterStart });
    expect(issues({ days: [one('2026-12-01', '25:00', '26:00')] })).toEqual({ 'days.0.slots.0.start': M.timeInvalid, 'days.0.slots.0.end': M.timeInvalid });
    expect(issues({ days: [one('2026-12-01'), one('2026-12-01', '11:00', '12:00')] })).toEqual({ 'days.1.date': M.dateTwice });
    expect(issues({ days: [one('2026-12-01', '11:00', '12:00')] }, '2026-11-23', { '2026-12-01': [{ start: '11:30', end: '12:30' }] })).toEqual({
      'days.0.slots.0.start': M.overlapBooked,
    });
  });

  it('caps slots per day and per save', () => {
    const slots = (n: number) => Array.from({ length: n }, (_, i) => ({ start: `${String(i).padStart(2, '0')}:00`, end: `${String(i).padStart(2, '0')}:30` }));
    expect(issues({ days: [{ date: '2026-12-01', slots: slots(11) }] })).toEqual({ 'days.0.slots': M.tooManyPerDay });
    const days = Array.from({ length: 5 }, (_, i) => ({ date: `2026-12-0${i + 1}`, slots: slots(9) }));
    expect(issues({ days })).toEqual({ days: M.tooManySlots });
  });
});

describe('after sign-in on /seller-register with a token', () => {
  const seller = { groups: ['seller' as const], userType: 'venditore' as const };
  it('an availability link goes back to its page, a co-owner link to its onboarding, anything else is claimed', () => {
    expect(decidePostSignIn({ me: seller, origin: 'seller-register', token: 'tok_123', linkKind: 'availability' })).toEqual({ kind: 'navigate', to: '/availability/tok_123' });
    expect(decidePostSignIn({ me: seller, origin: 'seller-register', token: 'tok_123', linkKind: 'coOwner' })).toEqual({ kind: 'navigate', to: '/seller-kyc?token=tok_123' });
    for (const linkKind of ['invitation', 'unknown', null] as const) {
      expect(decidePostSignIn({ me: seller, origin: 'seller-register', token: 'tok_123', linkKind })).toMatchObject({ kind: 'claim', token: 'tok_123' });
    }
  });
});
