/**
 * OMI data in the single table (keys in keys.ts, omiKeys): quotation records, zone
 * descriptions, semester manifests and the listing index chunks.
 */
import { BatchGetCommand, BatchWriteCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { aws } from './aws';
import { requireConfig } from './config';
import { omiKeys } from './keys';
import { comuneSearchKey } from '../domain/omi/names';
import { descrTipologia, type Stato } from '../domain/omi/tipologia';
import type { OmiQuotation, OmiValoriRow, OmiZoneInfo, OmiZoneRow } from '../domain/omi/types';
import { buildChunk, encodeChunk, type IndexEntry } from '../omi/listing-index';

const table = () => requireConfig('TABLE_NAME');

export function quotationItem(row: OmiValoriRow, semester: string, jobId: string, importedAt: string): Record<string, unknown> {
  const comuneKey = comuneSearchKey(row.comuneDescrizione);
  const id = { linkZona: row.linkZona, codTip: row.codTip, stato: row.stato, semester };
  return {
    ...omiKeys.quotation(id),
    ...omiKeys.quotationIndexes({ ...id, prov: row.prov, comuneKey }),
    entity: 'omiQuotation',
    semester,
    ...row,
    comuneKey,
    importJobId: jobId,
    importedAt,
  };
}

export function zoneItem(row: OmiZoneRow, semester: string, jobId: string, importedAt: string): Record<string, unknown> {
  const comuneKey = comuneSearchKey(row.comuneDescrizione);
  return {
    ...omiKeys.zone({ linkZona: row.linkZona, semester }),
    ...omiKeys.zoneIndexes({ prov: row.prov, comuneKey, linkZona: row.linkZona, semester }),
    entity: 'omiZone',
    semester,
    ...row,
    comuneKey,
    importJobId: jobId,
    importedAt,
  };
}

export function indexEntryOf(row: { comuneDescrizione: string; linkZona: string; zona: string; codTip: number; stato: Stato | null }): IndexEntry {
  return {
    comune: row.comuneDescrizione,
    comuneKey: comuneSearchKey(row.comuneDescrizione),
    linkZona: row.linkZona,
    zona: row.zona,
    codTip: row.codTip,
    stato: row.stato,
  };
}

async function queryAll(input: QueryCommandInput, onItem: (item: Record<string, unknown>) => boolean | void): Promise<void> {
  let start: Record<string, unknown> | undefined;
  do {
    const res = await aws().ddb.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    for (const item of res.Items ?? []) if (onItem(item) === false) return;
    start = res.LastEvaluatedKey;
  } while (start);
}

/** Records a province as holding data of a semester, before any of its records is written (so clear finds them all). */
export async function registerProvince(semester: string, prov: string): Promise<void> {
  await aws().ddb.send(
    new UpdateCommand({
      TableName: table(),
      Key: omiKeys.semester(semester),
      UpdateExpression: 'SET entity = :e, semester = :s, #index = if_not_exists(#index, :empty), updatedAt = :now ADD provinces :p',
      ExpressionAttributeNames: { '#index': 'index' },
      ExpressionAttributeValues: { ':e': 'omiSemester', ':s': semester, ':empty': {}, ':now': new Date().toISOString(), ':p': new Set([prov]) },
    }),
  );
}

/**
 * What a semester and province already hold: for quotations, identity -> index entry (the
 * import counts inserted/updated exactly and rebuilds the listing index from it); for zones,
 * the identities. Reads gsi2 (all shards in parallel), projected to the few fields needed.
 */
export async function loadExisting(semester: string, prov: string, kind: 'quotations' | 'zones'): Promise<Map<string, IndexEntry | null>> {
  const out = new Map<string, IndexEntry | null>();
  const prefix = kind === 'quotations' ? omiKeys.quotationSkPrefix : omiKeys.zoneSkPrefix;
  await Promise.all(
    omiKeys.semesterProvinceShards(semester, prov).map((q) =>
      queryAll(
        {
          TableName: table(),
          IndexName: q.index,
          KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :prefix)',
          ExpressionAttributeValues: { ':pk': q.pk, ':prefix': prefix },
          ProjectionExpression:
            kind === 'quotations' ? 'gsi2sk, comuneDescrizione, linkZona, zona, codTip, #stato' : 'gsi2sk',
          ExpressionAttributeNames: kind === 'quotations' ? { '#stato': 'stato' } : undefined,
        },
        (item) => {
          out.set(
            item.gsi2sk as string,
            kind === 'quotations'
              ? indexEntryOf(item as { comuneDescrizione: string; linkZona: string; zona: string; codTip: number; stato: Stato | null })
              : null,
          );
        },
      ),
    ),
  );
  return out;
}

