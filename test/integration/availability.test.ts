/**
 * The seller's availability through the API: the e-mail's link (GET /seller/availability/{token})
 * and the owner's page by id (GET and PUT /seller/properties/{propertyId}/availability)
 * (the link of a signed option without keys, sent by the admin's route), the month quotas
 * kept in the save's transaction, the checks that leave nothing written, the race between two
 * saves of one month, GET /links/{token}, and the slots in the admin's dossier.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ddb } from '../../functions/model/db';
import type { Caller } from '../../functions/lib/auth';
import { resetAws } from '../../functions/lib/aws';
import { resetConfig } from '../../functions/lib/config';
import { keys } from '../../functions/model/keys';
import { saveAvailability } from '../../functions/availability/availability';
import { addDays, AVAILABILITY_MESSAGES, MAX_SLOTS_PER_SAVE, todayInRome, type AvailabilityState } from '../../functions/domain/availability';
import type { LinkKindAnswer } from '../../functions/domain/links';
import type { RequestDossier } from '../../functions/domain/requests';
import { newToken } from '../../functions/model/tokens';
import { api, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { freshSeller, ownedProperty, type Seller } from '../support/seller';
import { dossier } from '../support/submission';
import { markSigned } from '../support/option';

type Answer<T> = T & { message?: string; fields?: Record<string, string> };
type Day = { date: string; slots: { start: string; end: string }[] };

const TABLE = () => stack().env.TABLE_NAME!;
const OPTION = { propertyValue: 300_000, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10 };
let admin: string;

const path = (token: string) => `/seller/availability/${encodeURIComponent(token)}`;
const ownPath = (propertyId: string) => `/seller/properties/${encodeURIComponent(propertyId)}/availability`;
/** the e-mail's link (first arrival) */
const getState = (token: string, caller: string) => api<Answer<AvailabilityState>>('GET', path(token), { token: caller });
/** the owner's page by id */
const getOwn = (propertyId: string, caller: string) => api<Answer<AvailabilityState>>('GET', ownPath(propertyId), { token: caller });
const save = (propertyId: string, caller: string, days: Day[]) => api<Answer<AvailabilityState>>('PUT', ownPath(propertyId), { token: caller, body: { days } });

/** A day of the month `months` months from now (always in the future, within the year allowed). */
function dayIn(months: number, day: number): string {
  const [y, m] = todayInRome().split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + months, day));
  return d.toISOString().slice(0, 10);
}
const slot = (start: string, end: string) => ({ start, end });

interface Link {
  seller: Seller;
  propertyId: string;
  token: string;
}

/**
 * The way a link comes to be: a request of the seller, the seller side complete (identity
 * and one signed delegation written as the onboarding leaves them), the option created by the
 * admin without keys, signed, and the link sent by the admin's route.
 */
async function availabilityLink(minMonthlySlots = 3): Promise<Link> {
  const seller = await freshSeller();
  const propertyId = await ownedProperty(seller.userId);
  const at = new Date().toISOString();
  await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(propertyId), entity: 'identity', propertyId, status: 'verified', documentType: 'carta_identita', verifiedAt: at } }));
  await ddb().send(
    new PutCommand({
      TableName: TABLE(),
      Item: { ...keys.delegation(propertyId, 'catasto'), entity: 'delegation', propertyId, type: 'catasto', province: 'MI', municipality: 'Milano', documentKey: `${propertyId}/documents/delega-catasto.pdf`, signedAt: at },
    }),
  );
  const created = await api('POST', `/admin/properties/${propertyId}/option`, { token: admin, body: { ...OPTION, minMonthlySlots } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await markSigned(propertyId, at);
  const sent = await api('POST', `/admin/properties/${propertyId}/option/availability-link`, { token: admin, body: {} });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const option = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(propertyId), ConsistentRead: true }))).Item!;
  return { seller, propertyId, token: option.availabilityToken as string };
}

/** The SLOT# and QUOTA# items of the property, as stored. */
async function stored(propertyId: string) {
  const items = await dossier(propertyId);
  return {
    slots: items.filter((i) => String(i.sk).startsWith('SLOT#')),
    quotas: items.filter((i) => String(i.sk).startsWith('QUOTA#')),
  };
}

beforeAll(async () => {
  useStackEnv();
  admin = await tokenForRole('admin');
});

