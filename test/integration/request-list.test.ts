/**
 * Dashboard Admin's list (GET /admin/properties) through the API: the filters (lifecycle
 * state, source or none, creation days in Italy), the sorts (date both ways, desired amount
 * both ways, requests without one last) with cursor pagination and the filtered total, the
 * search on address, phone and request code (also on requests stored before searchText
 * covered them), the source's name copied at submission, read from the source for older
 * requests and null once the source is gone ('Fonte eliminata'); bad filter values 400 in
 * Italian. Every assertion is scoped by a tag, a fresh source or a day of its own, so the
 * file runs beside the others.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys, normalizeForSort } from '../../functions/model/keys';
import type { LifecycleFacts, RequestDossier, RequestList } from '../../functions/domain/requests';
import type { Source } from '../../functions/domain/sources';
import { api, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { apiFrom, fullBody, newClientIp, newId } from '../support/submission';

const TABLE = () => stack().env.TABLE_NAME!;
let admin: string;

type Err = { error?: string; message: string; fields?: Record<string, string> };

beforeAll(async () => {
  useStackEnv();
  admin = await tokenForRole('admin');
});

const list = (query: Record<string, string>) => api<RequestList & Err>('GET', `/admin/properties?${new URLSearchParams(query)}`, { token: admin });
const ids = async (query: Record<string, string>) => {
  const res = await list({ limit: '100', ...query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.total, JSON.stringify(query)).toBe(res.body.items.length);
  return res.body.items.map((i) => i.id);
};
const newTag = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

/**
 * A request as an older version stored it (written straight to the table): its searchText
 * covers only name, e-mail and comune, and it has no copy of its source's name.
 */
async function seed(p: {
  lastName: string;
  createdAt?: string;
  facts?: LifecycleFacts;
  desiredAmount?: number | null;
  sourceId?: string | null;
  address?: string;
  phone?: string;
}): Promise<string> {
  const id = newId();
  const createdAt = p.createdAt ?? new Date().toISOString();
  const person = { firstName: 'Lucia', lastName: p.lastName, email: `${id.slice(0, 8)}@example.it`, city: 'Varese' };
  const sourceId = p.sourceId === undefined ? undefined : p.sourceId;
  await ddb().send(
    new PutCommand({
      TableName: TABLE(),
      Item: {
        ...keys.property(id),
        ...keys.propertyIndexes({ createdAt, sourceId }),
        entity: 'property',
        id,
        ...person,
        province: 'VA',
        address: p.address ?? 'Via Milano 1',
        phone: p.phone ?? '+393330000000',
        ...(p.desiredAmount === null ? {} : { desiredAmount: p.desiredAmount ?? 250_000 }),
        ...(sourceId !== undefined ? { sourceId } : {}),
        ...p.facts,
        searchText: normalizeForSort(Object.values(person).join(' ')),
        createdAt,
        updatedAt: createdAt,
      },
    }),
  );
  return id;
}

