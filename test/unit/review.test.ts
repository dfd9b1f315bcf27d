import { describe, expect, it } from 'vitest';
import { DELEGATION_LABELS, type DelegationType } from '../../functions/domain/requests';
import { renderEstimateEmail } from '../../functions/domain/review/estimate-email';
import { renderAvailabilityEmail, renderOptionNotification } from '../../functions/domain/review/option-emails';
import { optionDocument } from '../../functions/domain/review/option-document';
import {
  defaultCorrectionFlags,
  latestAvailable,
  optionAmountOf,
  paymentTermsOf,
  paymentTypeLabel,
  reviewStepOf,
  salePriceOf,
  subStepsOf,
} from '../../functions/domain/review/rules';
import { createOptionSchema, createValuationSchema, updateOptionSchema } from '../../functions/domain/review/schemas';
import { renderOptionPdf } from '../../functions/review/option-pdf';
import { winAnsi } from '../../functions/lib/pdf';

const label = (t: string) => DELEGATION_LABELS[t as DelegationType] ?? t;
const signed = (type: string) => ({ type: type as DelegationType, documentKey: `p/${type}.pdf`, signedAt: '2026-11-20T10:00:00.000Z' });

describe('option figures', () => {
  it('option amount is 1% of the value rounded to the euro', () => {
    expect(optionAmountOf(300_000)).toBe(3000);
    expect(optionAmountOf(123_456)).toBe(1235);
    expect(optionAmountOf(123_449)).toBe(1234);
  });
  it('payment terms: keys -> anticipato without installments, else rateale in 12', () => {
    expect(paymentTermsOf(true)).toEqual({ paymentType: 'anticipato', installments: null });
    expect(paymentTermsOf(false)).toEqual({ paymentType: 'rateale', installments: 12 });
    expect(paymentTypeLabel('anticipato')).toBe('Anticipato');
    expect(paymentTypeLabel('immediato')).toBe('Rateale');
  });
  it('sale price = value + value x % / 100, no decimals', () => {
    expect(salePriceOf(300_000, 10)).toBe(330_000);
    expect(salePriceOf(250_000, 7.5)).toBe(268_750);
    expect(salePriceOf(100_001, 3.3)).toBe(103_301);
  });
});

describe('step counter', () => {
  const v = (available: boolean, emailSentAt: string | null = null) => ({ available, emailSentAt });
  it('1 not valued, 2 valued, 3 estimate sent or option exists', () => {
    expect(reviewStepOf({ property: {}, valuations: [], option: null })).toBe(1);
    expect(reviewStepOf({ property: {}, valuations: [v(false)], option: null })).toBe(1);
    expect(reviewStepOf({ property: {}, valuations: [v(true)], option: null })).toBe(2);
    expect(reviewStepOf({ property: {}, valuations: [v(true, '2026-11-20T10:00:00Z')], option: null })).toBe(3);
    expect(reviewStepOf({ property: { estimateSentAt: '2026-11-20T10:00:00Z' }, valuations: [v(true), v(true)], option: null })).toBe(3);
    expect(reviewStepOf({ property: {}, valuations: [], option: { id: 'o' } })).toBe(3);
  });
  it('latestAvailable skips unavailable ones', () => {
    expect(latestAvailable([{ available: true, n: 1 }, { available: false, n: 2 }])).toEqual({ available: true, n: 1 });
    expect(latestAvailable([{ available: false }])).toBeUndefined();
  });
});

describe('step 3 sub-steps, unlocked in order', () => {
  it('nothing done: identity first, co-owners named as missing', () => {
    const s = subStepsOf({ identity: null, coOwners: [], delegations: [] }, label);
    expect(s).toMatchObject({ identityVerified: false, coOwnersDone: false, delegationsDone: false, canCreateOption: false, current: 1 });
    expect(s.missing).toEqual(["L'identità del venditore non è ancora verificata", 'La gestione dei comproprietari non è completa: nessun comproprietario né delega']);
  });
  it('a pending identity is not verified', () => {
    expect(subStepsOf({ identity: { status: 'pending' }, coOwners: [{}], delegations: [signed('catasto')] }).canCreateOption).toBe(false);
  });
  it('an unsigned delegation blocks the option and is named in Italian', () => {
    const s = subStepsOf({ identity: { status: 'verified' }, coOwners: [], delegations: [signed('catasto'), { type: 'urbanistica', documentKey: 'k', signedAt: null }] }, label);
    expect(s).toMatchObject({ coOwnersDone: true, delegationsDone: false, canCreateOption: false, current: 3 });
    expect(s.missing).toEqual(['Deleghe non complete (documento firmato mancante): Atti Urbanistici']);
  });
  it('a co-owner alone is not enough: a delegation is needed', () => {
    const s = subStepsOf({ identity: { status: 'verified' }, coOwners: [{}], delegations: [] }, label);
    expect(s).toMatchObject({ coOwnersDone: true, delegationsDone: false, current: 3 });
  });
  it('complete: the option may be created; signed -> 5', () => {
    const d = { identity: { status: 'verified' as const }, coOwners: [], delegations: [signed('catasto'), signed('anagrafe')] };
    expect(subStepsOf(d)).toMatchObject({ canCreateOption: true, current: 4, missing: [] });
    expect(subStepsOf({ ...d, option: { signedAt: '2026-11-21T10:00:00Z' } })).toMatchObject({ optionSigned: true, current: 5 });
  });
});

