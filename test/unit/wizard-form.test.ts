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

  it('an empty form fails on the address only, with the spec message', () => {
    expect(validateDetails(DEFAULT_VALUES, { places })).toEqual({ ok: false, errors: { address: "Inserisci l'indirizzo dell'immobile per continuare" } });
  });
});
