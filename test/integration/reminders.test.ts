/**
 * The daily reminders job (functions/notifications/send-reminders.ts) against the local
 * stack: each reminder at its day and not before, once (a second run and two concurrent runs
 * send one mail), none when the step is done or the month's quota is reached, and expired
 * link tokens deleted while valid ones stay. The states are made with the product's own use
 * cases where they exist (submission, estimate, option, notification, signature,
 * availability link); identity checks, delegations, slots and quotas are written as their
 * use cases store them. Runs are "as of" a time through the event's detail.now.
 */
import { TEST_ADMIN } from '../support/helpers';
import { randomUUID } from 'node:crypto';
import { uploadNonce } from '../../functions/lib/presigned-upload';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys } from '../../functions/model/keys';
import { triggers } from '../../functions/routes';
import { handler as sendRemindersHandler } from '../../functions/notifications/send-reminders';
import type { ReminderSummary } from '../../functions/notifications/reminders';
import { availabilityMonth, DAY_MS, monthLabelOf } from '../../functions/domain/reminders/rules';
import { sendEstimate } from '../../functions/review/estimate';
import { createOption } from '../../functions/review/option';
import { notifySeller, sendAvailabilityLink } from '../../functions/review/seller-mail';
import { skipCoOwners } from '../../functions/onboarding/co-owners/co-owners';
import { confirmSignedOption } from '../../functions/onboarding/option-signing/option-signing';
import { tokenExpiryFields } from '../../functions/model/tokens';
import { rateToMs } from '../../infra/local/stack';
import { sentMail, stack, uniqueEmail, useStackEnv } from '../support/helpers';
import { catastoDelegation, giveProperty } from '../support/seller';
import { apiFrom, fullBody, newClientIp, newId } from '../support/submission';

const TABLE = () => stack().env.TABLE_NAME!;
const HOUR = 3_600_000;
const put = (item: Record<string, unknown>) => ddb().send(new PutCommand({ TableName: TABLE(), Item: item }));
const get = async (key: Record<string, unknown>) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: key, ConsistentRead: true }))).Item;

/** One run of the scheduled handler as of `at`. */
const run = (at: number) => sendRemindersHandler({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: { now: new Date(at).toISOString() } });

async function remindersTo(email: string) {
  return (await sentMail()).filter((m) => m.destination.to.includes(email) && m.subject.startsWith('Promemoria'));
}

interface Seeded {
  id: string;
  email: string;
  userId: string | null;
}

/** A request through the public wizard route; `registered` gives it to a seller account as a claim does. */
async function submitted(registered: boolean): Promise<Seeded> {
  const id = newId();
  const email = uniqueEmail('promemoria');
  const res = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(id), email });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const userId = registered ? randomUUID() : null;
  if (userId) await giveProperty(id, userId);
  return { id, email, userId };
}

/** An available valuation, then the estimate e-mail (the invitation) through its use case, sent at `at`. */
async function estimateSent(p: Seeded, at: number): Promise<void> {
  // later than the submission's own (unavailable without OMI data): the latest is the current one
  const createdAt = new Date(Date.now() + 1).toISOString();
  await put({
    ...keys.valuation(p.id, createdAt),
    entity: 'valuation',
    propertyId: p.id,
    createdAt,
    origin: 'admin',
    available: true,
    valuationMin: 250_000,
    valuationMax: 330_000,
    valuationAvg: 290_000,
    cautiousDiscount: -10,
    adjustedMin: 225_000,
    adjustedMax: 297_000,
    adjustedAvg: 261_000,
  });
  await sendEstimate(p.id, TEST_ADMIN, new Date(at));
}