describe('correction pre-checks (spec 001 section 5)', () => {
  it('ground floor for terra or 0, no balcony without terrace, no elevator without ascensore', () => {
    expect(defaultCorrectionFlags({ floor: 'terra', hasTerrace: false, features: ['Cantina'] })).toEqual({
      applyGroundFloorCorrection: true, applyNoBalconyCorrection: true, applyNoElevatorCorrection: true,
    });
    expect(defaultCorrectionFlags({ floor: '0', hasTerrace: true, features: ['Ascensore'] })).toEqual({
      applyGroundFloorCorrection: true, applyNoBalconyCorrection: false, applyNoElevatorCorrection: false,
    });
    expect(defaultCorrectionFlags({ floor: '3', hasTerrace: true, features: ['ascensore'] }).applyGroundFloorCorrection).toBe(false);
  });
});

describe('schemas', () => {
  it('valuation body: defaults and the discount range in Italian', () => {
    expect(createValuationSchema.parse({})).toMatchObject({ cautiousDiscount: -10, groundFloorCorrection: -7, noBalconyCorrection: -5, noElevatorCorrection: -7 });
    const bad = createValuationSchema.safeParse({ cautiousDiscount: -51 });
    expect(bad.error?.issues[0]?.message).toBe('Il ribasso prudenziale deve essere tra -50 e 0');
    expect(createValuationSchema.safeParse({ cautiousDiscount: 1 }).success).toBe(false);
    expect(createValuationSchema.safeParse({ noBalconyCorrection: 2 }).error?.issues[0]?.message).toBe('Correzione assenza balcone: la correzione non può essere positiva');
  });
  it('option body: value > 0 and percentages 0..100', () => {
    const ok = { propertyValue: 300_000, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 };
    expect(createOptionSchema.safeParse(ok).success).toBe(true);
    expect(createOptionSchema.safeParse({ ...ok, propertyValue: 0 }).error?.issues[0]?.message).toBe('Inserisci un valore immobile valido');
    expect(createOptionSchema.safeParse({ ...ok, propertyValue: 'x' }).error?.issues[0]?.message).toBe('Inserisci un valore immobile valido');
    expect(createOptionSchema.safeParse({ ...ok, salePricePercentage: 101 }).error?.issues[0]?.message).toBe('La percentuale di vendita deve essere tra 0 e 100');
    expect(createOptionSchema.safeParse({ ...ok, minAgentCommissionPercentage: 4 }).error?.issues[0]?.message).toBe('La condivisione minima non può superare la condivisione agenti');
  });
  it('option edit: the spec messages; an empty body is refused', () => {
    expect(updateOptionSchema.safeParse({ agentCommissionPercentage: -0.1 }).error?.issues[0]?.message).toBe('La percentuale di condivisione deve essere tra 0 e 100');
    expect(updateOptionSchema.safeParse({ salePricePercentage: 100.1 }).error?.issues[0]?.message).toBe('La percentuale di vendita deve essere tra 0 e 100');
    expect(updateOptionSchema.safeParse({ minAgentCommissionPercentage: 'a' }).error?.issues[0]?.message).toBe('La percentuale minima deve essere tra 0 e 100');
    expect(updateOptionSchema.safeParse({ status: 'boh' }).error?.issues[0]?.message).toBe('Stato non valido');
    expect(updateOptionSchema.safeParse({}).error?.issues[0]?.message).toBe('Nessuna modifica da salvare');
    expect(updateOptionSchema.parse({ status: 'approved', salePricePercentage: 12.5 })).toEqual({ status: 'approved', salePricePercentage: 12.5 });
  });
});

