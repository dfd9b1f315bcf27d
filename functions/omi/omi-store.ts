/**
 * OMI data in the single table (keys in keys.ts, omiKeys): zone-quotations items (one per
 * semester and LinkZona, holding that zone's records), zone descriptions, semester
 * manifests and the listing index chunks.
 */
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, queryAll } from '../model/db';
import { BatchWriter } from '../model/batch-writer';
import { requireConfig } from '../lib/config';
import { omiKeys, type OmiZoneId } from '../model/keys';
import { comuneSearchKey } from '../domain/omi/names';
import { descrTipologia, type Stato } from '../domain/omi/tipologia';
import type { OmiQuotation, OmiValoriRow, OmiZoneInfo, OmiZoneRow } from '../domain/omi/types';
import { formatZoneLine, readValoriLine, readZoneLine } from './parse-omi';
import { buildChunk, chunkEntries, decodeChunk, encodeChunk, type IndexChunk, type IndexEntry } from './listing-index';

const table = () => requireConfig('TABLE_NAME');

/**
 * A zone-quotations item: its keys and the zone's records of the semester as lines of the
 * published format (formatValoriLine), one per line. One item per zone: the import writes
 * ~24,400 items for a national semester, not ~162,000.
 */
export function zoneQuotationsItem(zone: OmiZoneId & { comune: string }, lines: readonly string[]): Record<string, unknown> {
  const id = { semester: zone.semester, prov: zone.prov, linkZona: zone.linkZona };
  return {
    ...omiKeys.zoneQuotations(id),
    ...omiKeys.zoneQuotationsIndex({ ...id, comuneKey: comuneKeyOf(zone.comune) }),
    rows: lines.join('\n'),
  };
}

/** A zone's stored item, read strongly consistent (the import merges rows a file lacks). */
export async function getZoneQuotations(zone: OmiZoneId): Promise<Record<string, unknown> | undefined> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: omiKeys.zoneQuotations(zone), ConsistentRead: true }));
  return res.Item;
}

export function zoneItem(row: OmiZoneRow, semester: string): Record<string, unknown> {
  const comuneKey = comuneSearchKey(row.comuneDescrizione);
  return {
    ...omiKeys.zone({ semester, prov: row.prov, linkZona: row.linkZona }),
    ...omiKeys.zoneIndex({ prov: row.prov, comuneKey, linkZona: row.linkZona, semester }),
    row: formatZoneLine(row),
  };
}

/** comuneSearchKey of a comune's name, computed once per name (an import meets each ~20 times). */
const comuneKeys = new Map<string, string>();
function comuneKeyOf(name: string): string {
  let key = comuneKeys.get(name);
  if (key === undefined) {
    if (comuneKeys.size > 50_000) comuneKeys.clear();
    comuneKeys.set(name, (key = comuneSearchKey(name)));
  }
  return key;
}

export function indexEntryOf(row: { comuneDescrizione: string; linkZona: string; zona: string; codTip: number; stato: Stato | null }): IndexEntry {
  return {
    comune: row.comuneDescrizione,
    comuneKey: comuneKeyOf(row.comuneDescrizione),
    linkZona: row.linkZona,
    zona: row.zona,
    codTip: row.codTip,
    stato: row.stato,
  };
}

/**
 * Records a province as holding data of a semester, and as dirty, before any of its records
 * is written: clear then finds every record, and a run after one that died knows it must
 * read the table rather than trust the listing index.
 */
export async function registerProvince(semester: string, prov: string, kind: 'quotations' | 'zones' = 'quotations'): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: omiKeys.semester(semester),
      // zone imports always read the table (their files are small): only quotations mark dirty
      UpdateExpression: `SET entity = :e, semester = :s, #index = if_not_exists(#index, :empty), updatedAt = :now ADD provinces :p${kind === 'quotations' ? ', dirty :p' : ''}`,
      ExpressionAttributeNames: { '#index': 'index' },
      ExpressionAttributeValues: { ':e': 'omiSemester', ':s': semester, ':empty': {}, ':now': new Date().toISOString(), ':p': new Set([prov]) },
    }),
  );
}

