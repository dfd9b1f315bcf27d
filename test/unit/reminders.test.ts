import { describe, expect, it } from 'vitest';
import {
  anchorRange,
  availabilityKind,
  availabilityMonth,
  availabilityReminderApplies,
  DAY_MS,
  dueOnboardingReminder,
  dueOptionReminder,
  groupOf,
  monthLabelOf,
  ONBOARDING_REMINDERS,
  optionAwaitsSignature,
  quotaReached,
  romeMonth,
} from '../../functions/domain/reminders/rules';
import { renderAvailabilityReminder, renderOnboardingReminder, renderOptionReminder } from '../../functions/domain/reminders/emails';

const T0 = Date.parse('2026-03-10T09:00:00Z');
const at = (days: number, hours = 0) => new Date(T0 + days * DAY_MS + hours * 3_600_000);
const anchor = new Date(T0).toISOString();

describe('reminder windows', () => {
  it('onboarding: nothing before 3 days, the 3-day one until day 7, the 7-day one until day 14', () => {
    expect(dueOnboardingReminder(anchor, at(2, 23))).toBeNull();
    expect(dueOnboardingReminder(anchor, at(3))).toBe('onboarding-3d');
    expect(dueOnboardingReminder(anchor, at(6, 23))).toBe('onboarding-3d');
    expect(dueOnboardingReminder(anchor, at(7))).toBe('onboarding-7d');
    expect(dueOnboardingReminder(anchor, at(13, 23))).toBe('onboarding-7d');
    expect(dueOnboardingReminder(anchor, at(14))).toBeNull();
    expect(dueOnboardingReminder(null, at(5))).toBeNull();
    expect(dueOnboardingReminder('non una data', at(5))).toBeNull();
  });

  it('unsigned option: from 3 days after the notification, for a week', () => {
    expect(dueOptionReminder(anchor, at(2, 23))).toBeNull();
    expect(dueOptionReminder(anchor, at(3))).toBe('option-unsigned');
    expect(dueOptionReminder(anchor, at(9, 23))).toBe('option-unsigned');
    expect(dueOptionReminder(anchor, at(10))).toBeNull();
  });

  it('the anchors the Queries read cover exactly the windows', () => {
    const now = at(20);
    const r = anchorRange(ONBOARDING_REMINDERS, now);
    expect(r).toEqual({ from: new Date(now.getTime() - 14 * DAY_MS).toISOString(), to: new Date(now.getTime() - 3 * DAY_MS).toISOString() });
  });

  it('counts each kind in its group', () => {
    expect(groupOf('onboarding-3d')).toBe('onboarding3d');
    expect(groupOf('onboarding-7d')).toBe('onboarding7d');
    expect(groupOf('option-unsigned')).toBe('optionUnsigned');
    expect(groupOf('availability-2026-03')).toBe('availability');
  });
});