describe('e-mails', () => {
  it('estimate: range, discount, adjusted value and the registration link, all escaped', () => {
    const m = renderEstimateEmail({
      customerName: 'Giulia <b>Bianchi</b>', propertyAddress: 'Via "Verdi" 12', propertyCity: 'Milano',
      valuationMin: 684_000, valuationMax: 866_400, valuationAvg: 775_200, cautiousDiscount: -10, adjustedAvg: 697_680,
      registrationToken: 'abc_DEF-123456789012345', appUrl: 'https://app.example.it/',
    });
    expect(m.subject).toBe('La valutazione del tuo immobile: Via "Verdi" 12, Milano');
    expect(m.html).toContain('https://app.example.it/seller-register?token=abc_DEF-123456789012345');
    expect(m.text).toContain('https://app.example.it/seller-register?token=abc_DEF-123456789012345');
    expect(m.html).toContain('Giulia &lt;b&gt;Bianchi&lt;/b&gt;');
    expect(m.html).not.toContain('<b>Bianchi');
    expect(m.html).toContain('Via &quot;Verdi&quot; 12');
    for (const v of ['684.000', '866.400', '775.200', '697.680', '-10%']) expect(m.text).toContain(v);
    expect(m.html).toContain('lang="it"');
  });
  it('option notification: amount, value and the KYC link', () => {
    const m = renderOptionNotification({ sellerName: 'Giulia Bianchi', propertyAddress: 'Via Verdi 12', propertyCity: 'Milano', optionAmount: 3000, propertyValue: 300_000, paymentType: 'rateale', kycToken: 'tok_123456789012345678', appUrl: 'http://localhost:5173' });
    expect(m.text).toContain('http://localhost:5173/seller-kyc?token=tok_123456789012345678');
    expect(m.text).toMatch(/3\.000/);
    expect(m.text).toMatch(/300\.000/);
    expect(m.text).toContain('Rateale');
  });
  it('availability link: /availability/{token} and the monthly minimum', () => {
    const m = renderAvailabilityEmail({ sellerName: 'Giulia', propertyAddress: 'Via Verdi 12', propertyCity: null, minMonthlySlots: 4, token: 'T0k3n_aaaaaaaaaaaaaaaa', appUrl: 'http://x.it' });
    expect(m.html).toContain('http://x.it/availability/T0k3n_aaaaaaaaaaaaaaaa');
    expect(m.text).toContain('almeno 4 slot al mese');
  });
});

describe('option document', () => {
  it('names property, seller, value, amount, terms and percentages in Italian, encodable by the PDF fonts', () => {
    const doc = optionDocument({
      optionId: 'o-1', createdAt: '2026-11-23T10:00:00.000Z', property: { address: 'Via Verdi 12', city: 'Milano', province: 'MI', surfaceArea: 92 },
      seller: { firstName: 'Giulia', lastName: 'Bianchi', email: 'g@example.it' }, grantee: { name: 'Acquisti Esempio S.p.A.', vatNumber: 'IT11223344554', address: 'Corso Italia 5, Milano' }, propertyValue: 300_000, optionAmount: 3000, paymentType: 'rateale',
      installments: 12, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4,
    });
    const all = [doc.title, doc.subtitle, ...doc.sections.flatMap((s) => [s.title, ...s.lines])].join('\n');
    for (const t of ['Via Verdi 12, Milano (MI)', 'Giulia Bianchi', 'Società: Acquisti Esempio S.p.A.', 'Partita IVA: IT11223344554', 'Sede: Corso Italia 5, Milano', 'concede a Acquisti Esempio S.p.A. l\'opzione', '300.000', '3.000', 'Rateale: 12 rate mensili da', '330.000', 'Condivisione agenti: 3% (minima 2%)', 'almeno 4 slot al mese']) {
      expect(all).toContain(t);
    }
    expect(winAnsi(all)).not.toMatch(/[^\x20-\x7E\u00A0-\u00FF€—–’‘“”…•\n]/);
    expect(winAnsi('1\u202f000 €')).toBe('1 000 €');
  });
  it('renders a real PDF with pdf-lib, whatever the characters of the names', async () => {
    const bytes = await renderOptionPdf({
      optionId: 'o-2', createdAt: '2026-11-23T10:00:00.000Z', property: { address: 'Via dell\'Università 3 — int. 2 “B”', city: 'Forlì', province: 'FC', surfaceArea: null },
      seller: { firstName: 'Zoë', lastName: 'Łukasz 李', email: null }, grantee: { name: 'Società “Prova” S.r.l.', vatNumber: '11223344554', address: 'Via Università 1' }, propertyValue: 150_000, optionAmount: 1500, paymentType: 'anticipato',
      installments: null, hasKeys: true, agentCommissionPercentage: 2.5, minAgentCommissionPercentage: 1.5, salePricePercentage: 8, minMonthlySlots: 2,
    });
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(1000);
  });
});
