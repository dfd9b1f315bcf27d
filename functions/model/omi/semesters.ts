/**
 * The semester manifests (keys in keys.ts, omiKeys): one item per semester naming every
 * province that received its data, the provinces whose last import has not finished
 * (dirty) and the current listing index version of each; and the reads over a semester
 * and province (what it holds, every key of it).
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { requireConfig } from '../../lib/config';
import { chunkEntries, type IndexEntry } from '../../domain/omi/listing-index';
import { ddb, queryAll } from '../db';
import { omiKeys } from '../keys';
import { readIndexChunk, type IndexRef } from './index-chunks';
import { indexEntryOf, readZoneRows } from './quotations';

export type { IndexRef };

const table = () => requireConfig('TABLE_NAME');

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
 * The semesters holding data of a province, newest first: the manifests' names and
 * provinces only (one strongly consistent Query, filtered on the province), for the
 * valuation's history.
 */
export async function semestersOfProvince(prov: string): Promise<string[]> {
  const q = omiKeys.semesters();
  const out: string[] = [];
  await queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: 'contains(provinces, :prov)',
      ExpressionAttributeValues: { ':pk': q.pk, ':prefix': q.skPrefix, ':prov': prov },
      ProjectionExpression: 'semester',
      ScanIndexForward: false,
      ConsistentRead: true,
    },
    (item) => {
      out.push(item.semester as string);
    },
  );
  return out;
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

export async function deleteSemesterManifest(semester: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: table(), Key: omiKeys.semester(semester) }));
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

/** Every key stored for a semester and province (clear), one shard at a time. */
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