async function createSource(name: string): Promise<Source> {
  const res = await api<Source>('POST', '/sources', { token: admin, body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const deleteSource = async (id: string) => expect((await api('DELETE', `/sources/${id}`, { token: admin })).status).toBe(204);

async function submit(overrides: Record<string, unknown>): Promise<string> {
  const id = newId();
  const res = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(id), ...overrides });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return id;
}

/** A day of its own for this run, in a January (Italy is UTC+1) of the years from `first`, 9 of them. */
const ownDay = (first: number) => `${first + Math.floor(Math.random() * 9)}-01-${String(10 + Math.floor(Math.random() * 18)).padStart(2, '0')}`;
const at = '2026-11-20T10:00:00.000Z';

describe('filter by lifecycle state', () => {
  it('returns exactly the requests in the state, with the total of the filtered set', async () => {
    const tag = newTag('st');
    const made = {
      nuova: await seed({ lastName: `Stato ${tag}` }),
      valutata: await seed({ lastName: `Stato ${tag}`, facts: { valuedAt: at } }),
      // a fact stored as null is not set
      valutataNull: await seed({ lastName: `Stato ${tag}`, facts: { valuedAt: at, estimateSentAt: null } as LifecycleFacts }),
      stima_inviata: await seed({ lastName: `Stato ${tag}`, facts: { valuedAt: at, estimateSentAt: at } }),
      opzione_creata: await seed({ lastName: `Stato ${tag}`, facts: { valuedAt: at, estimateSentAt: at, optionCreatedAt: at } }),
      opzione_firmata: await seed({ lastName: `Stato ${tag}`, facts: { valuedAt: at, estimateSentAt: at, optionCreatedAt: at, optionSignedAt: at } }),
    };
    expect(await ids({ q: tag, state: 'nuova' })).toEqual([made.nuova]);
    expect((await ids({ q: tag, state: 'valutata' })).sort()).toEqual([made.valutata, made.valutataNull].sort());
    expect(await ids({ q: tag, state: 'stima_inviata' })).toEqual([made.stima_inviata]);
    expect(await ids({ q: tag, state: 'opzione_creata' })).toEqual([made.opzione_creata]);
    const signed = await list({ q: tag, state: 'opzione_firmata' });
    expect(signed.body.items.map((i) => [i.id, i.lifecycle])).toEqual([[made.opzione_firmata, 'opzione_firmata']]);
    expect(signed.body.total).toBe(1);
    expect((await list({ q: tag })).body.total).toBe(6);
  });

  it('filters without a search too (a day of its own)', async () => {
    const day = ownDay(2001);
    const signed = await seed({ lastName: 'Giorno', createdAt: `${day}T10:00:00.000Z`, facts: { valuedAt: at, estimateSentAt: at, optionCreatedAt: at, optionSignedAt: at } });
    await seed({ lastName: 'Giorno', createdAt: `${day}T11:00:00.000Z` });
    expect(await ids({ state: 'opzione_firmata', from: day, to: day })).toEqual([signed]);
  });
});

describe('filter by source', () => {
  it('returns the requests of one source, or of none (no attribute or null)', async () => {
    const tag = newTag('src');
    const source = await createSource(`Fonte ${tag}`);
    const a = await seed({ lastName: `Fonte ${tag}`, sourceId: source.id });
    const b = await seed({ lastName: `Fonte ${tag}`, sourceId: source.id });
    await seed({ lastName: `Fonte ${tag}`, sourceId: 'altra-fonte' });
    const nullSource = await seed({ lastName: `Fonte ${tag}`, sourceId: null });
    const noSource = await seed({ lastName: `Fonte ${tag}` });
    expect((await ids({ q: tag, source: source.id })).sort()).toEqual([a, b].sort());
    // without a search: the fresh source's requests only
    expect((await ids({ source: source.id })).sort()).toEqual([a, b].sort());
    expect((await ids({ q: tag, source: 'none' })).sort()).toEqual([nullSource, noSource].sort());
    expect(await ids({ q: tag, source: 'nessuna-richiesta' })).toEqual([]);
  });
});

describe('filter by days (Italy)', () => {
  it('includes both days whole, by Italian midnight', async () => {
    const tag = newTag('day');
    const day = ownDay(2010);
    const prev = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    // 00:30 in Italy on `day` is 23:30 UTC of the day before; 23:59:59.999 in Italy is 22:59:59.999 UTC
    const earlyDay = await seed({ lastName: `Giorni ${tag}`, createdAt: `${prev}T23:30:00.000Z` });
    const lateDay = await seed({ lastName: `Giorni ${tag}`, createdAt: `${day}T22:59:59.999Z` });
    const lateEvening = await seed({ lastName: `Giorni ${tag}`, createdAt: `${prev}T22:59:59.999Z` });
    const nextDay = await seed({ lastName: `Giorni ${tag}`, createdAt: `${day}T23:00:00.000Z` });
    expect(await ids({ q: tag, from: day, to: day })).toEqual([lateDay, earlyDay]);
    expect(await ids({ from: day, to: day })).toEqual([lateDay, earlyDay]);
    expect(await ids({ q: tag, from: prev, to: day })).toEqual([lateDay, earlyDay, lateEvening]);
    expect(await ids({ q: tag, from: next })).toEqual([nextDay]);
    expect(await ids({ q: tag, to: prev })).toEqual([lateEvening]);
    expect(await ids({ q: tag, from: day, to: next, sort: 'oldest' })).toEqual([earlyDay, lateDay, nextDay]);
  });
});

describe('sorts', () => {
  it('by desired amount both ways (none last) and by date both ways, paging with the cursor', async () => {
    const tag = newTag('ord');
    const base = Date.now() - 3_600_000;
    const t = (i: number) => new Date(base + i * 1000).toISOString();
    const a100 = await seed({ lastName: `Ordine ${tag}`, createdAt: t(0), desiredAmount: 100_000 });
    const none = await seed({ lastName: `Ordine ${tag}`, createdAt: t(1), desiredAmount: null });
    const a300 = await seed({ lastName: `Ordine ${tag}`, createdAt: t(2), desiredAmount: 300_000 });
    const a200 = await seed({ lastName: `Ordine ${tag}`, createdAt: t(3), desiredAmount: 200_000 });
    const a200older = await seed({ lastName: `Ordine ${tag}`, createdAt: t(-1), desiredAmount: 200_000 });
    expect(await ids({ q: tag, sort: 'amount_desc' })).toEqual([a300, a200, a200older, a100, none]);
    expect(await ids({ q: tag, sort: 'amount_asc' })).toEqual([a100, a200, a200older, a300, none]);
    expect(await ids({ q: tag, sort: 'oldest' })).toEqual([a200older, a100, none, a300, a200]);
    expect(await ids({ q: tag, sort: 'newest' })).toEqual([a200, a300, none, a100, a200older]);
    expect(await ids({ q: tag })).toEqual([a200, a300, none, a100, a200older]);

    for (const sort of ['amount_desc', 'amount_asc', 'oldest'] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await list({ q: tag, sort, limit: '2', ...(cursor ? { cursor } : {}) });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.total).toBe(5);
        seen.push(...res.body.items.map((i) => i.id));
        cursor = res.body.nextCursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages, sort).toBe(3);
      expect(seen, sort).toEqual(await ids({ q: tag, sort }));
    }
  });

  it('oldest first without a filter: one Query of the index, cursor and total of every request', async () => {
    const first = await list({ sort: 'oldest', limit: '3' });
    expect(first.status).toBe(200);
    const dates = first.body.items.map((i) => i.createdAt);
    expect([...dates].sort()).toEqual(dates);
    const second = await list({ sort: 'oldest', limit: '3', cursor: first.body.nextCursor! });
    expect(second.status).toBe(200);
    expect(second.body.items[0]!.createdAt >= first.body.items[2]!.createdAt).toBe(true);
    expect(second.body.items.map((i) => i.id)).not.toContain(first.body.items[2]!.id);
    expect(second.body.total).toBe(first.body.total);
    expect((await list({ limit: '1' })).body.total).toBe(first.body.total);
  });

  it('refuses a date cursor under an amount sort', async () => {
    const page = await list({ limit: '1' });
    const res = await list({ sort: 'amount_desc', cursor: page.body.nextCursor! });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Pagina non valida: ricarica la lista');
  });
});

