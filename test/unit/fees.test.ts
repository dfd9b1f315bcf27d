import { describe, expect, it } from 'vitest';
import { DEFAULT_DURATION, FEE_RATE_PER_100K, optionExpiryDate, toOptionDuration, upfrontFee } from '../../functions/domain/fees';

describe('up-front fee rule (spec 000 section 9)', () => {
  it('pays 700, 1000 and 1500 euro per 100.000 euro for 6, 8 and 12 months', () => {
    expect(FEE_RATE_PER_100K).toEqual({ 6: 700, 8: 1000, 12: 1500 });
    expect(upfrontFee(100_000, 6)).toBe(700);
    expect(upfrontFee(100_000, 8)).toBe(1000);
    expect(upfrontFee(100_000, 12)).toBe(1500);
  });

  it('computes 250.000 euro at 8 months as 2.500 euro', () => {
    expect(upfrontFee(250_000, 8)).toBe(2500);
  });

  it('scales linearly and rounds to the whole euro', () => {
    expect(upfrontFee(185_000, 6)).toBe(1295);
    expect(upfrontFee(123_456, 12)).toBe(1852); // 1851.84
    expect(upfrontFee(1, 6)).toBe(0);
  });

  it('is zero for no value or nonsense', () => {
    expect(upfrontFee(0, 6)).toBe(0);
    expect(upfrontFee(-5, 12)).toBe(0);
    expect(upfrontFee(Number.NaN, 8)).toBe(0);
  });

  it('defaults to 6 months', () => {
    expect(DEFAULT_DURATION).toBe(6);
  });

  it('is the option amount at each duration, rounded to the euro (0.5 up)', () => {
    expect([6, 8, 12].map((m) => upfrontFee(312_345, m as 6 | 8 | 12))).toEqual([2186, 3123, 4685]); // 2186.415, 3123.45, 4685.175
    expect(upfrontFee(150, 8)).toBe(2); // 1.5
    expect(upfrontFee(50, 8)).toBe(1); // 0.5
  });

  it('rounds a half euro up wherever the division is not exact in binary (every 100 euro up to 2 million)', () => {
    expect(upfrontFee(100_100, 12)).toBe(1502); // 1501.5 (value / 100000 first gave 1501.4999... and 1501)
    expect(upfrontFee(100_500, 6)).toBe(704); // 703.5
    const wrong: string[] = [];
    for (let value = 100; value <= 2_000_000; value += 100) {
      for (const months of [6, 8, 12] as const) {
        // integer arithmetic: value x rate is exact, half up
        const expected = Math.floor((value * FEE_RATE_PER_100K[months] + 50_000) / 100_000);
        if (upfrontFee(value, months) !== expected) wrong.push(`${value} € ${months} mesi: ${upfrontFee(value, months)} invece di ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('reads a duration from a form or an item: 6, 8, 12 only', () => {
    expect(toOptionDuration(8)).toBe(8);
    expect(toOptionDuration('12')).toBe(12);
    for (const v of [7, '9', '', null, undefined, 6.5, 'sei']) expect(toOptionDuration(v)).toBeNull();
  });
});

describe('option expiry: the signature day in Italy + the duration in months', () => {
  it('adds 6, 8 and 12 months', () => {
    expect(optionExpiryDate('2026-11-26T10:00:00.000Z', 6)).toBe('2027-05-26');
    expect(optionExpiryDate('2026-11-26T10:00:00.000Z', 8)).toBe('2027-07-26');
    expect(optionExpiryDate('2026-11-26T10:00:00.000Z', 12)).toBe('2027-11-26');
  });

  it('ends a month the target lacks on its last day', () => {
    expect(optionExpiryDate('2026-08-31T09:00:00.000Z', 6)).toBe('2027-02-28');
    expect(optionExpiryDate('2027-08-31T09:00:00.000Z', 6)).toBe('2028-02-29'); // leap year
    expect(optionExpiryDate('2026-12-31T09:00:00.000Z', 8)).toBe('2027-08-31');
    expect(optionExpiryDate('2027-01-31T09:00:00.000Z', 8)).toBe('2027-09-30');
    expect(optionExpiryDate('2028-02-29T09:00:00.000Z', 12)).toBe('2029-02-28');
  });

  it('counts the calendar day in Italy, not in UTC', () => {
    // 23:30 UTC on 31 August is already 1 September in Rome (CEST)
    expect(optionExpiryDate('2026-08-31T23:30:00.000Z', 6)).toBe('2027-03-01');
    // 23:30 UTC on 31 December is 1 January in Rome (CET)
    expect(optionExpiryDate(new Date('2026-12-31T23:30:00.000Z'), 12)).toBe('2028-01-01');
  });
});
