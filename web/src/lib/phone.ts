/**
 * Normalizes a phone number typed by a person to E.164, as Cognito's `phone_number`
 * expects. Italian numbers without a prefix get +39 (mobiles start with 3, landlines
 * with 0); "00" becomes "+". Returns null when the result is not a plausible number.
 */
export function normalizePhone(input: string): string | null {
  const trimmed = input.trim();
  if (!trimmed) return null;
  if (/[^\d\s+().\-/]/.test(trimmed)) return null;
  let digits = trimmed.replace(/[\s().\-/]/g, '');
  if (digits.startsWith('+')) {
    digits = `+${digits.slice(1).replace(/\+/g, '')}`;
  } else if (digits.startsWith('00')) {
    digits = `+${digits.slice(2)}`;
  } else if (/^[03]\d{5,10}$/.test(digits)) {
    digits = `+39${digits}`;
  } else if (/^39[03]\d{5,10}$/.test(digits)) {
    digits = `+${digits}`;
  } else {
    return null;
  }
  if (digits.includes('+', 1)) return null;
  return /^\+[1-9]\d{6,14}$/.test(digits) ? digits : null;
}

/** "+393331234567" -> "+39 333 123 4567"; other numbers are returned as they are. */
export function formatPhone(e164: string): string {
  const it = /^\+39(3\d{2})(\d{3})(\d{3,4})$/.exec(e164);
  if (it) return `+39 ${it[1]} ${it[2]} ${it[3]}`;
  return e164;
}