describe('GET /seller/availability/{token} and /seller/properties/{propertyId}/availability', () => {
  it("answers the owner the property, the monthly minimum, today in Europe/Rome and no slots yet, by the link and by id", async () => {
    const { seller, token, propertyId } = await availabilityLink(4);
    const res = await getState(token, seller.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      propertyId,
      property: { address: 'Via Giuseppe Verdi 12', city: 'Milano' },
      minMonthlySlots: 4,
      today: todayInRome(),
      expiresAt: (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(propertyId), ConsistentRead: true }))).Item!.expiresAt,
      slots: [],
      quotas: [],
    });
    expect(res.body.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await getOwn(propertyId, seller.token)).body).toEqual(res.body);
  });

  it("answers 404 'Link non valido' to an unknown, malformed, expired or replaced link and to another seller, and nothing changes", async () => {
    const link = await availabilityLink();
    const other = await freshSeller('Giulia Bianchi');
    const refused = async (token: string, caller: string) => {
      const res = await getState(token, caller);
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.message).toBe(AVAILABILITY_MESSAGES.invalidLink);
      // nothing about the property in the answer
      expect(JSON.stringify(res.body)).not.toContain('Verdi');
    };
    await refused(newToken(), link.seller.token);
    await refused('non-un-token', link.seller.token);
    await refused(link.token, other.token);
    // by id, another seller gets the same 404 as a missing property and saves nothing
    for (const res of [await getOwn(link.propertyId, other.token), await save(link.propertyId, other.token, [{ date: dayIn(1, 10), slots: [slot('09:00', '10:00')] }])]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(AVAILABILITY_MESSAGES.propertyNotFound);
      expect(JSON.stringify(res.body)).not.toContain('Verdi');
    }

    // expired (the TTL removes it later; until then expiresAt decides): the link no longer opens, the owner's page by id does
    await ddb().send(
      new UpdateCommand({ TableName: TABLE(), Key: keys.availabilityToken(link.token), UpdateExpression: 'SET expiresAt = :e', ExpressionAttributeValues: { ':e': Math.floor(Date.now() / 1000) - 60 } }),
    );
    await refused(link.token, link.seller.token);
    expect(await stored(link.propertyId)).toEqual({ slots: [], quotas: [] });
    expect((await getOwn(link.propertyId, link.seller.token)).status).toBe(200);

    // the admin sends a new link: the old one stops working, the new one works
    const again = await api('POST', `/admin/properties/${link.propertyId}/option/availability-link`, { token: admin, body: {} });
    expect(again.status).toBe(200);
    await refused(link.token, link.seller.token);
    const option = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(link.propertyId), ConsistentRead: true }))).Item!;
    expect((await getState(option.availabilityToken as string, link.seller.token)).status).toBe(200);
  });

  it("the link lives as long as the option: to the end of its expiry day in Italy", async () => {
    const { propertyId, token } = await availabilityLink();
    const option = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(propertyId), ConsistentRead: true }))).Item!;
    const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.availabilityToken(token), ConsistentRead: true }))).Item!;
    // markSigned writes the expiry 2099-12-31: its last second in Italy (CET, UTC+1)
    expect(option.expiresAt).toBe('2099-12-31');
    expect(item.expiresAt).toBe(Math.floor(Date.parse('2099-12-31T22:59:59.999Z') / 1000));
  });

  it('by id: 409 once the option no longer runs or when the seller left the keys; nothing saved', async () => {
    const link = await availabilityLink();
    const days = [{ date: dayIn(1, 10), slots: [slot('09:00', '10:00')] }];
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.option(link.propertyId), UpdateExpression: 'SET hasKeys = :t', ExpressionAttributeValues: { ':t': true } }));
    for (const res of [await getOwn(link.propertyId, link.seller.token), await save(link.propertyId, link.seller.token, days)]) {
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(AVAILABILITY_MESSAGES.withKeys);
    }
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.option(link.propertyId), UpdateExpression: 'SET hasKeys = :f', ExpressionAttributeValues: { ':f': false } }));
    const cancelled = await api('POST', `/admin/options/${link.propertyId}/transitions`, { token: admin, body: { action: 'cancel', reason: 'Il venditore ha rinunciato alla vendita' } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    for (const res of [await getOwn(link.propertyId, link.seller.token), await save(link.propertyId, link.seller.token, days)]) {
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(AVAILABILITY_MESSAGES.notRunning);
    }
    expect(await stored(link.propertyId)).toEqual({ slots: [], quotas: [] });
  });

  it('refuses other roles and anonymous callers', async () => {
    const { token, propertyId } = await availabilityLink();
    expect((await api('GET', path(token))).status).toBe(401);
    expect((await api('GET', ownPath(propertyId))).status).toBe(401);
    expect((await api('PUT', ownPath(propertyId), { body: { days: [] } })).status).toBe(401);
    for (const role of ['agent', 'admin'] as const) {
      const caller = await tokenForRole(role);
      expect((await getState(token, caller)).status).toBe(403);
      expect((await getOwn(propertyId, caller)).status).toBe(403);
      expect((await save(propertyId, caller, [{ date: dayIn(1, 3), slots: [slot('09:00', '10:00')] }])).status).toBe(403);
    }
  });
});

