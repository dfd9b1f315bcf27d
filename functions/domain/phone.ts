/**
 * Phone numbers, pure and shared by the API and the SPA (one rule for the request wizard and
 * the sign-up forms): typed by a person -> E.164 (as stored, and as Cognito's `phone_number`
 * expects), and E.164 -> grouped for reading.
 */

/**
 * An Italian number without a prefix gets +39 (mobiles start with 3, landlines with 0), as does
 * one written with 39 but no +; "00" becomes "+". Spaces, dots, dashes, slashes and brackets are
 * dropped. Null when the result is not a plausible E.164 number.
 */
export function normalizePhone(input: string): string | null {
  const trimmed = input.trim();
  if (!trimmed || /[^\d\s+().\-/]/.test(trimmed)) return null;
  let digits = trimmed.replace(/[\s().\-/]/g, '');
  if (digits.startsWith('+')) digits = `+${digits.slice(1)}`;
  else if (digits.startsWith('00')) digits = `+${digits.slice(2)}`;
  else if (/^[03]\d{5,10}$/.test(digits)) digits = `+39${digits}`;
  else if (/^39[03]\d{5,10}$/.test(digits)) digits = `+${digits}`;
  else return null;
  return /^\+[1-9]\d{6,14}$/.test(digits) ? digits : null;
}

/** "+393331234567" -> "+39 333 123 4567"; other numbers are returned as they are. */
export function formatPhone(e164: string): string {
  const it = /^\+39(3\d{2})(\d{3})(\d{3,4})$/.exec(e164);
  if (it) return `+39 ${it[1]} ${it[2]} ${it[3]}`;
  return e164;
}