/**
 * What a semester and province already hold, identity -> index entry (zones: -> null), so
 * the import counts inserted/updated exactly and rebuilds the listing index:
 * - a province the semester never received: nothing;
 * - a clean province (its last import finished): its listing index, which is exactly its
 *   records (one small read);
 * - a dirty one (an import died or is running): the table itself, strongly consistent.
 */
export async function loadExisting(
  manifest: SemesterManifest | undefined,
  prov: string,
  kind: 'quotations' | 'zones',
): Promise<{ entries: Map<string, IndexEntry | null>; source: 'none' | 'index' | 'table' }> {
  const entries = new Map<string, IndexEntry | null>();
  if (!manifest || !manifest.provinces.includes(prov)) return { entries, source: 'none' };
  const ref = manifest.index[prov];
  if (kind === 'quotations' && ref && !manifest.dirty.includes(prov)) {
    const chunk = await readIndexChunk(manifest.semester, prov, ref);
    if (chunk) {
      for (const e of chunkEntries(chunk)) entries.set(omiKeys.quotationIdentity(e), e);
      return { entries, source: 'index' };
    }
  }
  const prefix = kind === 'quotations' ? omiKeys.quotationSkPrefix : omiKeys.zoneSkPrefix;
  await Promise.all(
    omiKeys.semesterProvince(manifest.semester, prov).map((q) =>
      queryAll(
        {
          TableName: table(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': q.pk, ':prefix': prefix },
          ProjectionExpression: kind === 'quotations' ? 'sk, #rows' : 'sk',
          ExpressionAttributeNames: kind === 'quotations' ? { '#rows': 'rows' } : undefined,
          ConsistentRead: true,
        },
        (item) => {
          if (kind === 'zones') {
            entries.set(item.sk as string, null);
            return;
          }
          for (const row of readZoneRows(item)) entries.set(omiKeys.quotationIdentity(row), indexEntryOf(row));
        },
      ),
    ),
  );
  return { entries, source: 'table' };
}

/** Every key stored for a semester and province (clear). */
export async function forEachKeyOf(semester: string, prov: string, onKey: (key: { pk: string; sk: string }) => Promise<void>): Promise<void> {
  for (const q of omiKeys.semesterProvince(semester, prov)) {
    const keysOfShard: { pk: string; sk: string }[] = [];
    await queryAll(
      {
        TableName: table(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': q.pk },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
      },
      (item) => {
        keysOfShard.push({ pk: item.pk as string, sk: item.sk as string });
      },
    );
    for (const k of keysOfShard) await onKey(k);
  }
}

export interface IndexRef {
  /** version id of the chunk */
  v: string;
  parts: number;
  /** records (quotations) of the (semester, province) */
  rows: number;
  /** zone-quotations items holding them */
  zones?: number;
}

export interface SemesterManifest {
  semester: string;
  /** every province that ever received data of this semester (registered before writing) */
  provinces: string[];
  /** provinces whose last import has not finished (their index may lag their records) */
  dirty: string[];
  index: Record<string, IndexRef>;
  updatedAt: string | null;
}

function toManifest(item: Record<string, unknown>): SemesterManifest {
  return {
    semester: item.semester as string,
    provinces: [...((item.provinces as Set<string> | undefined) ?? [])].sort(),
    dirty: [...((item.dirty as Set<string> | undefined) ?? [])].sort(),
    index: (item.index as Record<string, IndexRef> | undefined) ?? {},
    updatedAt: (item.updatedAt as string | undefined) ?? null,
  };
}

export async function getSemester(semester: string): Promise<SemesterManifest | undefined> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: omiKeys.semester(semester), ConsistentRead: true }));
  return res.Item ? toManifest(res.Item) : undefined;
}