describe('PUT /seller/properties/{propertyId}/availability', () => {
  it('saves two days, keeps the month quotas in the same write and flips quotaReached at minMonthlySlots', async () => {
    const { seller, propertyId } = await availabilityLink(3);
    const a = dayIn(2, 4);
    const b = dayIn(2, 11);
    const c = dayIn(3, 2);
    const first = await save(propertyId, seller.token, [
      { date: a, slots: [slot('09:00', '10:00'), slot('15:30', '17:00')] },
      { date: c, slots: [slot('10:00', '11:00')] },
    ]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.slots.map((s) => [s.date, s.start, s.end, s.isBooked])).toEqual([
      [a, '09:00', '10:00', false],
      [a, '15:30', '17:00', false],
      [c, '10:00', '11:00', false],
    ]);
    const ym = (d: string) => d.split('-').map(Number).slice(0, 2) as [number, number];
    expect(first.body.quotas).toEqual([
      { year: ym(a)[0], month: ym(a)[1], slotsCount: 2, quotaReached: false },
      { year: ym(c)[0], month: ym(c)[1], slotsCount: 1, quotaReached: false },
    ]);

    // a third slot in the month: the quota is reached
    const second = await save(propertyId, seller.token, [{ date: b, slots: [slot('18:00', '19:00')] }]);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.quotas[0]).toEqual({ year: ym(a)[0], month: ym(a)[1], slotsCount: 3, quotaReached: true });
    const { slots, quotas } = await stored(propertyId);
    expect(slots).toHaveLength(4);
    const quotaA = quotas.find((q) => q.sk === keys.monthlyQuota(propertyId, ...ym(a)).sk)!;
    expect(quotaA).toMatchObject({ year: ym(a)[0], month: ym(a)[1], slotsCount: 3, quotaReached: true, minMonthlySlots: 3, version: 2 });
    expect(slots.find((s) => s.date === b)).toMatchObject({ entity: 'availability-slot', start: '18:00', end: '19:00', isBooked: false, propertyId });

    // saving a day again replaces its slots: an unchanged slot keeps its item, the quota drops back
    const keptId = slots.find((s) => s.date === a && s.start === '09:00')!.id;
    const third = await save(propertyId, seller.token, [{ date: a, slots: [slot('09:00', '10:00')] }]);
    expect(third.status, JSON.stringify(third.body)).toBe(200);
    expect(third.body.slots.filter((s) => s.date === a).map((s) => [s.id, s.start])).toEqual([[keptId, '09:00']]);
    expect(third.body.quotas[0]).toMatchObject({ slotsCount: 2, quotaReached: false });

    // the admin's dossier shows them
    const dossierRes = await api<RequestDossier>('GET', `/admin/properties/${propertyId}`, { token: admin });
    expect(dossierRes.body.slots.map((s) => [s.date, s.start, s.end])).toEqual([
      [a, '09:00', '10:00'],
      [b, '18:00', '19:00'],
      [c, '10:00', '11:00'],
    ]);
  });

  it('validates with Italian messages per field and writes nothing', async () => {
    const { seller, propertyId } = await availabilityLink();
    const today = todayInRome();
    const cases: [string, unknown, string, string][] = [
      ['no day', { days: [] }, 'days', AVAILABILITY_MESSAGES.atLeastOneSlot],
      ['no body', undefined, '_', AVAILABILITY_MESSAGES.atLeastOneSlot],
      ['a day without slots', { days: [{ date: dayIn(1, 5), slots: [] }] }, 'days.0.slots', AVAILABILITY_MESSAGES.atLeastOneSlot],
      ['a past day', { days: [{ date: addDays(today, -1), slots: [slot('09:00', '10:00')] }] }, 'days.0.date', AVAILABILITY_MESSAGES.datePast],
      ['not a day', { days: [{ date: '2027-02-30', slots: [slot('09:00', '10:00')] }] }, 'days.0.date', AVAILABILITY_MESSAGES.dateInvalid],
      ['too far', { days: [{ date: addDays(today, 400), slots: [slot('09:00', '10:00')] }] }, 'days.0.date', AVAILABILITY_MESSAGES.dateTooFar],
      ['end before start', { days: [{ date: dayIn(1, 5), slots: [slot('11:00', '10:00')] }] }, 'days.0.slots.0.end', AVAILABILITY_MESSAGES.endAfterStart],
      ['not HH:mm', { days: [{ date: dayIn(1, 5), slots: [slot('9', '10:00')] }] }, 'days.0.slots.0.start', AVAILABILITY_MESSAGES.timeInvalid],
      [
        'overlap in a day',
        { days: [{ date: dayIn(1, 5), slots: [slot('09:00', '10:30'), slot('10:00', '11:00')] }] },
        'days.0.slots.1.start',
        AVAILABILITY_MESSAGES.overlap,
      ],
      [
        'one day twice',
        { days: [{ date: dayIn(1, 5), slots: [slot('09:00', '10:00')] }, { date: dayIn(1, 5), slots: [slot('11:00', '12:00')] }] },
        'days.1.date',
        AVAILABILITY_MESSAGES.dateTwice,
      ],
      [
        `more than ${MAX_SLOTS_PER_SAVE} slots`,
        { days: Array.from({ length: 9 }, (_, i) => ({ date: dayIn(1, i + 1), slots: ['08', '09', '10', '11', '12'].map((h) => slot(`${h}:00`, `${h}:30`)) })) },
        'days',
        AVAILABILITY_MESSAGES.tooManySlots,
      ],
    ];
    for (const [name, body, field, message] of cases) {
      const res = await api<Answer<object>>('PUT', ownPath(propertyId), { token: seller.token, body });
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.fields?.[field], `${name}: ${JSON.stringify(res.body)}`).toBe(message);
    }
    expect(await stored(propertyId)).toEqual({ slots: [], quotas: [] });
  });

  it("refuses a day after the option's expiry day and writes nothing; the expiry day itself is saved", async () => {
    const { seller, propertyId } = await availabilityLink();
    const expiresAt = dayIn(1, 10);
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.option(propertyId), UpdateExpression: 'SET expiresAt = :d', ExpressionAttributeValues: { ':d': expiresAt } }));
    expect((await getOwn(propertyId, seller.token)).body.expiresAt).toBe(expiresAt);
    const after = await save(propertyId, seller.token, [{ date: expiresAt, slots: [slot('09:00', '10:00')] }, { date: dayIn(1, 11), slots: [slot('09:00', '10:00')] }]);
    expect(after.status).toBe(400);
    expect(after.body.fields).toEqual({ 'days.1.date': AVAILABILITY_MESSAGES.afterExpiry });
    expect((await stored(propertyId)).slots).toHaveLength(0);
    const lastDay = await save(propertyId, seller.token, [{ date: expiresAt, slots: [slot('09:00', '10:00')] }]);
    expect(lastDay.status, JSON.stringify(lastDay.body)).toBe(200);
    expect((await stored(propertyId)).slots).toHaveLength(1);
  });

  it('never removes a booked slot and refuses a slot overlapping it', async () => {
    const { seller, propertyId } = await availabilityLink();
    const day = dayIn(1, 20);
    expect((await save(propertyId, seller.token, [{ date: day, slots: [slot('09:00', '10:00'), slot('11:00', '12:00')] }])).status).toBe(200);
    const booked = (await stored(propertyId)).slots.find((s) => s.start === '11:00')!;
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: { pk: booked.pk, sk: booked.sk }, UpdateExpression: 'SET isBooked = :t', ExpressionAttributeValues: { ':t': true } }));

    const overlap = await save(propertyId, seller.token, [{ date: day, slots: [slot('11:30', '12:30')] }]);
    expect(overlap.status).toBe(400);
    expect(overlap.body.fields?.['days.0.slots.0.start']).toBe(AVAILABILITY_MESSAGES.overlapBooked);

    const res = await save(propertyId, seller.token, [{ date: day, slots: [slot('15:00', '16:00')] }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.slots.map((s) => [s.start, s.isBooked])).toEqual([
      ['11:00', true],
      ['15:00', false],
    ]);
    expect(res.body.quotas[0]).toMatchObject({ slotsCount: 2 });
  });

  it('a save that loses its race changes nothing (409): a month saved between its read and its write', async () => {
    const { seller, propertyId } = await availabilityLink();
    const day = dayIn(4, 8);
    expect((await save(propertyId, seller.token, [{ date: day, slots: [slot('09:00', '10:00')] }])).status).toBe(200);
    const before = await stored(propertyId);

    // the use case in this process, with another save of the month landing right before its transaction
    resetAws();
    resetConfig();
    const client = ddb();
    const send = client.send.bind(client);
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: { constructor: { name: string } }) => {
      if (command.constructor.name === 'TransactWriteCommand') {
        const quota = before.quotas[0]!;
        await send(new UpdateCommand({ TableName: TABLE(), Key: { pk: quota.pk, sk: quota.sk }, UpdateExpression: 'SET version = version + :one', ExpressionAttributeValues: { ':one': 1 } }));
      }
      return send(command as never);
    }) as never);
    try {
      const me: Caller = { userId: seller.userId, email: seller.email, groups: ['seller'] };
      await expect(saveAvailability(propertyId, me, [{ date: day, slots: [slot('14:00', '15:00')] }, { date: dayIn(4, 9), slots: [slot('09:00', '10:00')] }])).rejects.toMatchObject({
        status: 409,
        message: AVAILABILITY_MESSAGES.conflict,
      });
    } finally {
      spy.mockRestore();
    }
    const after = await stored(propertyId);
    expect(after.slots).toEqual(before.slots);
    expect(after.quotas.map((q) => q.slotsCount)).toEqual(before.quotas.map((q) => q.slotsCount));
  });

  it('concurrent saves of one month never corrupt the count: each one is whole or absent', async () => {
    const { seller, propertyId } = await availabilityLink(2);
    const dates = [1, 2, 3, 4, 5, 6].map((d) => dayIn(5, d));
    const results = await Promise.all(dates.map((date) => save(propertyId, seller.token, [{ date, slots: [slot('09:00', '10:00'), slot('10:00', '11:00')] }])));
    for (const r of results) expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
    expect(results.some((r) => r.status === 200)).toBe(true);
    const { slots, quotas } = await stored(propertyId);
    dates.forEach((date, i) => {
      expect(slots.filter((s) => s.date === date)).toHaveLength(results[i]!.status === 200 ? 2 : 0);
    });
    expect(quotas).toHaveLength(1);
    expect(quotas[0]!.slotsCount).toBe(slots.length);
    expect(quotas[0]!.quotaReached).toBe(slots.length >= 2);
    expect(quotas[0]!.version).toBe(results.filter((r) => r.status === 200).length);
  });

  it('goes with the request: deleting it removes the link too', async () => {
    const { propertyId, token } = await availabilityLink();
    const res = await api('DELETE', `/admin/properties/${propertyId}`, { token: admin, body: { confirm: 'elimina' } });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.availabilityToken(token), ConsistentRead: true }))).Item).toBeUndefined();
  });
});

