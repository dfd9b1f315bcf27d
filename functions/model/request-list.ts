/**
 * GET /admin/properties: every request (PROPERTY item) newest first from gsi2 PROPERTIES,
 * a page at a time with an opaque cursor, and the total count: without a search the counter
 * item (keys.requestCount) kept in the same transactions that add and remove requests; with
 * one, a single parallel pass collecting the matches (page and total from the same pass). The search matches the normalized `searchText` the submission stores (name,
 * e-mail, comune: lower case, accents dropped) with contains(); no Scan anywhere.
 */
import { str } from './item';
import { ddb, queryPages, table } from './db';
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../lib/errors';
import { keys, normalizeForSort } from './keys';
import { lifecycleOf, REQUEST_MESSAGES, REQUESTS_PAGE_SIZE, type RequestList, type RequestListItem } from '../domain/requests';


/** What a row needs (and the index keys, for the cursor). */
const LIST_ATTRIBUTES = [
  'pk',
  'sk',
  'gsi2pk',
  'gsi2sk',
  'id',
  'createdAt',
  'firstName',
  'lastName',
  'email',
  'desiredAmount',
  'city',
  'province',
  'address',
  'sourceId',
  'valuedAt',
  'estimateSentAt',
  'optionCreatedAt',
  'optionSignedAt',
];

type Key = { pk: string; sk: string; gsi2pk: string; gsi2sk: string };

/** The cursor: base64url of the index key of the last row served. */
export function encodeCursor(key: Key): string {
  return Buffer.from(JSON.stringify({ pk: key.pk, sk: key.sk, gsi2pk: key.gsi2pk, gsi2sk: key.gsi2sk }), 'utf8').toString('base64url');
}

/** The index key of a cursor, or 400 when it is not one this route made. */
export function decodeCursor(cursor: string): Key {
  const bad = () => new ValidationError(REQUEST_MESSAGES.cursor, { cursor: REQUEST_MESSAGES.cursor });
  if (!/^[A-Za-z0-9_-]{1,600}$/.test(cursor)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const k = parsed as Record<string, unknown> | null;
  const all = keys.allProperties();
  if (
    !k ||
    typeof k !== 'object' ||
    Object.keys(k).length !== 4 ||
    typeof k.pk !== 'string' ||
    !k.pk.startsWith('PROPERTY#') ||
    k.sk !== 'PROPERTY' ||
    k.gsi2pk !== all.pk ||
    typeof k.gsi2sk !== 'string' ||
    Number.isNaN(Date.parse(k.gsi2sk))
  ) {
    throw bad();
  }
  return k as Key;
}


export function toListItem(item: Record<string, unknown>): RequestListItem {
  const facts = {
    valuedAt: str(item.valuedAt),
    estimateSentAt: str(item.estimateSentAt),
    optionCreatedAt: str(item.optionCreatedAt),
    optionSignedAt: str(item.optionSignedAt),
  };
  return {
    id: String(item.id ?? String(item.pk).slice('PROPERTY#'.length)),
    createdAt: String(item.createdAt ?? item.gsi2sk ?? ''),
    firstName: String(item.firstName ?? ''),
    lastName: String(item.lastName ?? ''),
    email: String(item.email ?? ''),
    desiredAmount: typeof item.desiredAmount === 'number' ? item.desiredAmount : null,
    city: str(item.city),
    province: str(item.province),
    address: String(item.address ?? ''),
    sourceId: str(item.sourceId),
    ...facts,
    lifecycle: lifecycleOf(facts),
  };
}

function baseQuery(q: string | undefined): QueryCommandInput {
  const index = keys.allProperties();
  return {
    TableName: table(),
    IndexName: index.index,
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': index.pk, ...(q ? { ':q': q } : {}) },
    ...(q ? { FilterExpression: 'contains(searchText, :q)' } : {}),
    ScanIndexForward: false,
  };
}

/** A search reads the partition in this many disjoint createdAt ranges side by side. */
const SEARCH_SEGMENTS = 4;

/** The oldest and newest createdAt of the index (two one-item Queries), or undefined when it is empty. */
async function createdAtBounds(): Promise<[number, number] | undefined> {
  const edge = async (forward: boolean) => {
    const res = await ddb().send(new QueryCommand({ ...baseQuery(undefined), ScanIndexForward: forward, Limit: 1, ProjectionExpression: 'gsi2sk' }));
    const sk = res.Items?.[0]?.gsi2sk;
    return typeof sk === 'string' ? Date.parse(sk) : undefined;
  };
  const [oldest, newest] = await Promise.all([edge(true), edge(false)]);
  if (oldest === undefined || newest === undefined || Number.isNaN(oldest) || Number.isNaN(newest)) return undefined;
  return [oldest, newest];
}

const names: Record<string, string> = {};
const PROJECTION = LIST_ATTRIBUTES.map((a, i) => {
  names[`#a${i}`] = a;
  return `#a${i}`;
}).join(', ');

type Range = { condition: string; values: Record<string, string> };

/** Every request matching `q` in one createdAt range: only the list attributes of the matches travel. */
async function matchesIn(q: string, range: Range | undefined): Promise<Record<string, unknown>[]> {
  const base = baseQuery(q);
  const out: Record<string, unknown>[] = [];
  await queryPages(
    {
      ...base,
      KeyConditionExpression: range ? `gsi2pk = :pk AND ${range.condition}` : base.KeyConditionExpression,
      ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ...range?.values },
      ProjectionExpression: PROJECTION,
      ExpressionAttributeNames: names,
    },
    (page) => {
      out.push(...(page.Items ?? []));
    },
  );
  return out;
}