const identityVerified = (id: string) =>
  put({ ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', confidence: 96, verifiedAt: new Date().toISOString() });
const delegationSigned = (id: string) => put(catastoDelegation(id, new Date().toISOString()));

/** Identity verified, single owner, delegation signed: the onboarding steps 1-3 done. */
async function onboardingDone(p: Seeded): Promise<void> {
  await identityVerified(p.id);
  await skipCoOwners(p.id, p.userId!);
  await delegationSigned(p.id);
}

/** A registered seller with the onboarding done, an option created and notified at `at`. */
async function notifiedOption(hasKeys: boolean, at: number): Promise<Seeded> {
  const p = await submitted(true);
  await estimateSent(p, at - 2 * DAY_MS);
  await onboardingDone(p);
  await createOption(p.id, { propertyValue: 300_000, hasKeys, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 }, TEST_ADMIN, new Date(at));
  await notifySeller(p.id, TEST_ADMIN, new Date(at));
  return p;
}

/** The seller signs the option (the signed copy in the bucket, then the confirmation use case). */
async function signed(p: Seeded, at: number): Promise<void> {
  const key = `${p.id}/option/signed-${at}-${uploadNonce()}.pdf`;
  await s3().send(new PutObjectCommand({ Bucket: stack().env.MEDIA_BUCKET!, Key: key, Body: Buffer.from('%PDF-1.4 firmato'), ContentType: 'application/pdf' }));
  await confirmSignedOption(p.id, p.userId!, { key }, new Date(at));
}

const slot = (id: string, date: string) =>
  put({ ...keys.slot(id, date, randomUUID()), entity: 'slot', propertyId: id, date, start: '09:00', end: '10:00', isBooked: false, createdAt: new Date().toISOString() });

beforeAll(() => useStackEnv());

describe('sendReminders schedule', () => {
  it('is one daily schedule trigger that the local runtime can time too', () => {
    const t = triggers.find((x) => x.id === 'sendReminders');
    expect(t).toMatchObject({ source: 'schedule', schedule: 'rate(1 day)', handler: 'notifications/send-reminders' });
    expect(t!.iam.ses).toEqual(['SendEmail']);
    expect(rateToMs(t!.schedule)).toBe(DAY_MS);
  });

  it('refuses an event whose detail.now is not a date', async () => {
    await expect(sendRemindersHandler({ detail: { now: 'domani' } })).rejects.toThrow(/detail.now/);
  });
});

describe('onboarding incomplete', () => {
  it('reminds at 3 and at 7 days after the estimate e-mail, each once, not before', async () => {
    const t0 = Date.now();
    const registered = await submitted(true);
    await identityVerified(registered.id);
    const unregistered = await submitted(false);
    for (const p of [registered, unregistered]) await estimateSent(p, t0);

    await run(t0 + 3 * DAY_MS - HOUR);
    expect(await remindersTo(registered.email)).toEqual([]);
    expect(await remindersTo(unregistered.email)).toEqual([]);
    const estimateToken = (await get(keys.property(registered.id)))!.invitationToken as string;

    const first: ReminderSummary = await run(t0 + 3 * DAY_MS + HOUR);
    expect(first.sent.onboarding3d).toBeGreaterThanOrEqual(2);
    expect(first.checked).toBeGreaterThanOrEqual(2);
    const [mail] = await remindersTo(registered.email);
    const token = (await get(keys.property(registered.id)))!.invitationToken as string;
    expect(mail!.subject).toBe("Promemoria: completa la tua richiesta per l'immobile in Via Giuseppe Verdi 12, Milano");
    expect(mail!.body.text).toContain(`/seller-kyc?token=${token}`);
    // each reminder carries a fresh link: the estimate's is replaced and deleted
    expect(token).not.toBe(estimateToken);
    expect(await get(keys.invitation(estimateToken))).toBeUndefined();
    expect(await get(keys.invitation(token))).toMatchObject({ propertyId: registered.id });
    expect(mail!.body.text).toContain('Passaggi da completare: Comproprietari, Deleghe');
    const [toRegister] = await remindersTo(unregistered.email);
    expect(toRegister!.body.text).toContain('/seller-register?token=');
    // recorded on the PROPERTY item with the run's time
    expect((await get(keys.property(registered.id)))!.reminders).toEqual({ 'onboarding-3d': new Date(t0 + 3 * DAY_MS + HOUR).toISOString() });

    const again = await run(t0 + 3 * DAY_MS + 2 * HOUR);
    expect(again.alreadySent).toBeGreaterThanOrEqual(2);
    await run(t0 + 6 * DAY_MS);
    expect(await remindersTo(registered.email)).toHaveLength(1);
    expect(await remindersTo(unregistered.email)).toHaveLength(1);

    await run(t0 + 7 * DAY_MS + HOUR);
    await run(t0 + 7 * DAY_MS + 2 * HOUR);
    const mails = await remindersTo(registered.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.body.text).toContain('è passata una settimana');
    expect(await remindersTo(unregistered.email)).toHaveLength(2);
    expect(Object.keys((await get(keys.property(registered.id)))!.reminders as object).sort()).toEqual(['onboarding-3d', 'onboarding-7d']);
  });

  it('two runs at the same time send one mail', async () => {
    const t0 = Date.now();
    const p = await submitted(true);
    await estimateSent(p, t0);
    const [a, b] = await Promise.all([run(t0 + 3 * DAY_MS + HOUR), run(t0 + 3 * DAY_MS + HOUR)]);
    expect(a.errors + b.errors).toBe(0);
    expect(await remindersTo(p.email)).toHaveLength(1);
    expect((await get(keys.outbox(`reminder-onboarding-3d-${p.id}`)))!.status).toBe('sent');
  });

  it('sends nothing once the onboarding is complete, or after the option is created', async () => {
    const t0 = Date.now();
    const complete = await submitted(true);
    await estimateSent(complete, t0);
    await onboardingDone(complete);
    const withOption = await notifiedOption(false, t0);
    await run(t0 + 3 * DAY_MS + HOUR);
    await run(t0 + 7 * DAY_MS + HOUR);
    expect(await remindersTo(complete.email)).toEqual([]);
    // the option's own reminder is the only one (estimate sent 2 days before it)
    expect((await remindersTo(withOption.email)).map((m) => m.subject)).toEqual(["Promemoria: firma l'opzione di acquisto per l'immobile in Via Giuseppe Verdi 12, Milano"]);
  });

  it("sends nothing while the seller's identity check waits for an admin's review (the other steps done)", async () => {
    const t0 = Date.now();
    const p = await submitted(true);
    await estimateSent(p, t0);
    await put({ ...keys.identity(p.id), entity: 'identity', propertyId: p.id, status: 'review', documentType: 'carta_identita', confidence: 65 });
    await skipCoOwners(p.id, p.userId!);
    await delegationSigned(p.id);
    await run(t0 + 3 * DAY_MS + HOUR);
    expect(await remindersTo(p.email)).toEqual([]);
  });
});

describe('option not signed', () => {
  it('reminds 3 days after the notification, once, and never for a signed option', async () => {
    const t0 = Date.now();
    const unsigned = await notifiedOption(true, t0);
    const done = await notifiedOption(true, t0);
    await signed(done, t0 + DAY_MS);

    await run(t0 + 3 * DAY_MS - HOUR);
    expect(await remindersTo(unsigned.email)).toEqual([]);
    const first = await run(t0 + 3 * DAY_MS + HOUR);
    expect(first.sent.optionUnsigned).toBeGreaterThanOrEqual(1);
    await run(t0 + 4 * DAY_MS);
    const mails = await remindersTo(unsigned.email);
    expect(mails).toHaveLength(1);
    const token = (await get(keys.property(unsigned.id)))!.invitationToken as string;
    expect(mails[0]!.body.text).toContain(`Firma l'opzione di acquisto: http://localhost:5173/seller-kyc?token=${token}`);
    expect(mails[0]!.body.text).toContain("Importo dell'opzione (700 € ogni 100.000 €, 6 mesi): 2.100 €");
    expect((await get(keys.option(unsigned.id)))!.reminders).toEqual({ 'option-unsigned': new Date(t0 + 3 * DAY_MS + HOUR).toISOString() });
    expect(await remindersTo(done.email)).toEqual([]);
  });
});

describe('monthly availability', () => {
  it("reminds a signed 'rateale' option below the month's quota once a month, with the link; not at the quota, not with keys", async () => {
    const t0 = Date.now();
    const below = await notifiedOption(false, t0);
    const atQuota = await notifiedOption(false, t0);
    const flagged = await notifiedOption(false, t0);
    const withKeys = await notifiedOption(true, t0);
    for (const p of [below, atQuota, flagged, withKeys]) await signed(p, t0);
    for (const p of [below, atQuota, flagged]) await sendAvailabilityLink(p.id, new Date(t0));

    const when = t0 + 4 * DAY_MS; // 3 days after the link, and after the unsigned window
    // the month asked for: this one, or the next in the last days of this one
    const month = availabilityMonth(new Date(when));
    const day = (d: number) => `${month.key}-${String(d).padStart(2, '0')}`;
    await slot(below.id, day(20));
    for (const d of [3, 10, 17, 24]) await slot(atQuota.id, day(d));
    await put({ ...keys.monthlyQuota(flagged.id, month.year, month.month), entity: 'quota', propertyId: flagged.id, year: month.year, month: month.month, slotsCount: 4, quotaReached: true, version: 1 });

    await run(t0 + 3 * DAY_MS - HOUR);
    expect(await remindersTo(below.email)).toEqual([]);
    const adminLink = (await get(keys.option(below.id)))!.availabilityToken as string;
    const first = await run(when);
    expect(first.sent.availability).toBeGreaterThanOrEqual(1);
    await run(when + HOUR);
    const mails = await remindersTo(below.email);
    expect(mails).toHaveLength(1);
    const link = (await get(keys.option(below.id)))!.availabilityToken as string;
    expect(mails[0]!.body.text).toContain(`Inserisci le disponibilità: http://localhost:5173/availability/${link}`);
    // a fresh link of its own, living as long as the option; the admin's one is replaced
    expect(link).not.toBe(adminLink);
    expect(await get(keys.availabilityToken(adminLink))).toBeUndefined();
    const optionExpiry = (await get(keys.option(below.id)))!.expiresAt as string;
    expect(optionExpiry).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await get(keys.availabilityToken(link)))!.expiresAt as number).toBeGreaterThan(Date.parse(`${optionExpiry}T00:00:00Z`) / 1000);
    expect(mails[0]!.body.text).toContain('hai indicato 1 slot di visita');
    expect(mails[0]!.body.text).toContain('su un minimo di 4 al mese');
    expect((await get(keys.option(below.id)))!.reminders).toMatchObject({ [`availability-${month.key}`]: new Date(when).toISOString() });
    for (const p of [atQuota, flagged, withKeys]) expect(await remindersTo(p.email)).toEqual([]);

    // near the end of that month: a new reminder for the next one, still empty
    const nextRun = Date.UTC(month.year, month.month - 1, 25, 8);
    const next = availabilityMonth(new Date(nextRun));
    expect(next.key).not.toBe(month.key);
    await run(nextRun);
    await run(nextRun + HOUR);
    const later = await remindersTo(below.email);
    expect(later).toHaveLength(2);
    expect(later[1]!.subject).toBe(`Promemoria: le tue disponibilità per le visite di ${monthLabelOf(next)}`);
  });
});

