/**
 * GET /admin/properties: the requests (PROPERTY items) of gsi2 PROPERTIES, a page at a time
 * with an opaque cursor, and the total count. No Scan anywhere:
 * - no search, no filter, sorted by date: the page is one Query of the index (newest or oldest
 *   first) and the total the counter item (keys.requestCount) kept in the same transactions
 *   that add and remove requests;
 * - anything else (search, lifecycle state, source, days, sort by amount): one parallel pass
 *   over the partition (only the days asked for, by key condition) with a filter expression,
 *   collecting the matches' list attributes; page, order and total come from that pass.
 * The search matches the normalized `searchText` the submission stores (name, e-mail, comune,
 * address, phone: lower case, accents dropped), and also the raw attributes for what older
 * requests' searchText lacks (see searchFilter).
 * The source's name: the copy made at submission, else one BatchGetItem of the page's sources.
 */
import { isOptionState } from '../domain/option-lifecycle';
import { str } from './item';
import { ddb, queryPages, table } from './db';
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../lib/errors';
import { keys, normalizeForSort } from './keys';
import { lifecycleCondition } from './property';
import { sourceNames } from './source';
import { decodePageCursor, encodePageCursor } from './page-cursor';
import { lifecycleOf, REQUEST_MESSAGES, REQUESTS_PAGE_SIZE, type Lifecycle, type RequestList, type RequestListItem } from '../domain/requests';
import {
  addressVariantsOf,
  DEFAULT_REQUEST_SORT,
  NO_SOURCE,
  phoneDigitsOf,
  requestCodeOf,
  romeDayEnd,
  romeDayStart,
  type RequestFilters,
  type RequestSort,
} from '../domain/request-list';

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
  'sourceName',
  'valuedAt',
  'estimateSentAt',
  'optionCreatedAt',
  'optionSignedAt',
  'optionState',
];

type Key = { pk: string; sk: string; gsi2pk: string; gsi2sk: string };
/** The cursor: the index key of the last row served and, for the amount sorts, its amount. */
type Cursor = { key: Key; amount?: number | null };

/** The cursor: the index key of the last row served (plus `a`, its amount, when sorted by amount). */
export function encodeCursor(key: Key, amount?: number | null): string {
  const body: Record<string, unknown> = { pk: key.pk, sk: key.sk, gsi2pk: key.gsi2pk, gsi2sk: key.gsi2sk };
  if (amount !== undefined) body.a = amount;
  return encodePageCursor(body);
}

/** The cursor's key (and amount), or 400 when it is not one this route made. */
export function decodeCursor(cursor: string): Cursor {
  const bad = () => new ValidationError(REQUEST_MESSAGES.cursor, { cursor: REQUEST_MESSAGES.cursor });
  const k = decodePageCursor(cursor, REQUEST_MESSAGES.cursor);
  const all = keys.allProperties();
  if (
    Object.keys(k).length !== ('a' in k ? 5 : 4) ||
    typeof k.pk !== 'string' ||
    !k.pk.startsWith('PROPERTY#') ||
    k.sk !== 'PROPERTY' ||
    k.gsi2pk !== all.pk ||
    typeof k.gsi2sk !== 'string' ||
    Number.isNaN(Date.parse(k.gsi2sk)) ||
    ('a' in k && k.a !== null && (typeof k.a !== 'number' || !Number.isFinite(k.a)))
  ) {
    throw bad();
  }
  const key = { pk: k.pk, sk: k.sk, gsi2pk: k.gsi2pk, gsi2sk: k.gsi2sk } as Key;
  return 'a' in k ? { key, amount: k.a as number | null } : { key };
}

/** A row; `names` the names of the page's sources that were not copied onto their request. */
export function toListItem(item: Record<string, unknown>, names: ReadonlyMap<string, string> = new Map()): RequestListItem {
  const facts = {
    valuedAt: str(item.valuedAt),
    estimateSentAt: str(item.estimateSentAt),
    optionCreatedAt: str(item.optionCreatedAt),
    optionSignedAt: str(item.optionSignedAt),
  };
  const sourceId = str(item.sourceId);
  return {
    id: String(item.id ?? keys.propertyIdOf(item.pk) ?? ''),
    createdAt: String(item.createdAt ?? item.gsi2sk ?? ''),
    firstName: String(item.firstName ?? ''),
    lastName: String(item.lastName ?? ''),
    email: String(item.email ?? ''),
    desiredAmount: typeof item.desiredAmount === 'number' ? item.desiredAmount : null,
    city: str(item.city),
    province: str(item.province),
    address: String(item.address ?? ''),
    sourceId,
    sourceName: sourceId ? (str(item.sourceName) ?? names.get(sourceId) ?? null) : null,
    ...facts,
    lifecycle: lifecycleOf(facts),
    optionState: isOptionState(item.optionState) ? item.optionState : null,
  };
}