describe('monthly availability', () => {
  it('takes the month in Italy (an instant at 23:30 UTC on the 31st is already the 1st)', () => {
    expect(romeMonth(new Date('2026-03-31T23:30:00Z'))).toEqual({ year: 2026, month: 4, key: '2026-04' });
    expect(romeMonth(new Date('2026-12-31T22:59:00Z'))).toEqual({ year: 2026, month: 12, key: '2026-12' });
    expect(availabilityKind(new Date('2027-01-01T00:30:00+01:00'))).toBe('availability-2027-01');
  });

  it('asks for the coming month once the current one is nearly over (last 10 days, Europe/Rome)', () => {
    const asked = (iso: string) => monthLabelOf(availabilityMonth(new Date(iso)));
    // 29 November: the visits of November are almost over, December is asked for
    expect(asked('2026-11-29T08:00:00Z')).toBe('dicembre 2026');
    expect(availabilityKind(new Date('2026-11-29T08:00:00Z'))).toBe('availability-2026-12');
    // 10 November: November itself
    expect(asked('2026-11-10T08:00:00Z')).toBe('novembre 2026');
    expect(availabilityKind(new Date('2026-11-10T08:00:00Z'))).toBe('availability-2026-11');
    // 31 December: January of the next year
    expect(availabilityMonth(new Date('2026-12-31T10:00:00Z'))).toEqual({ year: 2027, month: 1, key: '2027-01' });
    expect(asked('2026-12-31T10:00:00Z')).toBe('gennaio 2027');
  });

  it('switches at midnight in Italy, not in UTC', () => {
    const asked = (iso: string) => monthLabelOf(availabilityMonth(new Date(iso)));
    // 20 November 23:59 in Rome (11 days left): November; 00:30 on the 21st (10 days left): December
    expect(asked('2026-11-20T22:59:00Z')).toBe('novembre 2026');
    expect(asked('2026-11-20T23:30:00Z')).toBe('dicembre 2026');
    // 31 December 23:30 UTC is already 1 January in Rome: January, the whole month ahead
    expect(availabilityMonth(new Date('2026-12-31T23:30:00Z'))).toEqual({ year: 2027, month: 1, key: '2027-01' });
    // 31 March 23:30 UTC is 1 April in Rome (summer time): April
    expect(availabilityMonth(new Date('2026-03-31T23:30:00Z')).key).toBe('2026-04');
    // 31-day months from the 22nd, February from the 19th (the 20th in a leap year)
    expect(availabilityMonth(new Date('2026-10-21T10:00:00Z')).key).toBe('2026-10');
    expect(availabilityMonth(new Date('2026-10-22T10:00:00Z')).key).toBe('2026-11');
    expect(availabilityMonth(new Date('2026-02-18T10:00:00Z')).key).toBe('2026-02');
    expect(availabilityMonth(new Date('2026-02-19T10:00:00Z')).key).toBe('2026-03');
    expect(availabilityMonth(new Date('2028-02-19T10:00:00Z')).key).toBe('2028-02');
    expect(availabilityMonth(new Date('2028-02-20T10:00:00Z')).key).toBe('2028-03');
  });

  it('applies to signed, open rateale options without keys, 3 days after the link (or the signature)', () => {
    const signed = { paymentType: 'rateale', hasKeys: false, status: 'pending', signedAt: anchor, availabilityLinkSentAt: at(1).toISOString() };
    expect(availabilityReminderApplies(signed, at(3, 23))).toBe(false);
    expect(availabilityReminderApplies(signed, at(4))).toBe(true);
    expect(availabilityReminderApplies({ ...signed, availabilityLinkSentAt: undefined }, at(3))).toBe(true);
    expect(availabilityReminderApplies({ ...signed, paymentType: 'anticipato', hasKeys: true }, at(10))).toBe(false);
    expect(availabilityReminderApplies({ ...signed, signedAt: null }, at(10))).toBe(false);
    expect(availabilityReminderApplies({ ...signed, status: 'cancelled' }, at(10))).toBe(false);
  });

  it("asks for no slots in a month after the option's expiry day, nor once that day is past", () => {
    const signed = { paymentType: 'rateale', hasKeys: false, status: 'published', signedAt: '2026-08-28T10:00:00Z' };
    // 19 February: March is asked for; the option runs to 28 February
    const feb19 = new Date('2027-02-19T10:00:00Z');
    expect(availabilityMonth(feb19).key).toBe('2027-03');
    expect(availabilityReminderApplies({ ...signed, expiresAt: '2027-02-28' }, feb19)).toBe(false);
    expect(availabilityReminderApplies({ ...signed, expiresAt: '2027-03-01' }, feb19)).toBe(true);
    // the 10th: February asked for, the option still running
    expect(availabilityReminderApplies({ ...signed, expiresAt: '2027-02-28' }, new Date('2027-02-10T10:00:00Z'))).toBe(true);
    // 1 March: past its expiry day, the daily job has not closed it yet
    expect(availabilityReminderApplies({ ...signed, expiresAt: '2027-02-28' }, new Date('2027-03-01T07:00:00Z'))).toBe(false);
  });

  it('reaches the quota with slots >= the minimum, or when the quota item says so', () => {
    expect(quotaReached(3, 4)).toBe(false);
    expect(quotaReached(4, 4)).toBe(true);
    expect(quotaReached(0, 4, true)).toBe(true);
  });

  it('an option awaits the signature until signedAt is set, unless closed', () => {
    expect(optionAwaitsSignature({ status: 'pending', signedAt: null })).toBe(true);
    expect(optionAwaitsSignature({ status: 'pending', signedAt: anchor })).toBe(false);
    expect(optionAwaitsSignature({ status: 'cancelled', signedAt: null })).toBe(false);
  });
});

