import { describe, expect, it } from 'vitest';
import * as places from '../../functions/domain/places/comuni';
import {
  buildYearOptions,
  FEATURES,
  makePropertyDetailsSchema,
  makeSubmissionSchema,
  MAX_MEDIA,
  MAX_ROOMS,
  MESSAGES,
  normalizePhone,
  submissionSchema,
  type SubmissionInput,
} from '../../functions/domain/property';
import { formatPhone } from '../../functions/domain/phone';

const NOW = new Date('2026-03-15T10:00:00Z');
const schema = makeSubmissionSchema({ places, now: () => NOW });
const draft = '2b7f3c1e-8a4d-4f6b-9c2e-1d3a5b7c9e0f';
const room = '7c9e0f2b-3c1e-4a4d-8f6b-9c2e1d3a5b7c';

const valid = {
  propertyDraftId: draft,
  address: 'Via Roma 1',
  province: 'MI',
  city: 'Milano',
  firstName: 'Anna',
  lastName: 'Rossi',
  email: 'anna.rossi@example.it',
  phone: '333 123 4567',
  privacyConsent: true,
} satisfies Partial<SubmissionInput>;

function errors(input: Record<string, unknown>, s = schema): Record<string, string> {
  const r = s.safeParse(input);
  if (r.success) return {};
  const out: Record<string, string> = {};
  for (const i of r.error.issues) out[i.path.join('.') || '_'] ??= i.message;
  return out;
}
const parse = (input: Record<string, unknown>) => schema.parse(input);

describe('submission schema: step 1 (location and type)', () => {
  it('accepts a minimal submission and applies the defaults', () => {
    const v = parse(valid);
    expect(v.address).toBe('Via Roma 1');
    expect(v.omiCategory).toBe('abitazioni_civili');
    expect(v.features).toEqual([]);
    expect(v.rooms).toEqual([]);
    expect(v.hasExtraordinaryExpenses).toBe('no');
    expect(v.hasAbuses).toBe('no');
    expect(v.hasBox).toBe(false);
  });

  it.each(['', '   ', undefined, null])('refuses an address empty after trimming (%j) with the spec message', (address) => {
    expect(errors({ ...valid, address })).toMatchObject({ address: "Inserisci l'indirizzo dell'immobile per continuare" });
  });

  it('trims the address', () => {
    expect(parse({ ...valid, address: '  Via Po 3  ' }).address).toBe('Via Po 3');
  });

  it('accepts the province code in any case and refuses unknown ones', () => {
    expect(parse({ ...valid, province: 'mi' }).province).toBe('MI');
    expect(errors({ ...valid, province: 'XX', city: null })).toEqual({ province: MESSAGES.province });
  });

  it('validates the comune against the province and stores the ISTAT name and code', () => {
    const v = parse({ ...valid, province: 'BZ', city: 'bolzano' });
    expect(v.city).toBe('Bolzano/Bozen');
    expect(v.cityIstat).toBe('021008');
    expect(errors({ ...valid, province: 'RM', city: 'Milano' })).toEqual({ city: MESSAGES.comune });
    expect(errors({ ...valid, province: null, city: 'Milano' })).toEqual({ city: MESSAGES.comuneWithoutProvince });
  });

  it('without the comuni list checks the comune only as text', () => {
    expect(submissionSchema.safeParse({ ...valid, province: 'RM', city: 'Milano' }).success).toBe(true);
  });

  it('refuses unknown OMI categories and property types', () => {
    expect(errors({ ...valid, omiCategory: 'castelli' })).toEqual({ omiCategory: MESSAGES.omiCategory });
    expect(errors({ ...valid, propertyType: 'castello' })).toEqual({ propertyType: MESSAGES.propertyType });
    expect(parse({ ...valid, propertyType: 'attico', omiCategory: 'ville_villini' })).toMatchObject({ propertyType: 'attico', omiCategory: 'ville_villini' });
  });
});