describe('search on address, phone and request code', () => {
  it('finds a new request by its address (case and accents ignored), its phone however typed and its code', async () => {
    const n = 10_000 + Math.floor(Math.random() * 89_999);
    const phone = `3${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
    const id = await submit({ address: `Viale dei Ciliegi Fioriti ${n}`, phone: `${phone.slice(0, 3)} ${phone.slice(3)}` });
    const stored = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;
    expect(stored.phone).toBe(`+39${phone}`);
    expect(stored.searchText).toContain(`viale dei ciliegi fioriti ${n}`);
    expect(stored.searchText).toContain(`+39${phone}`);
    for (const q of [
      `VIALE DEI CILIEGI FIORITI ${n}`,
      `ciliegì fioriti ${n}`,
      phone,
      `${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`,
      `+39 ${phone}`,
      `0039${phone}`,
      id.slice(0, 8).toUpperCase(),
      id,
    ]) {
      expect(await ids({ q }), q).toEqual([id]);
    }
  });

  it('finds an older request (searchText without address and phone) by its raw address, phone and code', async () => {
    const n = 10_000 + Math.floor(Math.random() * 89_999);
    const phone = `3${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
    const id = await seed({ lastName: 'Vecchia', address: `Corso Garibaldi ${n}`, phone: `+39${phone}` });
    for (const q of [`corso garibaldi ${n}`, `Corso Garibaldi ${n}`, `CORSO GARIBALDI ${n}`, `garibaldi ${n}`, phone, `+39 ${phone.slice(0, 3)} ${phone.slice(3)}`, id.slice(0, 8), id.toUpperCase()]) {
      expect(await ids({ q }), q).toEqual([id]);
    }
  });
});

describe("the source's name", () => {
  it('is copied at submission and stays after the source is deleted (row and dossier)', async () => {
    const tag = newTag('copia');
    const source = await createSource(`Portale ${tag}`);
    const id = await submit({ sourceId: source.id });
    const stored = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;
    expect(stored).toMatchObject({ sourceId: source.id, sourceName: `Portale ${tag}` });
    const row = async () => (await list({ source: source.id })).body.items.find((i) => i.id === id);
    expect(await row()).toMatchObject({ sourceId: source.id, sourceName: `Portale ${tag}` });
    await deleteSource(source.id);
    expect(await row()).toMatchObject({ sourceId: source.id, sourceName: `Portale ${tag}` });
    const d = await api<RequestDossier>('GET', `/admin/properties/${id}`, { token: admin });
    expect(d.body.property).toMatchObject({ sourceId: source.id, sourceName: `Portale ${tag}` });
  });

  it('is read from the source for an older request, and null once the source is deleted (Fonte eliminata)', async () => {
    const tag = newTag('vecchia');
    const source = await createSource(`Volantino ${tag}`);
    const id = await seed({ lastName: `Fonte ${tag}`, sourceId: source.id });
    const noSource = await seed({ lastName: `Fonte ${tag}`, sourceId: null });
    const rows = async () => Object.fromEntries((await list({ q: tag })).body.items.map((i) => [i.id, [i.sourceId, i.sourceName]]));
    expect(await rows()).toEqual({ [id]: [source.id, `Volantino ${tag}`], [noSource]: [null, null] });
    const dossier = async () => (await api<RequestDossier>('GET', `/admin/properties/${id}`, { token: admin })).body.property;
    expect(await dossier()).toMatchObject({ sourceId: source.id, sourceName: `Volantino ${tag}` });
    await deleteSource(source.id);
    expect(await rows()).toEqual({ [id]: [source.id, null], [noSource]: [null, null] });
    expect(await dossier()).toMatchObject({ sourceId: source.id, sourceName: null });
  });

  it('is not copied for a source link that names no source', async () => {
    const id = await submit({ sourceId: `sconosciuta-${Date.now().toString(36)}` });
    const stored = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;
    expect(stored).not.toHaveProperty('sourceName');
  });
});

describe('bad filter values', () => {
  it('answer 400 with the Italian message and nothing else', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ state: 'chiusa' }, 'state', 'Stato della richiesta non valido'],
      [{ state: 'NUOVA' }, 'state', 'Stato della richiesta non valido'],
      [{ from: '01/03/2026' }, 'from', 'La data di inizio non è valida'],
      [{ from: '2026-02-30' }, 'from', 'La data di inizio non è valida'],
      [{ to: 'domani' }, 'to', 'La data di fine non è valida'],
      [{ from: '2026-03-02', to: '2026-03-01' }, 'to', 'La data di inizio non può essere successiva alla data di fine'],
      [{ sort: 'prezzo' }, 'sort', 'Ordinamento non valido'],
      [{ source: 'fonte con spazi' }, 'source', 'Fonte non valida'],
    ];
    for (const [query, field, message] of cases) {
      const res = await list(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body, JSON.stringify(query)).toEqual({ error: expect.any(String), message, fields: { [field]: message } });
    }
  });
});
