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

/** Fee in whole euro: value / 100000 x rate, rounded to the euro. */
export function upfrontFee(value: number, months: OptionDuration): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return Math.round((value / 100_000) * FEE_RATE_PER_100K[months]);
}

/** Purchase option amount: 1% of the property value, rounded (spec 000 section 9). */
export function optionAmount(propertyValue: number): number {
  if (!Number.isFinite(propertyValue) || propertyValue <= 0) return 0;
  return Math.round(propertyValue / 100);
}