describe('submission schema: step 2 (basic information)', () => {
  it('parses the desired amount as whole euros: digits, Italian grouping, euro sign', () => {
    expect(parse({ ...valid, desiredAmount: '250.000' }).desiredAmount).toBe(250000);
    expect(parse({ ...valid, desiredAmount: '€ 1.250.000' }).desiredAmount).toBe(1250000);
    expect(parse({ ...valid, desiredAmount: 180000 }).desiredAmount).toBe(180000);
    expect(parse({ ...valid, desiredAmount: '' }).desiredAmount).toBeNull();
  });

  it('refuses decimals, letters and negatives in amounts', () => {
    expect(errors({ ...valid, desiredAmount: 1000.5 })).toEqual({ desiredAmount: MESSAGES.amountWhole });
    expect(errors({ ...valid, desiredAmount: '12a' })).toEqual({ desiredAmount: MESSAGES.amount });
    expect(errors({ ...valid, desiredAmount: -5 })).toEqual({ desiredAmount: MESSAGES.amountRange });
  });

  it('needs a positive surface and whole numbers of rooms and bathrooms', () => {
    expect(parse({ ...valid, surfaceArea: '85,5', numRooms: '3', numBathrooms: 2 })).toMatchObject({ surfaceArea: 85.5, numRooms: 3, numBathrooms: 2 });
    expect(errors({ ...valid, surfaceArea: 0 })).toEqual({ surfaceArea: MESSAGES.surface });
    expect(errors({ ...valid, numRooms: 2.5 })).toEqual({ numRooms: MESSAGES.integer });
    expect(errors({ ...valid, numBathrooms: -1 })).toEqual({ numBathrooms: MESSAGES.nonNegative });
  });

  it('accepts the listed floors only', () => {
    expect(parse({ ...valid, floor: 'terra' }).floor).toBe('terra');
    expect(parse({ ...valid, floor: '3' }).floor).toBe('3');
    expect(errors({ ...valid, floor: 'cantina' })).toEqual({ floor: MESSAGES.floor });
  });

  it('keeps terrace count and surface only when the toggle is on', () => {
    expect(parse({ ...valid, hasTerrace: true, numTerraces: 2, terraceSurfaceArea: 30 })).toMatchObject({ numTerraces: 2, terraceSurfaceArea: 30 });
    expect(parse({ ...valid, hasTerrace: false, numTerraces: 2, terraceSurfaceArea: 30 })).toMatchObject({ numTerraces: null, terraceSurfaceArea: null });
    expect(errors({ ...valid, hasTerrace: true, numTerraces: 0 })).toEqual({ numTerraces: MESSAGES.terraces });
  });
});

