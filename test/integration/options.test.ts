/**
 * Opzioni di Acquisto Attive through the API: every option newest first with property, seller
 * and assigned agent; the admin's edit of the three percentages (0..100 with the spec's
 * messages; the state is not edited here: test/integration/option-lifecycle.test.ts). Admin only.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import type { PurchaseOption } from '../../functions/domain/requests';
import { MIN_ABOVE_MAX_MESSAGE, type OptionList, type OptionListItem } from '../../functions/domain/review/schemas';
import { api, stack, tokenForRole, uniqueEmail, useStackEnv } from '../support/helpers';
import { apiFrom, fullBody, newClientIp, newId } from '../support/submission';

type Answer<T> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
let admin: string;

const OPTION = { propertyValue: 300_000, optionDuration: 8, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 };

/** A submitted property with the seller side complete and its option created through the API. */
async function withOption(overrides: Record<string, unknown> = {}, option: Record<string, unknown> = {}): Promise<PurchaseOption> {
  const id = newId();
  const sub = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(id), email: uniqueEmail('venditore'), ...overrides });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  const at = new Date().toISOString();
  await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', status: 'verified' } }));
  await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.delegation(id, 'catasto'), entity: 'delegation', type: 'catasto', documentKey: `${id}/d.pdf`, signedAt: at } }));
  const res = await api<Answer<PurchaseOption>>('POST', `/admin/properties/${id}/option`, { token: admin, body: { ...OPTION, ...option } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const list = (token = admin) => api<Answer<OptionList>>('GET', '/admin/options', { token });
const update = (propertyId: string, body: unknown, token = admin) => api<Answer<OptionListItem>>('PATCH', `/admin/options/${propertyId}`, { token, body });
const stored = async (propertyId: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(propertyId), ConsistentRead: true }))).Item!;

beforeAll(async () => {
  useStackEnv();
  admin = await tokenForRole('admin');
});

describe('GET /admin/options', () => {
  it('lists every option newest first with address, city, seller and the assigned agent name', async () => {
    const a = await withOption({ address: 'Via Roma 1', firstName: 'Anna', lastName: 'Rossi' });
    await new Promise((r) => setTimeout(r, 5));
    const b = await withOption({ address: 'Corso Como 5', firstName: 'Bruno', lastName: 'Neri' }, { hasKeys: true });
    const agentId = (await api<{ id: string; fullName: string }>('GET', '/me', { token: await tokenForRole('agent') })).body;
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.option(a.propertyId), UpdateExpression: 'SET assignedAgentId = :a', ExpressionAttributeValues: { ':a': agentId.id } }));

    const res = await list();
    expect(res.status).toBe(200);
    const ids = res.body.items.map((o) => o.id);
    expect(ids.indexOf(b.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    const dates = res.body.items.map((o) => o.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(res.body.items.find((o) => o.id === a.id)).toMatchObject({
      propertyId: a.propertyId, propertyAddress: 'Via Roma 1', propertyCity: 'Milano', sellerFirstName: 'Anna', sellerLastName: 'Rossi',
      assignedAgentId: agentId.id, agentName: agentId.fullName, paymentType: 'rateale', optionAmount: 3000, status: 'created',
    });
    expect(res.body.items.find((o) => o.id === b.id)).toMatchObject({ propertyAddress: 'Corso Como 5', agentName: null, paymentType: 'anticipato' });
  });
});

describe('PATCH /admin/options/{propertyId}', () => {
  it('sets the three percentages, answers the updated option and records the change with the values before', async () => {
    const o = await withOption();
    const res = await update(o.propertyId, { agentCommissionPercentage: 4.5, salePricePercentage: 12.5, minAgentCommissionPercentage: 0 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: o.id, status: 'created', agentCommissionPercentage: 4.5, salePricePercentage: 12.5, minAgentCommissionPercentage: 0, propertyValue: 300_000 });
    expect(await stored(o.propertyId)).toMatchObject({ status: 'created', agentCommissionPercentage: 4.5, salePricePercentage: 12.5, minAgentCommissionPercentage: 0 });
    expect((await update(o.propertyId, { minAgentCommissionPercentage: 4.5 })).status).toBe(200);
    const activity = (await api<{ activity: { kind: string; note: string | null }[] }>('GET', `/admin/properties/${o.propertyId}`, { token: admin })).body.activity;
    expect(activity.filter((e) => e.kind === 'option.updated').map((e) => e.note)).toEqual([
      'condivisione agente: 3% → 4,5%; prezzo di vendita: 10% → 12,5%; condivisione minima: 2% → 0%',
      'condivisione minima: 0% → 4,5%',
    ]);
  });

  it('refuses a minimum above the maximum as they would be stored (a field left out keeps its value) and writes nothing', async () => {
    const o = await withOption();
    const before = await stored(o.propertyId);
    for (const body of [{ minAgentCommissionPercentage: 8 }, { agentCommissionPercentage: 1 }, { agentCommissionPercentage: 5, minAgentCommissionPercentage: 6 }]) {
      const res = await update(o.propertyId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe(MIN_ABOVE_MAX_MESSAGE);
      expect(await stored(o.propertyId)).toEqual(before);
    }
  });

  it('refuses values out of 0..100 with the spec messages and writes nothing', async () => {
    const o = await withOption();
    for (const [body, message] of [
      [{ agentCommissionPercentage: 100.5 }, 'La percentuale di condivisione deve essere tra 0 e 100'],
      [{ salePricePercentage: -1 }, 'La percentuale di vendita deve essere tra 0 e 100'],
      [{ minAgentCommissionPercentage: 'dieci' }, 'La percentuale minima deve essere tra 0 e 100'],
      [{ status: 'published' }, "Lo stato dell'opzione cambia solo con le sue azioni (pubblica, ritira, esercitata, annulla)"],
      [{}, 'Nessuna modifica da salvare'],
    ] as const) {
      const res = await update(o.propertyId, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await stored(o.propertyId)).toMatchObject({ status: 'created', agentCommissionPercentage: 3, salePricePercentage: 10, minAgentCommissionPercentage: 2 });
  });

  it('answers 404 for a property without an option', async () => {
    const res = await update(newId(), { salePricePercentage: 12 });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Opzione non trovata');
  });
});

describe('options routes: other roles', () => {
  for (const role of ['seller', 'agent'] as const) {
    it(`refuses a ${role} (403) and writes nothing`, async () => {
      const token = await tokenForRole(role);
      const o = await withOption();
      expect((await list(token)).status).toBe(403);
      expect((await update(o.propertyId, { salePricePercentage: 1 }, token)).status).toBe(403);
      expect((await api('POST', `/admin/options/${o.propertyId}/transitions`, { token, body: { action: 'cancel', reason: 'Non autorizzato' } })).status).toBe(403);
      expect(await stored(o.propertyId)).toMatchObject({ status: 'created', salePricePercentage: 10 });
    });
  }
  it('refuses an anonymous caller (401)', async () => {
    expect((await api('GET', '/admin/options')).status).toBe(401);
    expect((await api('PATCH', `/admin/options/${newId()}`, { body: { salePricePercentage: 12 } })).status).toBe(401);
  });
});
