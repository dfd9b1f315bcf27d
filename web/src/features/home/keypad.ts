/** Keys of the simulator's numeric keypad. */
export const DIGIT_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;
export type KeypadKey = (typeof DIGIT_KEYS)[number] | '0' | '000' | 'clear';

/** Up to 999.999.999 €. */
export const MAX_DIGITS = 9;

/**
 * Applies a key to the typed amount (a string of digits without leading zeros; '' means 0).
 * Zeros on an empty amount are ignored; digits beyond MAX_DIGITS are ignored.
 */
export function pressKey(value: string, key: KeypadKey): string {
  if (key === 'clear') return '';
  if (value === '' && (key === '0' || key === '000')) return '';
  const next = value + key;
  return next.length > MAX_DIGITS ? value : next;
}

/** Removes the last digit (Backspace on a physical keyboard). */
export function backspace(value: string): string {
  return value.slice(0, -1);
}