describe('submission schema: step 3 (characteristics and conditions)', () => {
  it('keeps extraordinary expenses details and amount only when the answer is si', () => {
    const yes = parse({ ...valid, hasExtraordinaryExpenses: 'si', extraordinaryExpensesDetails: 'Tetto', extraordinaryExpensesAmount: '12.000' });
    expect(yes).toMatchObject({ extraordinaryExpensesDetails: 'Tetto', extraordinaryExpensesAmount: 12000 });
    const no = parse({ ...valid, hasExtraordinaryExpenses: 'no', extraordinaryExpensesDetails: 'Tetto', extraordinaryExpensesAmount: 12000 });
    expect(no).toMatchObject({ extraordinaryExpensesDetails: null, extraordinaryExpensesAmount: null });
    expect(errors({ ...valid, hasExtraordinaryExpenses: 'forse' })).toEqual({ hasExtraordinaryExpenses: MESSAGES.yesNo });
  });

  it('accepts the 21 features, drops duplicates and refuses unknown ones', () => {
    expect(FEATURES).toHaveLength(21);
    expect(parse({ ...valid, features: [...FEATURES] }).features).toHaveLength(21);
    expect(parse({ ...valid, features: ['ascensore', 'ascensore'] }).features).toEqual(['ascensore']);
    expect(errors({ ...valid, features: ['elicottero'] })).toEqual({ 'features.0': MESSAGES.feature });
  });

  it('accepts the four conditions only', () => {
    for (const condition of ['nuovo', 'ottimo', 'buono', 'da_ristrutturare']) expect(parse({ ...valid, condition }).condition).toBe(condition);
    expect(errors({ ...valid, condition: 'pessimo' })).toEqual({ condition: MESSAGES.condition });
  });

  it('build year: from the current year back 125 years (125 options)', () => {
    const years = buildYearOptions(NOW);
    expect(years).toHaveLength(125);
    expect(years[0]).toBe(2026);
    expect(years.at(-1)).toBe(1902);
    expect(parse({ ...valid, buildYear: 2026 }).buildYear).toBe(2026);
    expect(parse({ ...valid, buildYear: '1902' }).buildYear).toBe(1902);
    expect(errors({ ...valid, buildYear: 1901 })).toEqual({ buildYear: MESSAGES.buildYear(1902, 2026) });
    expect(errors({ ...valid, buildYear: 2027 })).toEqual({ buildYear: MESSAGES.buildYear(1902, 2026) });
  });

  it.each([
    ['hasBox', 'numBox', MESSAGES.numBox, true],
    ['hasGarage', 'numGarage', MESSAGES.numGarage, true],
    ['hasHypothecs', 'numHypothecs', MESSAGES.numHypothecs, 'si'],
  ] as const)('%s: count required and at least 1 when checked, cleared when unchecked', (flag, count, message, yes) => {
    const no = typeof yes === 'boolean' ? false : 'no';
    expect(parse({ ...valid, [flag]: yes, [count]: 2 })[count]).toBe(2);
    expect(parse({ ...valid, [flag]: yes, [count]: '1' })[count]).toBe(1);
    expect(errors({ ...valid, [flag]: yes, [count]: 0 })).toEqual({ [count]: message });
    expect(errors({ ...valid, [flag]: yes })).toEqual({ [count]: message });
    expect(parse({ ...valid, [flag]: no, [count]: 3 })[count]).toBeNull();
  });

  it('abuses accept si, no and non_lo_so; details kept only for si', () => {
    expect(parse({ ...valid, hasAbuses: 'non_lo_so', abusesDetails: 'x' })).toMatchObject({ hasAbuses: 'non_lo_so', abusesDetails: null });
    expect(parse({ ...valid, hasAbuses: 'si', abusesDetails: 'Veranda' })).toMatchObject({ abusesDetails: 'Veranda' });
    expect(errors({ ...valid, hasAbuses: 'boh' })).toEqual({ hasAbuses: MESSAGES.yesNoUnknown });
    expect(errors({ ...valid, hasHypothecs: 'non_lo_so' })).toEqual({ hasHypothecs: MESSAGES.yesNo });
  });

  it('energy class A4..G only when the APE answer is si', () => {
    expect(parse({ ...valid, hasApe: 'si', apeClass: 'A4' }).apeClass).toBe('A4');
    expect(parse({ ...valid, hasApe: 'no', apeClass: 'A4' }).apeClass).toBeNull();
    expect(errors({ ...valid, hasApe: 'si', apeClass: 'A5' })).toEqual({ apeClass: MESSAGES.apeClass });
  });

  it('water infiltration details only when there are infiltrations; notes trimmed and bounded', () => {
    expect(parse({ ...valid, hasWaterInfiltrations: true, waterInfiltrationsDetails: 'Bagno' }).waterInfiltrationsDetails).toBe('Bagno');
    expect(parse({ ...valid, hasWaterInfiltrations: false, waterInfiltrationsDetails: 'Bagno' }).waterInfiltrationsDetails).toBeNull();
    expect(parse({ ...valid, notes: '  ciao  ' }).notes).toBe('ciao');
    expect(errors({ ...valid, notes: 'x'.repeat(2001) })).toEqual({ notes: MESSAGES.notesTooLong });
  });
});

describe('submission schema: step 4 (rooms and media)', () => {
  const key = (r = room, name = 'foto.jpg') => `${draft}/${r}/1767225600000_${name}`;

  it('accepts rooms with media under the draft and room prefix', () => {
    const v = parse({ ...valid, rooms: [{ id: room, type: 'cucina', media: [{ key: key() }] }] });
    expect(v.rooms[0]).toEqual({ id: room, type: 'cucina', media: [{ key: key() }] });
  });

  it('refuses media of another property or room, and duplicates', () => {
    const other = '11111111-2222-4333-8444-555555555555';
    expect(errors({ ...valid, rooms: [{ id: room, type: 'cucina', media: [{ key: `${other}/${room}/1767225600000_a.jpg` }] }] })).toEqual({
      'rooms.0.media.0.key': MESSAGES.mediaKey,
    });
    expect(errors({ ...valid, rooms: [{ id: room, type: 'cucina', media: [{ key: key(other) }] }] })).toEqual({ 'rooms.0.media.0.key': MESSAGES.mediaKey });
    expect(errors({ ...valid, rooms: [{ id: room, type: 'cucina', media: [{ key: key() }, { key: key() }] }] })).toEqual({
      'rooms.0.media.1.key': MESSAGES.duplicateMedia,
    });
  });

  it(`allows at most ${MAX_ROOMS} rooms and ${MAX_MEDIA} media in all (one DynamoDB transaction)`, () => {
    const rooms = (n: number, perRoom: number) =>
      Array.from({ length: n }, (_, i) => {
        const id = `7c9e0f2b-3c1e-4a4d-8f6b-${String(i).padStart(12, '0')}`;
        return { id, type: 'altro', media: Array.from({ length: perRoom }, (_, j) => ({ key: key(id, `f${j}.jpg`) })) };
      });
    expect(schema.safeParse({ ...valid, rooms: rooms(MAX_ROOMS, 3) }).success).toBe(true);
    expect(errors({ ...valid, rooms: rooms(MAX_ROOMS + 1, 0) })).toEqual({ rooms: MESSAGES.tooManyRooms });
    expect(errors({ ...valid, rooms: rooms(4, 20) })).toEqual({ rooms: MESSAGES.tooManyMedia });
    expect(errors({ ...valid, rooms: [{ id: room, type: 'salone', media: [] }] })).toEqual({ 'rooms.0.type': MESSAGES.roomType });
  });
});

