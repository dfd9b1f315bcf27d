/**
 * Gestione Fonti through the API: an admin creates, lists (newest first, with the requests
 * each source brought) and deletes sources; sellers and agents are refused; a property
 * submitted from a source link counts in that source's total.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { SOURCE_ID_PATTERN, type Source, type SourceList } from '../../functions/domain/sources';
import { api, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { apiFrom, fullBody, newClientIp, newId } from '../support/submission';

const TABLE = () => stack().env.TABLE_NAME!;
let admin: string;

const create = (name: unknown, token = admin) => api<Source & { message?: string; fields?: Record<string, string> }>('POST', '/sources', { token, body: { name } });
const list = (token = admin) => api<SourceList>('GET', '/sources', { token });
const stored = async (id: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.source(id) }))).Item;

async function allSourceNames(): Promise<string[]> {
  const q = keys.allSources();
  const res = await ddb().send(
    new QueryCommand({ TableName: TABLE(), IndexName: q.index, KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': q.pk } }),
  );
  return (res.Items ?? []).map((i) => i.name as string);
}

beforeAll(async () => {
  useStackEnv();
  admin = await tokenForRole('admin');
});

describe('sources: admin', () => {
  it('creates a source: 201, a link-safe id, trimmed name, the caller and createdAt stored', async () => {
    const res = await create('  Volantino Navigli  ');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ name: 'Volantino Navigli' });
    expect(res.body.id).toMatch(SOURCE_ID_PATTERN);
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    const item = await stored(res.body.id);
    expect(item).toMatchObject({ entity: 'source', id: res.body.id, name: 'Volantino Navigli', createdAt: res.body.createdAt });
    expect(typeof item?.userId).toBe('string');
    expect(item?.userId).toBe(res.body.userId);
  });

  it('lists every source newest first, each with 0 requests when nobody came through it', async () => {
    const a = await create(`Fonte A ${newId()}`);
    await new Promise((r) => setTimeout(r, 5));
    const b = await create(`Fonte B ${newId()}`);
    const res = await list();
    expect(res.status).toBe(200);
    const ids = res.body.items.map((s) => s.id);
    expect(ids.indexOf(b.body.id)).toBeLessThan(ids.indexOf(a.body.id));
    expect(ids.indexOf(a.body.id)).toBeGreaterThanOrEqual(0);
    const dates = res.body.items.map((s) => s.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(res.body.items.find((s) => s.id === a.body.id)).toMatchObject({ name: a.body.name, requests: 0 });
  });

  it('deletes a source: 204, gone from the list; deleting it again is 404 with an Italian message', async () => {
    const s = await create(`Da eliminare ${newId()}`);
    const del = await api('DELETE', `/sources/${s.body.id}`, { token: admin });
    expect(del.status).toBe(204);
    expect(await stored(s.body.id)).toBeUndefined();
    expect((await list()).body.items.some((i) => i.id === s.body.id)).toBe(false);
    const again = await api<{ message: string }>('DELETE', `/sources/${s.body.id}`, { token: admin });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Fonte non trovata');
  });

  it('refuses a blank or missing name with the spec message and writes nothing', async () => {
    const before = await allSourceNames();
    for (const name of ['', '   ', undefined]) {
      const res = await create(name);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Inserisci un nome per la fonte');
      expect(res.body.fields?.name).toBe('Inserisci un nome per la fonte');
    }
    expect((await allSourceNames()).length).toBe(before.length);
  });

  it('refuses a name longer than 100 characters in Italian', async () => {
    const res = await create('x'.repeat(101));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Il nome della fonte può avere al massimo 100 caratteri');
  });

  it('deleting an unknown or malformed id is 404', async () => {
    for (const id of ['sconosciuta123', 'non%20valida!']) {
      const res = await api<{ message: string }>('DELETE', `/sources/${id}`, { token: admin });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Fonte non trovata');
    }
  });
});

describe('sources: other roles', () => {
  for (const role of ['seller', 'agent'] as const) {
    it(`refuses a ${role} (403) on every route and writes nothing`, async () => {
      const token = await tokenForRole(role);
      const s = await create(`Protetta ${newId()}`);
      const before = await allSourceNames();
      expect((await create('Intrusa', token)).status).toBe(403);
      expect((await list(token)).status).toBe(403);
      expect((await api('DELETE', `/sources/${s.body.id}`, { token })).status).toBe(403);
      expect(await stored(s.body.id)).toBeDefined();
      expect((await allSourceNames()).length).toBe(before.length);
    });
  }

  it('refuses an anonymous caller (401)', async () => {
    expect((await api('GET', '/sources')).status).toBe(401);
  });
});

describe('sources: requests brought', () => {
  it('counts the properties submitted with ?id= of the source, and only those', async () => {
    const s = await create(`Campagna ${newId()}`);
    const other = await create(`Altra ${newId()}`);
    const ip = newClientIp();
    for (const sourceId of [s.body.id, s.body.id, other.body.id, null]) {
      const draftId = newId();
      const res = await apiFrom(ip, 'POST', '/properties', { ...fullBody(draftId), sourceId });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const property = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(draftId) }))).Item;
      expect(property?.sourceId ?? null).toBe(sourceId);
    }
    const items = (await list()).body.items;
    expect(items.find((i) => i.id === s.body.id)?.requests).toBe(2);
    expect(items.find((i) => i.id === other.body.id)?.requests).toBe(1);
  });
});