/** Every key stored for a semester and province (clear). */
export async function forEachKeyOf(semester: string, prov: string, onKey: (key: { pk: string; sk: string }) => Promise<void>): Promise<void> {
  for (const q of omiKeys.semesterProvinceShards(semester, prov)) {
    const keysOfShard: { pk: string; sk: string }[] = [];
    await queryAll(
      {
        TableName: table(),
        IndexName: q.index,
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': q.pk },
        ProjectionExpression: 'pk, sk',
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
  rows: number;
}

export interface SemesterManifest {
  semester: string;
  provinces: string[];
  index: Record<string, IndexRef>;
  updatedAt: string | null;
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
      out.push({
        semester: item.semester as string,
        provinces: [...((item.provinces as Set<string> | undefined) ?? [])].sort(),
        index: (item.index as Record<string, IndexRef> | undefined) ?? {},
        updatedAt: (item.updatedAt as string | undefined) ?? null,
      });
    },
  );
  return out;
}

/**
 * Writes the listing index of a semester and province under a new version, then points the
 * manifest at it, then deletes the previous version (readers that still hold the old
 * manifest retry once).
 */
export async function writeIndexChunk(semester: string, prov: string, entries: Iterable<IndexEntry>, version: string): Promise<IndexRef> {
  const chunk = buildChunk(semester, prov, entries);
  const parts = encodeChunk(chunk);
  const { ddb } = aws();
  await Promise.all(
    parts.map((data, part) =>
      ddb.send(new PutCommand({ TableName: table(), Item: { ...omiKeys.indexChunk(semester, prov, version, part), entity: 'omiIndexChunk', data } })),
    ),
  );
  const ref: IndexRef = { v: version, parts: parts.length, rows: chunk.size };
  const res = await ddb.send(
    new UpdateCommand({
      TableName: table(),
      Key: omiKeys.semester(semester),
      UpdateExpression: 'SET #index.#prov = :ref, updatedAt = :now',
      ExpressionAttributeNames: { '#index': 'index', '#prov': prov },
      ExpressionAttributeValues: { ':ref': ref, ':now': new Date().toISOString() },
      ReturnValues: 'UPDATED_OLD',
    }),
  );
  const old = (res.Attributes?.index as Record<string, IndexRef> | undefined)?.[prov];
  if (old && old.v !== version) await deleteIndexParts(semester, prov, old);
  return ref;
}

export async function deleteIndexParts(semester: string, prov: string, ref: IndexRef): Promise<void> {
  const keys = Array.from({ length: ref.parts }, (_, part) => omiKeys.indexChunk(semester, prov, ref.v, part));
  for (let i = 0; i < keys.length; i += 25) {
    await aws().ddb.send(
      new BatchWriteCommand({ RequestItems: { [table()]: keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })) } }),
    );
  }
}

export async function deleteSemesterManifest(semester: string): Promise<void> {
  await aws().ddb.send(
    new BatchWriteCommand({ RequestItems: { [table()]: [{ DeleteRequest: { Key: omiKeys.semester(semester) } }] } }),
  );
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
          const res = await aws().ddb.send(
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

export function toQuotation(item: Record<string, unknown>): OmiQuotation & { locMin: number | null; locMax: number | null } {
  return {
    semester: item.semester as string,
    prov: item.prov as string,
    comuneDescrizione: item.comuneDescrizione as string,
    fascia: item.fascia as string,
    zona: item.zona as string,
    linkZona: item.linkZona as string,
    codTip: item.codTip as number,
    descrTipologia: (item.descrTipologia as string) || descrTipologia(item.codTip as number),
    stato: (item.stato as Stato | null) ?? null,
    statoPrev: Boolean(item.statoPrev),
    comprMin: (item.comprMin as number | null) ?? null,
    comprMax: (item.comprMax as number | null) ?? null,
    locMin: (item.locMin as number | null) ?? null,
    locMax: (item.locMax as number | null) ?? null,
  };
}

const usable = (item: Record<string, unknown>) => Number(item.comprMin) > 0 && Number(item.comprMax) > 0;

/**
 * The valuation's data: the comune's quotations of one type for the newest semester that
 * has usable values (plus any newer semester with only 0s, so the engine can say so), and
 * the comune's zone descriptions. Two Queries, in parallel; the first stops early.
 */
export async function loadValuationData(prov: string, comune: string, codTip: number): Promise<{ rows: OmiQuotation[]; zones: OmiZoneInfo[] }> {
  const comuneKey = comuneSearchKey(comune);
  const rows: OmiQuotation[] = [];
  const zones: OmiZoneInfo[] = [];
  const cq = omiKeys.quotationsOfComune(prov, comuneKey, codTip);
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
        Limit: 500,
      },
      (item) => {
        const semester = item.semester as string;
        if (usableSemester && semester < usableSemester) return false;
        rows.push(toQuotation(item));
        if (!usableSemester && usable(item)) usableSemester = semester;
      },
    ),
    queryAll(
      {
        TableName: table(),
        IndexName: zq.index,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': zq.pk },
        ScanIndexForward: false,
        ProjectionExpression: 'linkZona, zona, fascia, zonaDescr, semester',
      },
      (item) => {
        zones.push({
          linkZona: item.linkZona as string,
          zona: item.zona as string,
          fascia: item.fascia as string,
          zonaDescr: item.zonaDescr as string,
          semester: item.semester as string,
        });
      },
    ),
  ]);
  return { rows, zones };
}

/** A zone's quotations of one type across every semester and state. */
export async function loadZoneHistory(linkZona: string, codTip: number): Promise<OmiQuotation[]> {
  const q = omiKeys.zoneHistory(linkZona, codTip);
  const out: OmiQuotation[] = [];
  await queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': q.pk, ':prefix': q.skPrefix },
    },
    (item) => {
      out.push(toQuotation(item));
    },
  );
  return out;
}