describe('GET /links/{token}', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says only which kind of link a token is, to anyone (and a co-owner\'s link its invited address)', async () => {
    const { propertyId, token } = await availabilityLink();
    const property = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(propertyId), ConsistentRead: true }))).Item!;
    const coOwnerToken = newToken();
    await ddb().send(
      new PutCommand({ TableName: TABLE(), Item: { ...keys.coOwnerInvitation(coOwnerToken), entity: 'coowner-invitation', propertyId, coOwnerId: 'c1', email: 'co@example.it', expiresAt: Math.floor(Date.now() / 1000) + 600 } }),
    );
    const expired = newToken();
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.availabilityToken(expired), propertyId, expiresAt: Math.floor(Date.now() / 1000) - 1 } }));
    const kind = async (t: string) => {
      const res = await api<LinkKindAnswer>('GET', `/links/${encodeURIComponent(t)}`);
      expect(res.status).toBe(200);
      // a co-owner's link also names the invited address (the page fills it in); no other link says more than its kind
      expect(Object.keys(res.body)).toEqual(res.body.kind === 'coOwner' ? ['kind', 'invitedEmail'] : ['kind']);
      if (res.body.kind === 'coOwner') expect(res.body.invitedEmail).toBe('co@example.it');
      return res.body.kind;
    };
    expect(await kind(token)).toBe('availability');
    expect(await kind(property.invitationToken as string)).toBe('invitation');
    expect(await kind(coOwnerToken)).toBe('coOwner');
    expect(await kind(newToken())).toBe('unknown');
    expect(await kind(expired)).toBe('unknown');
    expect(await kind('corto')).toBe('unknown');
  });
});