// ---- the expression ------------------------------------------------------------------------

/** A condition with its own names and values (prefixes keep the parts' placeholders apart). */
interface Expr {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/** The normalized search, or undefined for no search; 400 under 2 characters. */
export function searchTerm(q: string | undefined): string | undefined {
  const term = normalizeForSort(q ?? '').replace(/\s+/g, ' ');
  if (!term) return undefined;
  if (term.length < 2) throw new ValidationError(REQUEST_MESSAGES.searchTooShort, { q: REQUEST_MESSAGES.searchTooShort });
  return term;
}

/**
 * The search: `searchText` contains the normalized term, OR the raw attributes match.
 * Requests submitted before `searchText` covered the address and the phone are not rewritten
 * (no backfill: a migration would write every request); instead the filter also reads
 *   - `phone` (stored E.164) containing the digits of a phone-like search,
 *   - `id` beginning with a request code (lower or upper case),
 *   - `address` (stored as typed) containing the search as typed, in lower case, capitalised
 *     or upper case: "via verdi" finds "Via Verdi" on every request, old or new (new ones are
 *     also found accent- and case-insensitively through searchText).
 * The pass reads every item of the range either way: more OR terms cost no extra reads.
 */
function searchFilter(raw: string, term: string): Expr {
  const names: Record<string, string> = { '#st': 'searchText' };
  const values: Record<string, unknown> = { ':q': term };
  const terms = ['contains(#st, :q)'];
  const digits = phoneDigitsOf(raw);
  if (digits) {
    names['#phone'] = 'phone';
    values[':digits'] = digits;
    terms.push('contains(#phone, :digits)');
  }
  const code = requestCodeOf(raw);
  if (code) {
    names['#id'] = 'id';
    values[':code'] = code;
    values[':codeUp'] = code.toUpperCase();
    terms.push('begins_with(#id, :code)', 'begins_with(#id, :codeUp)');
  }
  const variants = addressVariantsOf(raw);
  if (variants.length) names['#addr'] = 'address';
  variants.forEach((v, i) => {
    values[`:addr${i}`] = v;
    terms.push(`contains(#addr, :addr${i})`);
  });
  return { expression: terms.length > 1 ? `(${terms.join(' OR ')})` : terms[0]!, names, values };
}

function stateFilter(state: Lifecycle): Expr {
  const c = lifecycleCondition([state]);
  return { expression: c.ConditionExpression, names: c.ExpressionAttributeNames ?? {}, values: c.ExpressionAttributeValues ?? {} };
}

function sourceFilter(source: string): Expr {
  if (source === NO_SOURCE) {
    return { expression: '(attribute_not_exists(#src) OR attribute_type(#src, :srcNull))', names: { '#src': 'sourceId' }, values: { ':srcNull': 'NULL' } };
  }
  return { expression: '#src = :src', names: { '#src': 'sourceId' }, values: { ':src': source } };
}

function allOf(parts: Expr[]): Expr | undefined {
  if (!parts.length) return undefined;
  return {
    expression: parts.map((p) => p.expression).join(' AND '),
    names: Object.assign({}, ...parts.map((p) => p.names)) as Record<string, string>,
    values: Object.assign({}, ...parts.map((p) => p.values)) as Record<string, unknown>,
  };
}

// ---- reading -------------------------------------------------------------------------------

const projectionNames: Record<string, string> = {};
const PROJECTION = LIST_ATTRIBUTES.map((a, i) => {
  projectionNames[`#a${i}`] = a;
  return `#a${i}`;
}).join(', ');

/** createdAt bounds (ISO, both included) of the days asked for; either may be open. */
interface Days {
  lo?: string;
  hi?: string;
}

/** The key condition of `gsi2sk` within [lo, hi] (either open). */
function rangeCondition(lo: string | undefined, hi: string | undefined): { condition: string; values: Record<string, string> } {
  if (lo && hi) return { condition: 'gsi2pk = :pk AND gsi2sk BETWEEN :lo AND :hi', values: { ':lo': lo, ':hi': hi } };
  if (lo) return { condition: 'gsi2pk = :pk AND gsi2sk >= :lo', values: { ':lo': lo } };
  if (hi) return { condition: 'gsi2pk = :pk AND gsi2sk <= :hi', values: { ':hi': hi } };
  return { condition: 'gsi2pk = :pk', values: {} };
}

function indexQuery(lo: string | undefined, hi: string | undefined, filter?: Expr): QueryCommandInput {
  const index = keys.allProperties();
  const range = rangeCondition(lo, hi);
  return {
    TableName: table(),
    IndexName: index.index,
    KeyConditionExpression: range.condition,
    ExpressionAttributeValues: { ':pk': index.pk, ...range.values, ...filter?.values },
    ...(filter ? { FilterExpression: filter.expression } : {}),
    ScanIndexForward: false,
  };
}

/** A pass reads the partition in this many disjoint createdAt ranges side by side. */
const SEARCH_SEGMENTS = 4;

/** The oldest and newest createdAt within the days (two one-item Queries), or undefined when there is none. */
async function createdAtBounds(days: Days): Promise<[number, number] | undefined> {
  const edge = async (forward: boolean) => {
    const res = await ddb().send(new QueryCommand({ ...indexQuery(days.lo, days.hi), ScanIndexForward: forward, Limit: 1, ProjectionExpression: 'gsi2sk' }));
    const sk = res.Items?.[0]?.gsi2sk;
    return typeof sk === 'string' ? Date.parse(sk) : undefined;
  };
  const [oldest, newest] = await Promise.all([edge(true), edge(false)]);
  if (oldest === undefined || newest === undefined || Number.isNaN(oldest) || Number.isNaN(newest)) return undefined;
  return [oldest, newest];
}

/** Every request matching `filter` within [lo, hi]: only the list attributes of the matches travel. */
async function matchesIn(lo: string | undefined, hi: string | undefined, filter: Expr | undefined): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  await queryPages(
    { ...indexQuery(lo, hi, filter), ProjectionExpression: PROJECTION, ExpressionAttributeNames: { ...projectionNames, ...filter?.names } },
    (page) => {
      out.push(...(page.Items ?? []));
    },
  );
  return out;
}

