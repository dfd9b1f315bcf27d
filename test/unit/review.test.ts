import { describe, expect, it } from 'vitest';
import { DELEGATION_LABELS, type DelegationType } from '../../functions/domain/requests';
import { renderEstimateEmail } from '../../functions/domain/review/estimate-email';
import { renderAvailabilityEmail, renderOptionNotification } from '../../functions/domain/review/option-emails';
import { optionDocument } from '../../functions/domain/review/option-document';
import {
  defaultCorrectionFlags,
  latestAvailable,
  optionAmountLabel,
  optionExpiryLabel,
  optionRateLabel,
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
  it('labels the amount with its rate and duration; a legacy option (no duration) reads as 1%, duration not recorded', () => {
    expect(optionAmountLabel(8)).toBe("Importo dell'opzione (1.000 € ogni 100.000 €, 8 mesi)");
    expect(optionRateLabel(6)).toBe('700 € ogni 100.000 €, 6 mesi');
    expect(optionRateLabel(12)).toBe('1.500 € ogni 100.000 €, 12 mesi');
    expect(optionRateLabel(null)).toBe('1% del valore, durata non registrata');
  });
  it('expiry: the date once signed, the rule before, unknown for a legacy option', () => {
    expect(optionExpiryLabel({ optionDuration: 6, expiresAt: '2027-02-28' })).toBe('28/02/2027');
    expect(optionExpiryLabel({ optionDuration: 8, expiresAt: null })).toBe('8 mesi dalla firma');
    expect(optionExpiryLabel({ optionDuration: null, expiresAt: null })).toMatch(/^Non registrata/);
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
    expect(createOptionSchema.parse(ok).optionDuration).toBeUndefined();
    for (const m of [6, 8, 12] as const) expect(createOptionSchema.parse({ ...ok, optionDuration: m }).optionDuration).toBe(m);
    for (const bad of [7, '8', 0, null]) {
      expect(createOptionSchema.safeParse({ ...ok, optionDuration: bad }).error?.issues[0]?.message).toBe("La durata dell'opzione deve essere di 6, 8 o 12 mesi");
    }
    // the amount is never an input: an unknown key is dropped
    expect(createOptionSchema.parse({ ...ok, optionAmount: 1 })).not.toHaveProperty('optionAmount');
    expect(createOptionSchema.safeParse({ ...ok, propertyValue: 'x' }).error?.issues[0]?.message).toBe('Inserisci un valore immobile valido');
    expect(createOptionSchema.safeParse({ ...ok, salePricePercentage: 101 }).error?.issues[0]?.message).toBe('La percentuale di vendita deve essere tra 0 e 100');
    expect(createOptionSchema.safeParse({ ...ok, minAgentCommissionPercentage: 4 }).error?.issues[0]?.message).toBe('La condivisione minima non può superare la condivisione agenti');
  });
  it('option edit: the spec messages; an empty body is refused', () => {
    expect(updateOptionSchema.safeParse({ agentCommissionPercentage: -0.1 }).error?.issues[0]?.message).toBe('La percentuale di condivisione deve essere tra 0 e 100');
    expect(updateOptionSchema.safeParse({ salePricePercentage: 100.1 }).error?.issues[0]?.message).toBe('La percentuale di vendita deve essere tra 0 e 100');
    expect(updateOptionSchema.safeParse({ minAgentCommissionPercentage: 'a' }).error?.issues[0]?.message).toBe('La percentuale minima deve essere tra 0 e 100');
    // the state moves by the lifecycle's actions only
    expect(updateOptionSchema.safeParse({ status: 'published' }).error?.issues[0]?.message).toBe("Lo stato dell'opzione cambia solo con le sue azioni (pubblica, ritira, esercitata, annulla)");
    expect(updateOptionSchema.safeParse({}).error?.issues[0]?.message).toBe('Nessuna modifica da salvare');
    expect(updateOptionSchema.parse({ salePricePercentage: 12.5 })).toEqual({ salePricePercentage: 12.5 });
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
    const m = renderOptionNotification({ sellerName: 'Giulia Bianchi', propertyAddress: 'Via Verdi 12', propertyCity: 'Milano', optionAmount: 2100, optionDuration: 6, propertyValue: 300_000, paymentType: 'rateale', kycToken: 'tok_123456789012345678', appUrl: 'http://localhost:5173' });
    expect(m.text).toContain('http://localhost:5173/seller-kyc?token=tok_123456789012345678');
    expect(m.text).toContain("Importo dell'opzione (700 € ogni 100.000 €, 6 mesi): 2.100 €");
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
  const base = {
    optionId: 'o-1', createdAt: '2026-11-23T10:00:00.000Z', property: { address: 'Via Verdi 12', city: 'Milano', province: 'MI', surfaceArea: 92 },
    seller: { firstName: 'Giulia', lastName: 'Bianchi', email: 'g@example.it' }, grantee: { name: 'Acquisti Esempio S.p.A.', vatNumber: 'IT11223344554', address: 'Corso Italia 5, Milano' }, propertyValue: 300_000, optionAmount: 3000, paymentType: 'rateale' as const,
    installments: 12, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4,
    owners: [{ name: 'Giulia Bianchi', share: 60 }, { name: 'Marco Rossi', share: 40 }], optionDuration: 8 as const, expiresAt: null,
  };
  const textOf = (doc: ReturnType<typeof optionDocument>) => [doc.title, doc.subtitle, ...doc.sections.flatMap((s) => [s.title, ...s.lines])].join('\n');
  it('names property, owners with shares, price, amount with its rate, terms, duration and percentages in Italian, encodable by the PDF fonts', () => {
    const doc = optionDocument(base);
    const all = textOf(doc);
    for (const t of [
      'Via Verdi 12, Milano (MI)', 'Giulia Bianchi', 'Proprietari e quote', 'Giulia Bianchi: quota 60%', 'Marco Rossi: quota 40%', 'Società: Acquisti Esempio S.p.A.', 'Partita IVA: IT11223344554',
      'Sede: Corso Italia 5, Milano', 'I proprietari concedono a Acquisti Esempio S.p.A. l\'opzione', "Prezzo concordato (valore dell'immobile): 300.000 €",
      "Importo dell'opzione (1.000 € ogni 100.000 €, 8 mesi): 3.000 €", 'Rateale: 12 rate mensili da 250 € circa', 'Durata: 8 mesi',
      "Scadenza: l'opzione scade dopo 8 mesi dalla firma (la data è fissata alla firma)", '330.000', 'Condivisione agenti: 3% (minima 2%)', 'almeno 4 slot al mese',
      'Firma di Marco Rossi: ',
    ]) {
      expect(all).toContain(t);
    }
    expect(all).not.toMatch(/1 ?%/);
    expect(winAnsi(all)).not.toMatch(/[^\x20-\x7E\u00A0-\u00FF€—–’‘“”…•\n]/);
    expect(winAnsi('1\u202f000 €')).toBe('1 000 €');
  });
  it('once signed (a regenerated document) names the expiry date; a single owner with 100%; a legacy option says the duration is not recorded', () => {
    const signed = textOf(optionDocument({ ...base, owners: [{ name: 'Giulia Bianchi', share: 100 }], paymentType: 'anticipato', installments: null, hasKeys: true, expiresAt: '2027-04-30' }));
    expect(signed).toContain("Scadenza: l'opzione scade dopo 8 mesi dalla firma, il 30/04/2027");
    expect(signed).toContain('Proprietario e quota\nGiulia Bianchi: quota 100%');
    expect(signed).toContain("Anticipato: 3.000 € in un'unica soluzione alla firma");
    expect(signed).toContain('Il venditore concede');
    const legacy = textOf(optionDocument({ ...base, optionDuration: null, owners: [{ name: 'Giulia Bianchi', share: null }] }));
    expect(legacy).toContain("Importo dell'opzione (1% del valore, durata non registrata): 3.000 €");
    expect(legacy).toContain('Durata: non registrata');
    expect(legacy).toContain('Giulia Bianchi: quota non indicata');
  });
  it('renders a real PDF with pdf-lib, whatever the characters of the names', async () => {
    const bytes = await renderOptionPdf({
      optionId: 'o-2', createdAt: '2026-11-23T10:00:00.000Z', property: { address: 'Via dell\'Università 3 — int. 2 “B”', city: 'Forlì', province: 'FC', surfaceArea: null },
      seller: { firstName: 'Zoë', lastName: 'Łukasz 李', email: null }, grantee: { name: 'Società “Prova” S.r.l.', vatNumber: '11223344554', address: 'Via Università 1' }, propertyValue: 150_000, optionAmount: 1500, paymentType: 'anticipato',
      installments: null, hasKeys: true, agentCommissionPercentage: 2.5, minAgentCommissionPercentage: 1.5, salePricePercentage: 8, minMonthlySlots: 2,
      owners: [{ name: 'Zoë Łukasz 李', share: 50 }, { name: 'Ľubica Šťastná', share: 50 }], optionDuration: 12, expiresAt: '2027-11-23',
    });
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(1000);
  });
});