/**
 * Every request matching `q`, newest first: one pass over the partition split into
 * SEARCH_SEGMENTS disjoint createdAt ranges (the first and last open ended, so a request
 * written meanwhile still falls in one) read in parallel. The same pass gives the page and
 * the total: a selective search costs one pass, not a pass to count plus page after page.
 */
async function searchAll(q: string): Promise<Record<string, unknown>[]> {
  const bounds = await createdAtBounds();
  if (!bounds) return [];
  const [oldest, newest] = bounds;
  const step = Math.floor((newest - oldest) / SEARCH_SEGMENTS);
  let parts: Record<string, unknown>[][];
  if (step < 1) parts = [await matchesIn(q, undefined)];
  else {
    const iso = (ms: number) => new Date(ms).toISOString();
    const cuts = Array.from({ length: SEARCH_SEGMENTS - 1 }, (_, i) => oldest + step * (i + 1));
    const ranges: Range[] = cuts.map((cut, i): Range =>
      i === 0
        ? { condition: 'gsi2sk < :hi', values: { ':hi': iso(cut) } }
        : { condition: 'gsi2sk BETWEEN :lo AND :hi', values: { ':lo': iso(cuts[i - 1]!), ':hi': iso(cut - 1) } },
    );
    ranges.push({ condition: 'gsi2sk >= :lo', values: { ':lo': iso(cuts[cuts.length - 1]!) } });
    parts = await Promise.all(ranges.map((r) => matchesIn(q, r)));
  }
  return parts.flat().sort((a, b) => compareNewestFirst(a as Key, b as Key));
}

/** The index order with ScanIndexForward false: gsi2sk descending, then the table key descending. */
function compareNewestFirst(a: Key, b: Key): number {
  if (a.gsi2sk !== b.gsi2sk) return a.gsi2sk < b.gsi2sk ? 1 : -1;
  if (a.pk !== b.pk) return a.pk < b.pk ? 1 : -1;
  return 0;
}

/** Every request's total without a search: one GetItem of the counter the submission and the deletion keep. */
async function storedTotal(): Promise<number> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: keys.requestCount(), ConsistentRead: true }));
  const count = res.Item?.count;
  return typeof count === 'number' && count > 0 ? count : 0;
}

/** One page of every request, newest first: reads exactly one row past the page (so the last page has no cursor). */
async function readPage(limit: number, start: Key | undefined): Promise<{ items: Record<string, unknown>[]; more: boolean }> {
  const items: Record<string, unknown>[] = [];
  let exclusiveStart: Record<string, unknown> | undefined = start;
  do {
    const res = await ddb().send(
      new QueryCommand({
        ...baseQuery(undefined),
        ProjectionExpression: PROJECTION,
        ExpressionAttributeNames: names,
        Limit: limit + 1 - items.length,
        ExclusiveStartKey: exclusiveStart,
      }),
    );
    items.push(...(res.Items ?? []));
    exclusiveStart = res.LastEvaluatedKey;
  } while (exclusiveStart && items.length <= limit);
  return { items: items.slice(0, limit), more: items.length > limit };
}

export interface ListInput {
  q?: string;
  cursor?: string;
  limit?: number;
}

/** The normalized search text, or undefined for no search; 400 under 2 characters. */
export function searchTerm(q: string | undefined): string | undefined {
  const term = normalizeForSort(q ?? '').replace(/\s+/g, ' ');
  if (!term) return undefined;
  if (term.length < 2) throw new ValidationError(REQUEST_MESSAGES.searchTooShort, { q: REQUEST_MESSAGES.searchTooShort });
  return term;
}

export async function listRequests(input: ListInput): Promise<RequestList> {
  const q = searchTerm(input.q);
  const limit = input.limit ?? REQUESTS_PAGE_SIZE;
  const start = input.cursor ? decodeCursor(input.cursor) : undefined;
  let page: { items: Record<string, unknown>[]; more: boolean };
  let total: number;
  if (q) {
    const all = await searchAll(q);
    const from = start ? all.findIndex((i) => compareNewestFirst(i as Key, start) > 0) : 0;
    const rest = from < 0 ? [] : all.slice(from);
    page = { items: rest.slice(0, limit), more: rest.length > limit };
    total = all.length;
  } else {
    [page, total] = await Promise.all([readPage(limit, start), storedTotal()]);
  }
  const last = page.items[page.items.length - 1];
  return {
    items: page.items.map(toListItem),
    total,
    ...(page.more && last ? { nextCursor: encodeCursor(last as Key) } : {}),
  };
}
