import { describe, expect, it } from 'vitest';
import { isItalianIban, isItalianVatNumber, normalizeIban, vatDigitsOf } from '../../functions/domain/business-ids';
import { DEMO_BANK_TRANSFER, DEMO_COMPANY } from '../../functions/domain/runtime-config';

describe('Italian VAT number', () => {
  it('accepts 11 digits with a valid check digit, with or without IT and spaces', () => {
    expect(isItalianVatNumber('06363391001')).toBe(true);
    expect(isItalianVatNumber('IT06363391001')).toBe(true);
    expect(isItalianVatNumber('it 063 633 910 01')).toBe(true);
    expect(isItalianVatNumber('09876543217')).toBe(true);
    expect(vatDigitsOf('IT 06363391001')).toBe('06363391001');
  });

  it('refuses a wrong check digit, a wrong length, letters, and the demo number', () => {
    expect(isItalianVatNumber('06363391002')).toBe(false);
    expect(isItalianVatNumber('0636339100')).toBe(false);
    expect(isItalianVatNumber('063633910011')).toBe(false);
    expect(isItalianVatNumber('0636339100A')).toBe(false);
    expect(isItalianVatNumber('DE06363391001')).toBe(false);
    expect(isItalianVatNumber('')).toBe(false);
    expect(isItalianVatNumber(DEMO_COMPANY.vatNumber)).toBe(false);
  });
});

describe('Italian IBAN', () => {
  it('accepts IT, 27 characters and a valid mod-97 checksum, spaces and case aside', () => {
    expect(isItalianIban('IT13L0306909606100000012345')).toBe(true);
    expect(isItalianIban('it13 l030 6909 6061 0000 0012 345')).toBe(true);
    expect(normalizeIban(' it13 l030 6909 6061 0000 0012 345')).toBe('IT13L0306909606100000012345');
    // the demo account is a well-formed example IBAN: the deploy refuses it by value, not by form
    expect(isItalianIban(DEMO_BANK_TRANSFER.iban)).toBe(true);
  });

  it('refuses a wrong checksum, a wrong length, another country, a digit for the CIN', () => {
    expect(isItalianIban('IT14L0306909606100000012345')).toBe(false);
    expect(isItalianIban('IT13L0306909606100000012354')).toBe(false);
    expect(isItalianIban('IT13L030690960610000001234')).toBe(false);
    expect(isItalianIban('DE89370400440532013000')).toBe(false);
    expect(isItalianIban('IT1300306909606100000012345')).toBe(false);
    expect(isItalianIban('x')).toBe(false);
  });
});
