import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateProperty, type ValuationRequest } from '../../functions/domain/valuation';
import type { OmiQuotation } from '../../functions/domain/omi/types';
import * as places from '../../functions/domain/places/comuni';
import { makeSubmissionSchema } from '../../functions/domain/property';
import { submitProperty, VALUATION_FAILED_REASON } from '../../functions/properties/property-submission';
import { api, sentMail, useStackEnv } from '../support/helpers';
import { apiFrom, dossier, fullBody, newClientIp, newId } from '../support/submission';
import { admin, importFile, VALORI_2025, ZONE_2025 } from './omi-support';

/**
 * The valuation on submission (spec 000 section 7 step 1), through the use case in-process
 * against the emulators: its result is stored as the property's first valuation; a failing
 * valuation never blocks the submission; without the data it needs it does not run.
 */
beforeAll(() => useStackEnv());

const schema = makeSubmissionSchema({ places });
const row = (stato: 'NORMALE' | 'OTTIMO', min: number, max: number, prev: boolean): OmiQuotation => ({
  semester: '2025-S1',
  prov: 'MI',
  comuneDescrizione: 'MILANO',
  fascia: 'B',
  zona: 'B12',
  linkZona: 'MI00003228',
  codTip: 20,
  descrTipologia: 'Abitazioni civili',
  stato,
  statoPrev: prev,
  comprMin: min,
  comprMax: max,
});
const fixture = async (req: ValuationRequest) => evaluateProperty(req, { rows: [row('NORMALE', 8700, 11000, true), row('OTTIMO', 11000, 14000, false)] });

describe('valuation on submission', () => {
  it('stores the result as the first valuation of the property and puts it in the lead e-mail', async () => {
    const id = newId();
    const seen: ValuationRequest[] = [];
    await submitProperty(schema.parse(fullBody(id)), {
      valuate: async (req) => {
        seen.push(req);
        return fixture(req);
      },
    });
    expect(seen[0]).toMatchObject({ province: 'MI', city: 'Milano', omiCategory: 'abitazioni_civili', surfaceArea: 92, condition: 'buono', floor: '3', hasTerrace: true });
    expect(seen[0]!.features).toEqual(['Ascensore', 'Cantina', 'Doppi vetri']);
    const items = await dossier(id);
    const valuations = items.filter((i) => i.entity === 'valuation');
    expect(valuations).toHaveLength(1);
    const expected = await fixture(seen[0]!);
    if (!expected.available) throw new Error('fixture should value');
    const v = valuations[0]!;
    expect(v).toMatchObject({
      sk: `VALUATION#${v.createdAt as string}`,
      origin: 'submission',
      available: true,
      valuationMin: expected.propertyValueMin,
      valuationMax: expected.propertyValueMax,
      valuationAvg: expected.propertyValueAvg,
      adjustedAvg: expected.adjustedAvg,
      cautiousDiscount: expected.cautiousDiscount,
      omiSource: 'Agenzia Entrate - OMI 2025-S1',
      omiDetails: expected.omiDetails,
    });
    const property = items.find((i) => i.entity === 'property')!;
    expect(v.createdAt).toBe(property.createdAt);
    // the automatic valuation is step 1 of the review: the request is 'Valutata' in the dashboard
    expect(property.valuedAt).toBe(property.createdAt);
    const mail = (await sentMail()).find((m) => (m.body.text ?? '').includes(id))!;
    expect(mail.body.text).toContain('Stima OMI: ');
    expect(mail.body.text).toContain('Fonte: Agenzia Entrate - OMI 2025-S1');
  });

  it('stores a "not available" answer too, with its reason', async () => {
    const id = newId();
    await submitProperty(schema.parse(fullBody(id)), { valuate: (req) => Promise.resolve(evaluateProperty(req, { rows: [] })) });
    const v = (await dossier(id)).find((i) => i.entity === 'valuation')!;
    expect(v).toMatchObject({ available: false, omiSource: null });
    expect(typeof v.reason).toBe('string');
    expect((await dossier(id)).find((i) => i.entity === 'property')!.valuedAt).toBeUndefined();
  });

  it('a failing valuation never blocks the submission, and the lead e-mail does not blame the data', async () => {
    const id = newId();
    const result = await submitProperty(schema.parse(fullBody(id)), { valuate: () => Promise.reject(new Error('Valutazione oltre 4000 ms')) });
    expect(result.propertyId).toBe(id);
    const entities = (await dossier(id)).map((i) => i.entity);
    expect(entities).toEqual(['property']);
    // the data was all there: the back office is told to value it, not that data is missing
    const mail = (await sentMail()).find((m) => (m.body.text ?? '').includes(id))!;
    expect(mail.body.text).toContain(`Stima OMI: Non disponibile: ${VALUATION_FAILED_REASON}`);
    expect(mail.body.text).not.toContain('dati insufficienti');
  });

  it('does not run without province, comune or surface', async () => {
    const id = newId();
    let called = false;
    await submitProperty(schema.parse({ ...fullBody(id), surfaceArea: null }), {
      valuate: async (req) => {
        called = true;
        return fixture(req);
      },
    });
    expect(called).toBe(false);
    expect((await dossier(id)).map((i) => i.entity)).toEqual(['property']);
    const mail = (await sentMail()).find((m) => (m.body.text ?? '').includes(id))!;
    expect(mail.body.text).toContain('Stima OMI: Non calcolata (dati insufficienti)');
  });
});

describe('valuation on submission with the OMI store', () => {
  it('a submission through the API stores the valuation the admin\'s evaluate-property gives for the same data', async () => {
    for (const [file, sem] of [[VALORI_2025, '2025-S1'], [ZONE_2025, '2025-S1']] as const) {
      expect((await importFile(file, sem)).status).toBe('completed');
    }
    const id = newId();
    const res = await apiFrom(newClientIp(), 'POST', '/properties', fullBody(id));
    expect(res.status).toBe(201);
    const v = (await dossier(id)).find((i) => i.entity === 'valuation')!;
    const admin_ = await api<Record<string, unknown>>('POST', '/valuations/evaluate', {
      token: await admin(),
      body: {
        address: 'Via Giuseppe Verdi 12', province: 'MI', city: 'Milano', omiCategory: 'abitazioni_civili', surfaceArea: 92,
        condition: 'buono', floor: '3', hasTerrace: true, features: ['Ascensore', 'Cantina', 'Doppi vetri'],
      },
    });
    expect(admin_.status).toBe(200);
    expect(admin_.body.available).toBe(true);
    expect(v).toMatchObject({
      available: true,
      valuationMin: admin_.body.propertyValueMin,
      valuationMax: admin_.body.propertyValueMax,
      valuationAvg: admin_.body.propertyValueAvg,
      adjustedAvg: admin_.body.adjustedAvg,
      omiSource: admin_.body.omiSource,
    });
  });
});