describe('submission schema: contact dialog', () => {
  it.each([
    ['firstName', MESSAGES.firstName],
    ['lastName', MESSAGES.lastName],
    ['email', MESSAGES.email],
    ['phone', MESSAGES.phone],
  ])('requires %s', (field, message) => {
    expect(errors({ ...valid, [field]: '' })).toEqual({ [field]: message });
    expect(errors({ ...valid, [field]: undefined })).toEqual({ [field]: message });
  });

  it('accepts the wizard option to skip the dialog: all four empty, consent true', () => {
    const skipped = parse({ ...valid, firstName: '', lastName: ' ', email: '', phone: '', privacyConsent: true });
    expect(skipped).toMatchObject({ firstName: '', lastName: '', email: '', phone: '', privacyConsent: true });
    expect(errors({ ...valid, firstName: '', lastName: '', email: '', phone: '', privacyConsent: false })).toEqual({ privacyConsent: MESSAGES.privacy });
    // partly filled is not a skip: every missing field is asked for
    expect(errors({ ...valid, firstName: 'Anna', lastName: '', email: '', phone: '' })).toEqual({
      lastName: MESSAGES.lastName,
      email: MESSAGES.email,
      phone: MESSAGES.phone,
    });
  });

  it('requires the privacy consent to be true', () => {
    expect(errors({ ...valid, privacyConsent: false })).toEqual({ privacyConsent: MESSAGES.privacy });
    expect(errors({ ...valid, privacyConsent: undefined })).toEqual({ privacyConsent: MESSAGES.privacy });
  });

  it('lower-cases the e-mail and refuses malformed ones', () => {
    expect(parse({ ...valid, email: ' Anna@Example.IT ' }).email).toBe('anna@example.it');
    expect(errors({ ...valid, email: 'anna@' })).toEqual({ email: MESSAGES.email });
  });

  it('normalizes the mobile number to E.164', () => {
    expect(parse({ ...valid, phone: '333 123 4567' }).phone).toBe('+393331234567');
    expect(normalizePhone('+39 333-1234567')).toBe('+393331234567');
    expect(normalizePhone('0039 3331234567')).toBe('+393331234567');
    // the sign-up forms' rule too: 39 without +, a landline, a number from abroad; garbage is refused
    expect(normalizePhone('39 333 123 4567')).toBe('+393331234567');
    expect(normalizePhone('02 1234 5678')).toBe('+390212345678');
    expect(normalizePhone('+44 20 7946 0958')).toBe('+442079460958');
    for (const bad of ['', '123', '+39+3331234567', '333 abc', '+0 123 4567']) expect(normalizePhone(bad)).toBeNull();
    expect(formatPhone('+393331234567')).toBe('+39 333 123 4567');
    expect(formatPhone('+390212345678')).toBe('+390212345678');
    expect(errors({ ...valid, phone: 'chiamami' })).toEqual({ phone: MESSAGES.phoneInvalid });
  });

  it('keeps the source id of ?id= when well formed and drops a malformed one', () => {
    expect(parse({ ...valid, sourceId: 'fonte_42' }).sourceId).toBe('fonte_42');
    expect(parse({ ...valid, sourceId: '<script>' }).sourceId).toBeNull();
  });

  it('needs a uuid draft id', () => {
    expect(errors({ ...valid, propertyDraftId: 'abc' })).toEqual({ propertyDraftId: MESSAGES.draftId });
  });

  it('the details schema (no contact) validates the same property rules', () => {
    const details = makePropertyDetailsSchema({ places, now: () => NOW });
    expect(details.safeParse({ address: 'Via Roma 1' }).success).toBe(true);
    expect(details.safeParse({ address: ' ' }).success).toBe(false);
  });
});
