import { describe, expect, it } from 'vitest';
import { DEFAULT_DURATION, FEE_RATE_PER_100K, optionAmount, upfrontFee } from '../../functions/domain/fees';

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

  it('sets the purchase option amount at 1% of the value, rounded', () => {
    expect(optionAmount(250_000)).toBe(2500);
    expect(optionAmount(199_950)).toBe(2000);
    expect(optionAmount(0)).toBe(0);
  });
});
