import { describe, expect, it } from 'vitest';
import { formatDate, formatDateLong, formatDateTime, formatDecimal, formatEuro, formatNumber, parseAmount } from '../../functions/domain/format';

describe('Italian formatting', () => {
  it('groups thousands with dots, also below 10.000', () => {
    expect(formatNumber(1000)).toBe('1.000');
    expect(formatNumber(250000)).toBe('250.000');
    expect(formatNumber(1234567)).toBe('1.234.567');
    expect(formatNumber(999)).toBe('999');
  });

  it('writes euro as whole amounts with the sign after', () => {
    expect(formatEuro(2500)).toBe('2.500 €');
    expect(formatEuro(700)).toBe('700 €');
    expect(formatEuro(1851.84)).toBe('1.852 €');
  });

  it('uses the decimal comma', () => {
    expect(formatDecimal(5.1)).toBe('5,1');
    expect(formatDecimal(12.345)).toBe('12,35');
  });

  it('formats dates as dd/MM/yyyy in Europe/Rome', () => {
    expect(formatDate('2026-11-22T23:30:00Z')).toBe('23/11/2026');
    expect(formatDateTime('2026-11-22T10:05:00Z')).toBe('22/11/2026 11:05');
    expect(formatDateLong('2026-11-22T10:00:00Z')).toBe('22 novembre 2026');
  });

  it('parses typed amounts: euro sign, dots, commas and spaces removed', () => {
    expect(parseAmount('250.000 €')).toBe(250000);
    expect(parseAmount('€ 1,500')).toBe(1500);
    expect(parseAmount('abc')).toBeNaN();
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('  ')).toBeNull();
  });

  it('drops an Italian decimal part instead of turning cents into euros', () => {
    expect(parseAmount('250.000,00')).toBe(250000);
    expect(parseAmount('250.000,5 €'.replace(' €', ''))).toBe(250000);
    expect(parseAmount('1.234,')).toBe(1234);
  });
});
