/**
 * Italian business identifiers checked where they are configured (the deploy's company,
 * grantee and bank account, infra/stacks/deploy-config.ts). Pure: no I/O.
 */

/** The 11 digits of an Italian VAT number (partita IVA), with or without the `IT` prefix and spaces. */
export function vatDigitsOf(value: string): string {
  return value.replace(/\s+/g, '').replace(/^IT/i, '');
}

/**
 * True for an Italian VAT number: 11 digits (optionally after `IT`) whose last one is the
 * check digit of the first ten (digits in odd places summed, those in even places doubled
 * minus 9 when over 9, the check digit brings the sum to a multiple of 10).
 */
export function isItalianVatNumber(value: string): boolean {
  const digits = vatDigitsOf(value);
  if (!/^\d{11}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const d = Number(digits[i]);
    if (i % 2 === 0) sum += d;
    else sum += d * 2 > 9 ? d * 2 - 9 : d * 2;
  }
  return (10 - (sum % 10)) % 10 === Number(digits[10]);
}

/** An IBAN without spaces, upper case. */
export function normalizeIban(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** ISO 13616 check: the IBAN with its first four characters moved to the end, letters as 10..35, mod 97 is 1. */
function ibanChecksumValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const code = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of code) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

/**
 * True for an Italian IBAN (spaces allowed): IT, 2 check digits, the CIN letter, ABI and CAB
 * (5 digits each), a 12-character account number, 27 characters in all, and a valid mod-97
 * checksum.
 */
export function isItalianIban(value: string): boolean {
  const iban = normalizeIban(value);
  return /^IT\d{2}[A-Z]\d{10}[0-9A-Z]{12}$/.test(iban) && ibanChecksumValid(iban);
}