describe('reminder e-mails', () => {
  const base = { sellerName: 'Giulia Bianchi', propertyAddress: 'Via Verdi 12', propertyCity: 'Milano', appUrl: 'https://opzionecasa.it/' };

  it('onboarding: the steps still to do and the onboarding link, or the registration link without an account', () => {
    const m = renderOnboardingReminder({ ...base, kind: 'onboarding-3d', registered: true, missingSteps: ["Verifica dell'identità", 'Deleghe'], token: 'tok_123' });
    expect(m.subject).toBe("Promemoria: completa la tua richiesta per l'immobile in Via Verdi 12, Milano");
    expect(m.text).toContain('Gentile Giulia Bianchi,');
    expect(m.text).toContain("Passaggi da completare: Verifica dell'identità, Deleghe");
    expect(m.text).toContain('https://opzionecasa.it/seller-kyc?token=tok_123');
    expect(m.html).toContain('<html lang="it">');
    const week = renderOnboardingReminder({ ...base, kind: 'onboarding-7d', registered: false, missingSteps: [], token: 'tok_123' });
    expect(week.text).toContain('è passata una settimana');
    expect(week.text).toContain('Registrati e prosegui: https://opzionecasa.it/seller-register?token=tok_123');
  });

  it('option: amounts in Italian format and the link to sign', () => {
    const m = renderOptionReminder({ ...base, optionAmount: 2100, optionDuration: 6, propertyValue: 300000, token: 'tok_9' });
    expect(m.text).toContain("Importo dell'opzione (700 € ogni 100.000 €, 6 mesi): 2.100 €");
    expect(m.text).toContain('Valore immobile: 300.000 €');
    expect(m.text).toContain("Firma l'opzione di acquisto: https://opzionecasa.it/seller-kyc?token=tok_9");
  });

  it('availability: the month, slots and minimum, with the link when there is one', () => {
    const m = renderAvailabilityReminder({ ...base, monthLabel: 'marzo 2026', slotsCount: 1, minMonthlySlots: 4, token: 'av_1' });
    expect(m.subject).toBe('Promemoria: le tue disponibilità per le visite di marzo 2026');
    expect(m.text).toContain('per marzo 2026 hai indicato 1 slot di visita per il tuo immobile in Via Verdi 12, Milano, su un minimo di 4 al mese.');
    expect(m.text).toContain('https://opzionecasa.it/availability/av_1');
    const noLink = renderAvailabilityReminder({ ...base, monthLabel: 'marzo 2026', slotsCount: 0, minMonthlySlots: 2, token: null });
    expect(noLink.text).not.toContain('/availability/');
    expect(noLink.text).toContain('contatta il nostro team');
  });

  it('availability on 29 November: the mail asks for December', () => {
    const month = availabilityMonth(new Date('2026-11-29T08:00:00Z'));
    const m = renderAvailabilityReminder({ ...base, monthLabel: monthLabelOf(month), slotsCount: 0, minMonthlySlots: 4, token: 'av_1' });
    expect(m.subject).toBe('Promemoria: le tue disponibilità per le visite di dicembre 2026');
    expect(m.text).toContain('per dicembre 2026 hai indicato 0 slot di visita');
  });
});