/** Every semester's manifest, newest first (one strongly consistent Query). */
export async function listSemesters(): Promise<SemesterManifest[]> {
  const q = omiKeys.semesters();
  const out: SemesterManifest[] = [];
  await queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': q.pk, ':prefix': q.skPrefix },
      ScanIndexForward: false,
      ConsistentRead: true,
    },
    (item) => {
      out.push(toManifest(item));
    },
  );
  return out;
}

/**
 * Writes the listing index of a semester and province under a new version, then points the
 * manifest at it and marks the province clean, then deletes the previous version (readers
 * that still hold the old manifest retry once).
 */
export async function writeIndexChunk(semester: string, prov: string, entries: Iterable<IndexEntry>, version: string): Promise<IndexRef> {
  const chunk = buildChunk(semester, prov, entries);
  const parts = encodeChunk(chunk);
  await Promise.all(
    parts.map((data, part) =>
      ddb().send(new PutCommand({ TableName: table(), Item: { ...omiKeys.indexChunk(semester, prov, version, part), entity: 'omiIndexChunk', data } })),
    ),
  );
  const ref: IndexRef = { v: version, parts: parts.length, rows: chunk.size, zones: chunk.zoneLinks.length };
  const res = await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: omiKeys.semester(semester),
      UpdateExpression: 'SET #index.#prov = :ref, updatedAt = :now DELETE dirty :p',
      ExpressionAttributeNames: { '#index': 'index', '#prov': prov },
      ExpressionAttributeValues: { ':ref': ref, ':now': new Date().toISOString(), ':p': new Set([prov]) },
      ReturnValues: 'UPDATED_OLD',
    }),
  );
  const old = (res.Attributes?.index as Record<string, IndexRef> | undefined)?.[prov];
  if (old && old.v !== version) await deleteIndexParts(semester, prov, old);
  return ref;
}

/** Deletes one version of a listing index: BatchWriter, so UnprocessedItems are sent again with backoff until none is left. */
export async function deleteIndexParts(semester: string, prov: string, ref: IndexRef): Promise<void> {
  const writer = new BatchWriter(ddb(), table(), { concurrency: 4 });
  for (let part = 0; part < ref.parts; part++) await writer.delete(omiKeys.indexChunk(semester, prov, ref.v, part));
  await writer.flush();
}

export async function deleteSemesterManifest(semester: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: table(), Key: omiKeys.semester(semester) }));
}

/** A (semester, province) listing index chunk, or undefined when that version is gone. */
export async function readIndexChunk(semester: string, prov: string, ref: IndexRef): Promise<IndexChunk | undefined> {
  const keyList = Array.from({ length: ref.parts }, (_, part) => omiKeys.indexChunk(semester, prov, ref.v, part));
  const got = await batchGet(keyList, { consistent: true });
  const parts: Uint8Array[] = [];
  for (const k of keyList) {
    const item = got.get(`${k.pk}|${k.sk}`);
    if (!item) return undefined;
    parts.push(item.data as Uint8Array);
  }
  return decodeChunk(parts);
}

/** BatchGetItem of any number of keys (100 per call, in parallel), retrying UnprocessedKeys; results by `pk|sk`. */
export async function batchGet(
  keyList: readonly { pk: string; sk: string }[],
  opts: { projection?: string; names?: Record<string, string>; consistent?: boolean } = {},
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  const calls: Promise<void>[] = [];
  for (let i = 0; i < keyList.length; i += 100) {
    let pending: Record<string, unknown>[] = keyList.slice(i, i + 100).map((k) => ({ pk: k.pk, sk: k.sk }));
    calls.push(
      (async () => {
        for (let attempt = 0; pending.length; attempt++) {
          if (attempt > 0) await new Promise((r) => setTimeout(r, Math.random() * Math.min(1000, 20 * 2 ** attempt)));
          if (attempt > 8) throw new Error('BatchGetItem: chiavi non lette dopo 8 tentativi');
          const res = await ddb().send(
            new BatchGetCommand({
              RequestItems: {
                [table()]: {
                  Keys: pending,
                  ConsistentRead: opts.consistent,
                  ProjectionExpression: opts.projection,
                  ExpressionAttributeNames: opts.names,
                },
              },
            }),
          );
          for (const item of res.Responses?.[table()] ?? []) out.set(`${item.pk}|${item.sk}`, item);
          pending = (res.UnprocessedKeys?.[table()]?.Keys as Record<string, unknown>[] | undefined) ?? [];
        }
      })(),
    );
  }
  await Promise.all(calls);
  return out;
}