/**
 * Every request of the days matching `filter`: one pass over the partition split into
 * SEARCH_SEGMENTS disjoint createdAt ranges read in parallel (the first and last open ended
 * unless a day bounds them, so a request written meanwhile still falls in one). The same pass
 * gives the page and the total: a selective filter costs one pass, not a count plus pages.
 */
async function collect(days: Days, filter: Expr | undefined): Promise<Record<string, unknown>[]> {
  const bounds = await createdAtBounds(days);
  if (!bounds) return [];
  const [oldest, newest] = bounds;
  const step = Math.floor((newest - oldest) / SEARCH_SEGMENTS);
  if (step < 1) return matchesIn(days.lo, days.hi, filter);
  const iso = (ms: number) => new Date(ms).toISOString();
  const cuts = Array.from({ length: SEARCH_SEGMENTS - 1 }, (_, i) => oldest + step * (i + 1));
  const ranges: [string | undefined, string | undefined][] = cuts.map((cut, i) => [i === 0 ? days.lo : iso(cuts[i - 1]!), iso(cut - 1)]);
  ranges.push([iso(cuts[cuts.length - 1]!), days.hi]);
  const parts = await Promise.all(ranges.map(([lo, hi]) => matchesIn(lo, hi, filter)));
  return parts.flat();
}

type Row = Key & { desiredAmount?: unknown };

/** The index order with ScanIndexForward false: gsi2sk descending, then the table key descending. */
function compareNewestFirst(a: Key, b: Key): number {
  if (a.gsi2sk !== b.gsi2sk) return a.gsi2sk < b.gsi2sk ? 1 : -1;
  if (a.pk !== b.pk) return a.pk < b.pk ? 1 : -1;
  return 0;
}

const amountOf = (r: { desiredAmount?: unknown }): number | null => (typeof r.desiredAmount === 'number' ? r.desiredAmount : null);

