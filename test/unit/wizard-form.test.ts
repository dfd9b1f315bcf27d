import { describe, expect, it } from 'vitest';
import * as places from '../../functions/domain/places/comuni';
import { HONEYPOT_FIELD, makePropertyDetailsSchema, propertyFields, WIZARD_STEPS } from '../../functions/domain/property';
import { DEFAULT_VALUES, STEP_FIELDS, toDetailsInput, validateDetails } from '../../web/src/components/property-wizard/form';

/** The wizard's form is derived from the contract: its fields, steps and defaults agree with the schema. */
describe('wizard form derived from the property schema', () => {
  it('holds every field of the contract but the rooms, plus the honeypot', () => {
    const contract = Object.keys(propertyFields).filter((f) => f !== 'rooms');
    expect(Object.keys(DEFAULT_VALUES).sort()).toEqual([...contract, HONEYPOT_FIELD].sort());
    expect(STEP_FIELDS.flat().sort()).toEqual(contract.sort());
    expect(WIZARD_STEPS.flat().sort()).toEqual(Object.keys(propertyFields).sort());
  });

  it('starts with the answers the server assumes when none is given', () => {
    const result = validateDetails({ ...DEFAULT_VALUES, address: 'Via Roma 1' }, { places });
    expect(result).toEqual({ ok: true, details: makePropertyDetailsSchema({ places }).parse({ address: 'Via Roma 1' }) });
    expect(toDetailsInput(DEFAULT_VALUES).hasWaterInfiltrations).toBe(false);
  });

  it('the option duration: 6 months by default, 6 / 8 / 12 from the select or JSON, anything else refused in Italian', () => {
    const schema = makePropertyDetailsSchema({ places });
    expect(DEFAULT_VALUES.optionDuration).toBe(6);
    expect(schema.parse({ address: 'Via Roma 1' }).optionDuration).toBe(6);
    expect(schema.parse({ address: 'Via Roma 1', optionDuration: '' }).optionDuration).toBe(6);
    expect(schema.parse({ address: 'Via Roma 1', optionDuration: 8 }).optionDuration).toBe(8);
    expect(schema.parse({ address: 'Via Roma 1', optionDuration: '12' }).optionDuration).toBe(12);
    for (const bad of [7, '9', 0, Number.NaN, 'sei']) {
      expect(validateDetails({ ...DEFAULT_VALUES, address: 'Via Roma 1', optionDuration: bad as 6 }, { places })).toEqual({
        ok: false,
        errors: { optionDuration: "La durata dell'opzione deve essere di 6, 8 o 12 mesi" },
      });
    }
  });

  it('an empty form fails on the address only, with the spec message', () => {
    expect(validateDetails(DEFAULT_VALUES, { places })).toEqual({ ok: false, errors: { address: "Inserisci l'indirizzo dell'immobile per continuare" } });
  });
});
