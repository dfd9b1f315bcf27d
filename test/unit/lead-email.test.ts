import { describe, expect, it } from 'vitest';
import { renderLeadEmail, type LeadEmailInput } from '../../functions/domain/property';
import { backoffMinutes, MAX_ATTEMPTS } from '../../functions/model/outbox';
import { isValidEmailAddress } from '../../functions/lib/mail';

const input: LeadEmailInput = {
  propertyId: 'p-1',
  createdAt: '2026-03-15T10:30:00Z',
  sourceId: 'fonte1',
  firstName: 'Anna <b>',
  lastName: "D'Angelo",
  email: 'anna@example.it',
  phone: '+393331234567',
  address: 'Via Roma 1 <script>alert(1)</script>',
  province: 'MI',
  city: 'Milano',
  omiCategory: 'abitazioni_civili',
  propertyType: 'appartamento',
  desiredAmount: 250000,
  optionDuration: 8,
  surfaceArea: 85.5,
  numRooms: 3,
  numBathrooms: 2,
  floor: 'terra',
  hasTerrace: true,
  numTerraces: 1,
  terraceSurfaceArea: 12,
  condominiumFees: 1200,
  hasExtraordinaryExpenses: 'si',
  extraordinaryExpensesDetails: 'Rifacimento tetto',
  extraordinaryExpensesAmount: 15000,
  features: ['ascensore', 'cantina'],
  condition: 'buono',
  buildYear: 1975,
  hasBox: true,
  numBox: 1,
  hasGarage: false,
  numGarage: null,
  hasAbuses: 'non_lo_so',
  abusesDetails: null,
  hasHypothecs: 'si',
  numHypothecs: 2,
  hasApe: 'si',
  apeClass: 'C',
  hasWaterInfiltrations: false,
  waterInfiltrationsDetails: null,
  notes: 'Citofonare & chiedere',
  rooms: [{ name: 'Cucina 1', media: 2 }],
  valuation: { min: 200000, max: 260000, avg: 230000, source: 'Agenzia Entrate - OMI 2025-S1' },
  reviewUrl: 'https://example.it/investigation/p-1',
};

describe('lead notification e-mail', () => {
  const mail = renderLeadEmail(input);

  it('has every field of the spec body in the plain text, amounts in Italian format', () => {
    for (const expected of [
      'Nome: Anna <b>', "Cognome: D'Angelo", 'Email: anna@example.it', 'Cellulare: +393331234567', 'Indirizzo: Via Roma 1',
      'Provincia: Milano (MI)', 'Comune: Milano', 'Importo desiderato: 250.000 €', 'Tipologia: Appartamento',
      'Caratteristiche: Ascensore, Cantina', 'Spese condominiali mensili: 1.200 €', 'Superficie: 85,5 m²', 'Locali: 3',
      'Bagni: 2', 'Piano: Piano terra', 'Stato: Buono', 'Anno di costruzione: 1975',
      'Spese straordinarie deliberate: Sì: Rifacimento tetto (15.000 €)', 'Box: Sì (1)', 'Garage: No', 'Abusi edilizi: Non lo so',
      'Ipoteche: Sì (2)', 'APE: Sì, classe C (120-150 kWh/m² anno)', 'Note: Citofonare & chiedere', 'Cucina 1: 2 file',
      'Fonte (id): fonte1', 'Stima OMI: 200.000 € - 260.000 € (media 230.000 €)', 'Categoria OMI: Abitazioni civili',
    ]) {
      expect(mail.text).toContain(expected);
    }
  });

  it('escapes every value in the HTML', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Via Roma 1 &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('Anna &lt;b&gt;');
    expect(mail.html).toContain('D&#39;Angelo');
    expect(mail.html).toContain('Citofonare &amp; chiedere');
    expect(mail.html).toContain('<html lang="it">');
  });

  it('has a one-line subject', () => {
    expect(renderLeadEmail({ ...input, address: 'Via\r\nBcc: x@y.z' }).subject).not.toMatch(/[\r\n]/);
  });
});

describe('mail addresses and outbox retries', () => {
  it('validates addresses (the SES emulator accepts anything)', () => {
    expect(isValidEmailAddress('backoffice@opzionecasa.it')).toBe(true);
    for (const bad of ['x', 'a@b', 'a b@c.it', 'a@b.it\r\nBcc: c@d.it', 'a@@b.it', '']) expect(isValidEmailAddress(bad)).toBe(false);
  });
  it('backs off 1, 2, 4 ... at most 60 minutes, bounded attempts', () => {
    expect([1, 2, 3, 4, 7, 8].map(backoffMinutes)).toEqual([1, 2, 4, 8, 60, 60]);
    expect(MAX_ATTEMPTS).toBe(8);
  });
});