export type OmiRecord = OmiValoriRow & { semester: string };

/** The rows stored in a zone-quotations item, through the parser's reader. */
export function readZoneRows(item: Record<string, unknown>): OmiValoriRow[] {
  return String(item.rows ?? '').split('\n').filter(Boolean).map(readValoriLine);
}

/** A zone-quotations item back as records, with the semester from its keys. */
export function toQuotations(item: Record<string, unknown>): OmiRecord[] {
  const { semester } = omiKeys.parseZoneQuotations(item.pk as string, item.sk as string);
  return readZoneRows(item).map((row) => ({ ...row, descrTipologia: row.descrTipologia || descrTipologia(row.codTip), semester }));
}

const usable = (q: OmiQuotation) => (q.comprMin ?? 0) > 0 && (q.comprMax ?? 0) > 0;

/**
 * The valuation's data: the comune's quotations of one type for the newest semester that
 * has usable values (plus any newer semester with only 0s, so the engine can say so), and
 * the comune's zone descriptions. Two Queries, in parallel; the first reads the comune's
 * zone items newest first and stops at the first item older than that semester.
 */
export async function loadValuationData(prov: string, comune: string, codTip: number): Promise<{ rows: OmiQuotation[]; zones: OmiZoneInfo[] }> {
  const comuneKey = comuneSearchKey(comune);
  const rows: OmiQuotation[] = [];
  const zones: OmiZoneInfo[] = [];
  const cq = omiKeys.quotationsOfComune(prov, comuneKey);
  const zq = omiKeys.zonesOfComune(prov, comuneKey);
  let usableSemester: string | undefined;
  await Promise.all([
    queryAll(
      {
        TableName: table(),
        IndexName: cq.index,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': cq.pk },
        ScanIndexForward: false,
        Limit: 200,
      },
      (item) => {
        const semester = String(item.gsi1sk).split('#')[0]!;
        if (usableSemester && semester < usableSemester) return false;
        for (const q of toQuotations(item)) {
          if (q.codTip !== codTip) continue;
          rows.push(q);
          if (!usableSemester && usable(q)) usableSemester = q.semester;
        }
      },
    ),
    queryAll(
      {
        TableName: table(),
        IndexName: zq.index,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': zq.pk },
        ScanIndexForward: false,
        ProjectionExpression: 'gsi1sk, #row',
        ExpressionAttributeNames: { '#row': 'row' },
      },
      (item) => {
        const [semester] = String(item.gsi1sk).split('#');
        const z = readZoneLine(item.row as string);
        zones.push({ linkZona: z.linkZona, zona: z.zona, fascia: z.fascia, zonaDescr: z.zonaDescr, semester: semester! });
      },
    ),
  ]);
  return { rows, zones };
}

/** A zone's quotations of one type in the given semesters, every state: one BatchGetItem of its zone items. */
export async function loadZoneHistory(prov: string, linkZona: string, codTip: number, semesters: readonly string[]): Promise<OmiQuotation[]> {
  const got = await batchGet(semesters.map((semester) => omiKeys.zoneQuotations({ semester, prov, linkZona })));
  return [...got.values()].flatMap(toQuotations).filter((q) => q.codTip === codTip);
}
