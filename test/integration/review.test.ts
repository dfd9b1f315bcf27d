/**
 * Istruttoria Immobile through the API: valuation (history kept), the estimate e-mail with a
 * working registration link, the purchase option with its preconditions and PDF, the seller
 * notification and the availability link. Admin only.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { resetAws } from '../../functions/lib/aws';
import { resetConfig } from '../../functions/lib/config';
import { sendEstimate as sendEstimateCase } from '../../functions/review/estimate';
import { keys } from '../../functions/model/keys';
import type { DossierValuation, PurchaseOption } from '../../functions/domain/requests';
import type { AvailabilityLinkSent, EstimateSent, NotificationSent, OptionPoll } from '../../functions/domain/review/schemas';
import type { ValuationAvailable } from '../../functions/domain/valuation';
import { TEST_ADMIN, api, sentMail, stack, tokenForRole, uniqueEmail, useStackEnv } from '../support/helpers';
import { apiFrom, dossier, fullBody, newClientIp, newId } from '../support/submission';
import { clearAll, importFile, VALORI_2025, ZONE_2025 } from './omi-support';
import { markSigned } from '../support/option';

type Answer<T> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
let admin: string;

async function submitted(overrides: Record<string, unknown> = {}): Promise<{ id: string; email: string }> {
  const id = newId();
  const email = uniqueEmail('venditore');
  // each submission from its own address: the per-IP submission limit stays out of the way
  const res = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(id), email, ...overrides });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id, email: (overrides.email as string | undefined) ?? email };
}

const path = (id: string, rest = '') => `/admin/properties/${id}${rest}`;
const valuate = (id: string, body: Record<string, unknown> = {}, token = admin) => api<Answer<DossierValuation>>('POST', path(id, '/valuations'), { token, body });
const estimate = (id: string, token = admin) => api<Answer<EstimateSent>>('POST', path(id, '/estimate-email'), { token, body: {} });
const OPTION = { propertyValue: 300_000, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 };
const createOption = (id: string, body: Record<string, unknown> = OPTION, token = admin) => api<Answer<PurchaseOption>>('POST', path(id, '/option'), { token, body });
const property = async (id: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;
const valuations = async (id: string) => (await dossier(id)).filter((i) => i.entity === 'valuation');

async function sellerSideComplete(id: string) {
  const at = new Date().toISOString();
  await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', verifiedAt: at } }));
  await ddb().send(
    new PutCommand({ TableName: TABLE(), Item: { ...keys.delegation(id, 'catasto'), entity: 'delegation', propertyId: id, type: 'catasto', province: 'MI', municipality: 'Milano', documentKey: `${id}/documents/delega-catasto.pdf`, signedAt: at } }),
  );
}

async function mailsTo(email: string) {
  return (await sentMail()).filter((m) => m.destination.to.includes(email));
}

beforeAll(async () => {
  useStackEnv();
  admin = await tokenForRole('admin');
  await clearAll();
  for (const [file, sem] of [[VALORI_2025, '2025-S1'], [ZONE_2025, '2025-S1']] as const) {
    expect((await importFile(file, sem)).status).toBe('completed');
  }
});

describe('POST /admin/properties/{id}/valuations', () => {
  it('values the stored property with the admin choices, keeps the history and sets valuedAt in the same write', async () => {
    const { id } = await submitted();
    const before = await valuations(id);
    expect(before).toHaveLength(1); // the submission's own
    const res = await valuate(id, { cautiousDiscount: -20, applyGroundFloorCorrection: false, applyNoBalconyCorrection: true, applyNoElevatorCorrection: false, noBalconyCorrection: -5 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const v = res.body;
    expect(v).toMatchObject({ origin: 'admin', available: true, cautiousDiscount: -20, emailSentAt: null, omiSource: 'Agenzia Entrate - OMI 2025-S1' });
    expect(v.createdBy?.userId).toBeTruthy();
    expect(v.createdBy?.name).toBe(stack().accounts.find((a) => a.role === 'admin')!.fullName);
    const r = v.result as ValuationAvailable;
    // -5 no balcony (asked) +5 terrace (the property has one) = 0: base values stay, x 0.8 adjusted
    expect(r.corrections.map((c) => c.code).sort()).toEqual(['noBalcony', 'terrace']);
    expect(v.adjustedAvg).toBe(Math.round((v.valuationAvg! * 80) / 100));
    expect(r.notes.join(' ')).toContain('Ascensore');

    const again = await valuate(id, { linkZona: r.zones.find((z) => z.linkZona !== r.zone.linkZona)!.linkZona });
    expect(again.status).toBe(201);
    expect((again.body.result as ValuationAvailable).zone.rule).toBe('admin');
    expect(again.body.cautiousDiscount).toBe(-10);
    const after = await valuations(id);
    expect(after).toHaveLength(3);
    expect(after.map((i) => i.origin)).toEqual(['submission', 'admin', 'admin']);
    expect((await property(id)).valuedAt).toBe(again.body.createdAt);
  });

  it('stores an unavailable valuation too, with the reason, and leaves valuedAt alone', async () => {
    const { id } = await submitted({ province: 'RM', city: 'Roma', address: 'Via del Corso 1' });
    const res = await valuate(id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ available: false, origin: 'admin' });
    expect(res.body.reason).toContain('Nessuna quotazione OMI per Roma');
    expect((await valuations(id)).filter((v) => v.origin === 'admin')).toHaveLength(1);
    expect((await property(id)).valuedAt).toBeUndefined();
  });

  it('refuses bad input in Italian and writes nothing', async () => {
    const { id } = await submitted();
    for (const [body, message] of [
      [{ cautiousDiscount: -60 }, 'Il ribasso prudenziale deve essere tra -50 e 0'],
      [{ cautiousDiscount: 5 }, 'Il ribasso prudenziale deve essere tra -50 e 0'],
      // whole percentages: -7.5 was applied, shown "-8%" on the page and "7.5%" in the e-mail
      [{ cautiousDiscount: -7.5 }, 'Il ribasso prudenziale deve essere un numero intero'],
      [{ noBalconyCorrection: -2.5 }, 'Correzione assenza balcone: inserisci un numero intero'],
      [{ groundFloorCorrection: 3 }, 'Correzione piano terra: la correzione non può essere positiva'],
      [{ linkZona: 'zona con spazi' }, 'Zona OMI non valida'],
    ] as const) {
      const res = await valuate(id, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await valuations(id)).toHaveLength(1);
  });

  it('answers 404 "Immobile non trovato" for a missing property or one being deleted', async () => {
    expect((await valuate(newId())).body).toMatchObject({ message: 'Immobile non trovato' });
    const { id } = await submitted();
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.property(id), UpdateExpression: 'SET deletingAt = :n', ExpressionAttributeValues: { ':n': new Date().toISOString() } }));
    const res = await valuate(id);
    expect(res.status).toBe(404);
    expect(await valuations(id)).toHaveLength(1);
  });
});

describe('POST /admin/properties/{id}/estimate-email', () => {
  it('sends the estimate with a fresh registration link whose token a seller can claim', async () => {
    const { id, email } = await submitted();
    const oldToken = (await property(id)).invitationToken as string;
    const v = await valuate(id, { cautiousDiscount: -15 });
    const res = await estimate(id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.delivery).toBe('sent');
    const p = await property(id);
    expect(p.estimateSentAt).toBe(res.body.estimateSentAt);
    expect(p.invitationToken).not.toBe(oldToken);
    const stored = (await valuations(id)).at(-1)!;
    expect(stored.createdAt).toBe(v.body.createdAt);
    expect(stored.emailSentAt).toBe(res.body.emailSentAt);
    // the old link is gone, the new one is a valid INVITE
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.invitation(oldToken) }))).Item).toBeUndefined();
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.invitation(p.invitationToken as string) }))).Item).toMatchObject({ propertyId: id });

    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toContain('La valutazione del tuo immobile');
    const link = /https?:\/\/[^\s"<]+\/seller-register\?token=([A-Za-z0-9_-]+)/.exec(mail.body.text ?? '');
    expect(link?.[1]).toBe(p.invitationToken);
    expect(mail.body.html).toContain(`/seller-register?token=${p.invitationToken as string}`);
    expect(mail.body.text).toContain('-15%');
    const claim = await api('POST', '/invitations/claim', { token: await tokenForRole('seller'), body: { token: link![1] } });
    expect(claim.status).toBe(200);
    expect(claim.body).toMatchObject({ propertyId: id });
  });

  it('answers 200 when SES is down: the mail stays pending in the outbox for the scheduled retry', async () => {
    const { id } = await submitted();
    await valuate(id);
    // the use case in this process, with SES unreachable (the gateway's SES is fine)
    process.env.SES_ENDPOINT = 'http://127.0.0.1:9';
    resetConfig();
    resetAws();
    try {
      const res = await sendEstimateCase(id, TEST_ADMIN);
      expect(res.delivery).toBe('pending');
      expect((await property(id)).estimateSentAt).toBe(res.estimateSentAt);
      const outbox = (await ddb().send(new QueryCommand({
        TableName: TABLE(), IndexName: keys.pendingOutbox().index, KeyConditionExpression: 'gsi3pk = :pk', ExpressionAttributeValues: { ':pk': keys.pendingOutbox().pk },
      }))).Items?.find((i) => i.ref === id && i.kind === 'estimate');
      expect(outbox).toMatchObject({ status: 'pending', attempts: 1 });
      expect(outbox?.lastError).toBeTruthy();
    } finally {
      useStackEnv();
    }
  });

  it('needs an available valuation (409) and a seller e-mail (400), in Italian', async () => {
    const roma = await submitted({ province: 'RM', city: 'Roma' });
    await valuate(roma.id);
    const noValuation = await estimate(roma.id);
    expect(noValuation.status).toBe(409);
    expect(noValuation.body.message).toBe("Esegui prima una valutazione disponibile dell'immobile");

    const { id } = await submitted();
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.property(id), UpdateExpression: 'REMOVE email' }));
    const token = (await property(id)).invitationToken;
    const noEmail = await estimate(id);
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.message).toBe('Email del venditore non trovata');
    expect((await property(id)).invitationToken).toBe(token);
    expect((await property(id)).estimateSentAt).toBeUndefined();
  });
});

describe('the purchase option', () => {
  it('refuses to create it until the seller side is complete, naming what is missing', async () => {
    const { id } = await submitted();
    const none = await createOption(id);
    expect(none.status).toBe(409);
    expect(none.body.message).toContain("L'identità del venditore non è ancora verificata");
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', status: 'verified' } }));
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.delegation(id, 'urbanistica'), entity: 'delegation', type: 'urbanistica', documentKey: null, signedAt: null } }));
    const unsigned = await createOption(id);
    expect(unsigned.status).toBe(409);
    expect(unsigned.body.message).toBe('Deleghe non complete (documento firmato mancante): Atti Urbanistici');
    expect((await api<OptionPoll>('GET', path(id, '/option'), { token: admin })).body).toEqual({ option: null });
  });

  it("creates it once: the simulator's fee (6 months by default), rateale in 12 without keys, PDF in the media bucket; a second create is 409", async () => {
    const { id } = await submitted();
    await sellerSideComplete(id);
    const bad = await createOption(id, { ...OPTION, propertyValue: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Inserisci un valore immobile valido');
    const badPct = await createOption(id, { ...OPTION, salePricePercentage: 120 });
    expect(badPct.body.message).toBe('La percentuale di vendita deve essere tra 0 e 100');

    const res = await createOption(id, { ...OPTION, propertyValue: 312_345 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // 700 euro per 100.000 for 6 months: 2186.415 -> 2186
    expect(res.body).toMatchObject({ status: 'created', propertyValue: 312_345, optionAmount: 2186, optionDuration: 6, expiresAt: null, paymentType: 'rateale', installments: 12, hasKeys: false, signedAt: null });
    expect(res.body.documentKey).toBe(`${id}/documents/opzione-${res.body.id}.pdf`);
    const pdf = await s3().send(new GetObjectCommand({ Bucket: stack().env.MEDIA_BUCKET, Key: res.body.documentKey! }));
    const bytes = Buffer.from(await pdf.Body!.transformToByteArray());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(pdf.ContentType).toBe('application/pdf');

    const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id) }))).Item!;
    expect(item).toMatchObject({ optionDuration: 6, optionAmount: 2186, propertyAddress: 'Via Giuseppe Verdi 12', propertyCity: 'Milano', sellerFirstName: 'Giulia', sellerLastName: 'Bianchi', gsi2pk: 'OPTIONS' });
    expect((await property(id)).optionCreatedAt).toBe(res.body.createdAt);

    const second = await createOption(id, { ...OPTION, hasKeys: true });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe("Esiste già un'opzione per questo immobile");

    const poll = await api<OptionPoll>('GET', path(id, '/option'), { token: admin });
    expect(poll.body.option).toMatchObject({ id: res.body.id, signedAt: null });
  });

  it('with keys: anticipato, no installments', async () => {
    const { id } = await submitted();
    await sellerSideComplete(id);
    const res = await createOption(id, { ...OPTION, hasKeys: true, propertyValue: 250_000 });
    expect(res.body).toMatchObject({ paymentType: 'anticipato', installments: null, optionAmount: 1750, optionDuration: 6 });
  });

  it.each([
    [6, 2100],
    [8, 3000],
    [12, 4500],
  ] as const)('a %i-month option: the amount is the simulator\'s fee on the value (%i euro on 300.000), never the client\'s', async (months, amount) => {
    const { id } = await submitted();
    await sellerSideComplete(id);
    const res = await createOption(id, { ...OPTION, optionDuration: months, optionAmount: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ optionDuration: months, optionAmount: amount, expiresAt: null });
    const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id), ConsistentRead: true }))).Item!;
    expect(item).toMatchObject({ optionDuration: months, optionAmount: amount });
    expect(item.expiresAt).toBeNull();
  });

  it('takes the seller\'s choice from the submission when the admin sends none', async () => {
    const { id } = await submitted({ optionDuration: 12 });
    expect((await property(id)).optionDuration).toBe(12);
    const d = await api<{ property: { optionDuration: number } }>('GET', path(id), { token: admin });
    expect(d.body.property.optionDuration).toBe(12);
    await sellerSideComplete(id);
    const res = await createOption(id);
    expect(res.body).toMatchObject({ optionDuration: 12, optionAmount: 4500 });
  });

  it('refuses a duration other than 6, 8 or 12 months in Italian, and writes nothing', async () => {
    const { id } = await submitted();
    await sellerSideComplete(id);
    for (const optionDuration of [7, '8', 0, null]) {
      const res = await createOption(id, { ...OPTION, optionDuration });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toBe("La durata dell'opzione deve essere di 6, 8 o 12 mesi");
    }
    expect((await api<OptionPoll>('GET', path(id, '/option'), { token: admin })).body).toEqual({ option: null });
    expect((await property(id)).optionCreatedAt).toBeUndefined();
    expect((await dossier(id)).filter((i) => i.entity === 'option' || i.entity === 'document')).toEqual([]);
    // the submission too
    const bad = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(newId()), email: uniqueEmail('venditore'), optionDuration: 9 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("La durata dell'opzione deve essere di 6, 8 o 12 mesi");
  });

  it('notifies the seller with the KYC link; without a seller e-mail it is 400', async () => {
    const { id, email } = await submitted();
    await sellerSideComplete(id);
    expect((await api('POST', path(id, '/option/notification'), { token: admin, body: {} })).status).toBe(409);
    await createOption(id);
    const estimateToken = (await property(id)).invitationToken as string;
    const res = await api<Answer<NotificationSent>>('POST', path(id, '/option/notification'), { token: admin, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.delivery).toBe('sent');
    // the mail carries a fresh link of its own (30 days from now), the estimate's stops working
    const token = (await property(id)).invitationToken as string;
    expect(token).not.toBe(estimateToken);
    const invite = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.invitation(token), ConsistentRead: true }))).Item!;
    expect(invite).toMatchObject({ propertyId: id });
    expect(invite.expiresAt as number).toBeGreaterThan(Date.now() / 1000 + 29 * 86_400);
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.invitation(estimateToken), ConsistentRead: true }))).Item).toBeUndefined();
    const mail = (await mailsTo(email)).find((m) => m.subject.startsWith('Opzione di acquisto'))!;
    expect(mail.body.text).toContain(`/seller-kyc?token=${token}`);
    expect(mail.body.text).toContain("Importo dell'opzione (700 € ogni 100.000 €, 6 mesi): 2.100 €");
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id) }))).Item!.notifiedAt).toBe(res.body.notifiedAt);

    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.property(id), UpdateExpression: 'REMOVE email' }));
    const noEmail = await api<Answer<object>>('POST', path(id, '/option/notification'), { token: admin, body: {} });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.message).toBe("Errore nell'invio della notifica");
  });

  it('sends the availability link only for a signed option without keys', async () => {
    const { id, email } = await submitted();
    await sellerSideComplete(id);
    await createOption(id);
    const unsigned = await api<Answer<object>>('POST', path(id, '/option/availability-link'), { token: admin, body: {} });
    expect(unsigned.status).toBe(409);
    expect(unsigned.body.message).toBe("Il link di disponibilità si invia solo per un'opzione firmata senza chiavi");
    await markSigned(id);
    const res = await api<Answer<AvailabilityLinkSent>>('POST', path(id, '/option/availability-link'), { token: admin, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const option = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id) }))).Item!;
    expect(option.availabilityLinkSentAt).toBe(res.body.availabilityLinkSentAt);
    const token = option.availabilityToken as string;
    const avail = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.availabilityToken(token) }))).Item!;
    expect(avail).toMatchObject({ propertyId: id, optionId: option.id });
    // the link lives as long as the option (markSigned: expiry 2099-12-31), not 30 days
    expect(avail.expiresAt as number).toBeGreaterThan(Date.parse('2099-12-31T00:00:00Z') / 1000);
    const mail = (await mailsTo(email)).find((m) => m.body.text?.includes('/availability/'))!;
    expect(mail.body.text).toContain(`/availability/${token}`);
    // a second link replaces the first
    const again = await api('POST', path(id, '/option/availability-link'), { token: admin, body: {} });
    expect(again.status).toBe(200);
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.availabilityToken(token) }))).Item).toBeUndefined();

    const withKeys = await submitted();
    await sellerSideComplete(withKeys.id);
    await createOption(withKeys.id, { ...OPTION, hasKeys: true });
    await markSigned(withKeys.id);
    expect((await api('POST', path(withKeys.id, '/option/availability-link'), { token: admin, body: {} })).status).toBe(409);
  });
});

describe('review routes: other roles', () => {
  const calls = (id: string): [string, string, unknown][] => [
    ['POST', path(id, '/valuations'), {}],
    ['POST', path(id, '/estimate-email'), {}],
    ['POST', path(id, '/option'), OPTION],
    ['GET', path(id, '/option'), undefined],
    ['POST', path(id, '/option/notification'), {}],
    ['POST', path(id, '/option/availability-link'), {}],
  ];
  for (const role of ['seller', 'agent'] as const) {
    it(`refuses a ${role} (403) and writes nothing`, async () => {
      const token = await tokenForRole(role);
      const { id } = await submitted();
      await sellerSideComplete(id);
      for (const [method, p, body] of calls(id)) expect((await api(method, p, { token, body })).status, `${method} ${p}`).toBe(403);
      expect(await valuations(id)).toHaveLength(1);
      expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id) }))).Item).toBeUndefined();
    });
  }
  it('refuses an anonymous caller (401)', async () => {
    for (const [method, p, body] of calls(newId())) expect((await api(method, p, { body })).status).toBe(401);
  });
});