/** The order of a sort; by amount, requests without one last, ties newest first. */
function comparator(sort: RequestSort): (a: Row, b: Row) => number {
  if (sort === 'newest') return compareNewestFirst;
  if (sort === 'oldest') return (a, b) => -compareNewestFirst(a, b);
  const sign = sort === 'amount_desc' ? -1 : 1;
  return (a, b) => {
    const x = amountOf(a);
    const y = amountOf(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return sign * (x - y);
    }
    return compareNewestFirst(a, b);
  };
}

const isAmountSort = (sort: RequestSort) => sort === 'amount_desc' || sort === 'amount_asc';

/** Every request's total without a search: one GetItem of the counter the submission and the deletion keep. */
async function storedTotal(): Promise<number> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: keys.requestCount(), ConsistentRead: true }));
  const count = res.Item?.count;
  return typeof count === 'number' && count > 0 ? count : 0;
}

/** One page of every request by date: reads exactly one row past the page (so the last page has no cursor). */
async function readPage(limit: number, start: Key | undefined, newestFirst: boolean): Promise<{ items: Record<string, unknown>[]; more: boolean }> {
  const items: Record<string, unknown>[] = [];
  let exclusiveStart: Record<string, unknown> | undefined = start;
  do {
    const res = await ddb().send(
      new QueryCommand({
        ...indexQuery(undefined, undefined),
        ScanIndexForward: !newestFirst,
        ProjectionExpression: PROJECTION,
        ExpressionAttributeNames: projectionNames,
        Limit: limit + 1 - items.length,
        ExclusiveStartKey: exclusiveStart,
      }),
    );
    items.push(...(res.Items ?? []));
    exclusiveStart = res.LastEvaluatedKey;
  } while (exclusiveStart && items.length <= limit);
  return { items: items.slice(0, limit), more: items.length > limit };
}

/** The names of the page's sources that were not copied onto their request (one BatchGetItem). */
async function missingSourceNames(items: Record<string, unknown>[]): Promise<Map<string, string>> {
  const ids = items.filter((i) => str(i.sourceId) && !str(i.sourceName)).map((i) => i.sourceId as string);
  return ids.length ? sourceNames(ids) : new Map();
}

/** The filters (the schema checks from <= to) and the page. */
export interface ListInput extends RequestFilters {
  cursor?: string;
  limit?: number;
}

export async function listRequests(input: ListInput): Promise<RequestList> {
  const q = searchTerm(input.q);
  const sort = input.sort ?? DEFAULT_REQUEST_SORT;
  const limit = input.limit ?? REQUESTS_PAGE_SIZE;
  const start = input.cursor ? decodeCursor(input.cursor) : undefined;
  const filter = allOf([
    ...(q ? [searchFilter(input.q!, q)] : []),
    ...(input.state ? [stateFilter(input.state)] : []),
    ...(input.source ? [sourceFilter(input.source)] : []),
  ]);
  const days: Days = { lo: input.from ? romeDayStart(input.from) : undefined, hi: input.to ? romeDayEnd(input.to) : undefined };

  let page: { items: Record<string, unknown>[]; more: boolean };
  let total: number;
  if (!filter && !days.lo && !days.hi && !isAmountSort(sort)) {
    [page, total] = await Promise.all([readPage(limit, start?.key, sort === 'newest'), storedTotal()]);
  } else {
    const order = comparator(sort);
    const all = (await collect(days, filter)) as Row[];
    all.sort(order);
    let from = 0;
    if (start) {
      // an amount sort places the cursor by its amount: a cursor made without one is not its own
      if (isAmountSort(sort) && start.amount === undefined) throw new ValidationError(REQUEST_MESSAGES.cursor, { cursor: REQUEST_MESSAGES.cursor });
      const at: Row = { ...start.key, desiredAmount: start.amount };
      from = all.findIndex((i) => order(i, at) > 0);
    }
    const rest = from < 0 ? [] : all.slice(from);
    page = { items: rest.slice(0, limit), more: rest.length > limit };
    total = all.length;
  }
  const last = page.items[page.items.length - 1];
  const names = await missingSourceNames(page.items);
  return {
    items: page.items.map((i) => toListItem(i, names)),
    total,
    ...(page.more && last ? { nextCursor: encodeCursor(last as Key, isAmountSort(sort) ? amountOf(last) : undefined) } : {}),
  };
}