describe('expired link tokens', () => {
  it('deletes the expired INVITE, COINVITE and AVAIL items and keeps the valid ones', async () => {
    const now = Date.now();
    const past = tokenExpiryFields(now - 31 * DAY_MS); // expired a day ago
    const future = tokenExpiryFields(now);
    const item = (key: { pk: string; sk: string }, fields: typeof past) => ({ ...key, entity: 'token', propertyId: newId(), createdAt: new Date().toISOString(), ...fields });
    const expired = [keys.invitation(`scaduto-${randomUUID()}`), keys.coOwnerInvitation(`scaduto-${randomUUID()}`), keys.availabilityToken(`scaduto-${randomUUID()}`)];
    const valid = [keys.invitation(`valido-${randomUUID()}`), keys.coOwnerInvitation(`valido-${randomUUID()}`), keys.availabilityToken(`valido-${randomUUID()}`)];
    for (const k of expired) await put(item(k, past));
    for (const k of valid) await put(item(k, future));

    // a token made by a route carries its expiry entry
    const p = await submitted(false);
    const invite = await get(keys.invitation((await get(keys.property(p.id)))!.invitationToken as string));
    expect(invite).toMatchObject(keys.tokenExpiryIndex(invite!.expiresAt as number));

    const summary = await run(now);
    expect(summary.tokensExpired).toBeGreaterThanOrEqual(3);
    for (const k of expired) expect(await get(k)).toBeUndefined();
    for (const k of valid) expect(await get(k)).toBeDefined();
    expect(await get({ pk: invite!.pk, sk: invite!.sk })).toBeDefined();
    expect((await run(now)).tokensExpired).toBe(0);
  });
});
