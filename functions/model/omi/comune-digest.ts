/**
 * The comune digests: for each semester and province, every comune's zone-quotations lines
 * and zone descriptions stored there, in a few compressed items ("buckets" of ~8 comuni, by a
 * hash of the comune id; keys in keys.ts, omiKeys.digestBucket) under a version that the
 * semester's manifest names (`digests.{prov}`: DigestRef). The valuation reads a comune's
 * newest semester in one GetItem of its bucket instead of two gsi1 Queries over every zone
 * item (Napoli: 63 quotation items and 65 descriptions, ~13 ms on the local stack, against
 * ~2 ms). A national import writes ~1,100 buckets, not one item per comune (~7,900).
 *
 * Exact, not a cache: the digests of a semester and province are rebuilt from the table
 * itself (strongly consistent reads of its items) by every import of that province, after its
 * last write and before the province is marked clean, under a new version; the manifest then
 * points at it and the previous version is deleted. A clear deletes every version. The
 * valuation reads the digests of a semester only when every province of it has a version and
 * no import is under way there (no province of it is dirty); otherwise it reads the zone items.
 * A comune is read in its own province's digests plus those of every province holding it
 * under an old code (each version lists those comuni: `f`). Two imports of the same province
 * at once (its VALORI and ZONE files) each rebuild after their own writes; the manifest only
 * moves to a version whose reads started later (`b`), so the last one standing saw both.
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { homeProvinceOf } from '../../domain/omi/comune-match';
import { batchGet } from '../batch-get';
import { BatchWriter } from '../batch-writer';
import { ddb, isConditionFailure, queryAll, table } from '../db';
import { omiKeys } from '../keys';
import { bumpDataState } from './data-state';
import { activeJob } from './jobs';
import { forEachKeyIn, listSemesters } from './semesters';

/** comuni per bucket: Napoli's bucket is ~10 KB compressed */
const PER_BUCKET = 8;

/** The version of a semester and province's digests, in its manifest. */
export interface DigestRef {
  v: string;
  /** buckets (0: the province holds nothing) */
  n: number;
  /** when the reads it was built from started (ms) */
  b: number;
  /** comuni held under this province while they belong to another (an old province code) */
  f: string[];
}

/** A comune's lines of one semester: per zone, its quotation lines (LinkZona order) and its description line (LinkZona descending, as zones.ts reads them). */
export interface ComuneLines {
  quotations: [linkZona: string, lines: string][];
  zones: [linkZona: string, line: string][];
}

/**
 * Rebuilds the digests of a semester and province from the table (every shard, strongly
 * consistent) under a new version, and points the manifest at it unless a version built from
 * later reads is already there ('superseded') or the manifest is gone (a clear: 'superseded'
 * too). Returns the comuni written.
 */
export async function rebuildComuneDigests(semester: string, prov: string): Promise<number | 'superseded'> {
  const builtAt = Date.now();
  const byComune = await readProvince(semester, prov);
  const n = Math.ceil(byComune.size / PER_BUCKET);
  const buckets = Array.from({ length: n }, () => ({}) as Record<string, ComuneLines>);
  for (const [comuneId, lines] of byComune) {
    lines.quotations.sort(byZone);
    lines.zones.sort(byZoneDesc);
    buckets[omiKeys.digestBucketOf(comuneId, n)]![comuneId] = lines;
  }
  const ref: DigestRef = { v: randomUUID().slice(0, 8), n, b: builtAt, f: [...byComune.keys()].filter((c) => homeProvinceOf(c) !== prov).sort() };
  const writer = new BatchWriter(ddb(), table(), { concurrency: 4 });
  for (const [i, bucket] of buckets.entries()) {
    await writer.put({ ...omiKeys.digestBucket(semester, prov, ref.v, i), entity: 'omiComuneDigest', data: gzipSync(JSON.stringify(bucket)) });
  }
  await writer.flush();
  const old = await pointManifest(semester, prov, ref);
  if (old === false) {
    await deleteVersion(semester, prov, ref); // a version built from later reads is in place
    return 'superseded';
  }
  if (old && old.v !== ref.v) await deleteVersion(semester, prov, old);
  return byComune.size;
}

/**
 * The digests of every (semester, province) that has none (stored before they existed, or
 * whose import died before rebuilding them), one at a time, unless an import is under way
 * there (the next run takes it); stops starting new ones when `timeLeftMs()` falls under a
 * minute. Run by the daily `indexOmiHistory` job and the local setup.
 */
export async function digestPending(timeLeftMs: () => number = () => Infinity): Promise<{ built: number; pending: number }> {
  const run = { built: 0, pending: 0 };
  // a clear under way deletes what this would build: the next run takes it
  const clearing = await activeJob('clear');
  for (const m of await listSemesters()) {
    for (const prov of m.provinces) {
      if (m.digests[prov]) continue;
      if (clearing || m.dirty.includes(prov) || timeLeftMs() < 60_000) run.pending++;
      else {
        await rebuildComuneDigests(m.semester, prov);
        run.built++;
      }
    }
  }
  return run;
}

/** Every zone item of a semester and province, by comune. */
async function readProvince(semester: string, prov: string): Promise<Map<string, ComuneLines>> {
  const byComune = new Map<string, ComuneLines>();
  const of = (comuneId: string) => {
    let c = byComune.get(comuneId);
    if (!c) byComune.set(comuneId, (c = { quotations: [], zones: [] }));
    return c;
  };
  await Promise.all(
    omiKeys.semesterProvince(semester, prov).map((q) =>
      queryAll(
        {
          TableName: table(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': q.pk },
          ProjectionExpression: 'sk, gsi1pk, #rows, #row',
          ExpressionAttributeNames: { '#rows': 'rows', '#row': 'row' },
          ConsistentRead: true,
        },
        (item) => {
          const sk = item.sk as string;
          if (typeof item.gsi1pk !== 'string') return;
          const comune = omiKeys.comuneIdOfIndex(item.gsi1pk);
          if (sk.startsWith(omiKeys.quotationSkPrefix)) of(comune).quotations.push([sk.slice(omiKeys.quotationSkPrefix.length), String(item.rows ?? '')]);
          else if (sk.startsWith(omiKeys.zoneSkPrefix)) of(comune).zones.push([sk.slice(omiKeys.zoneSkPrefix.length), String(item.row ?? '')]);
        },
      ),
    ),
  );
  return byComune;
}

/**
 * The manifest names `ref` as the province's digests (and the data state changes), unless a
 * version from later reads is there (false) or the manifest is gone (a clear: false). Returns
 * the version it replaced.
 */
async function pointManifest(semester: string, prov: string, ref: DigestRef): Promise<DigestRef | undefined | false> {
  const key = omiKeys.semester(semester);
  try {
    // a manifest written before the digests existed has no map to set a province in
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: key,
        UpdateExpression: 'SET digests = if_not_exists(digests, :empty)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':empty': {} },
      }),
    );
    const res = await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: key,
        UpdateExpression: 'SET digests.#p = :ref, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(digests.#p) OR digests.#p.b <= :b)',
        ExpressionAttributeNames: { '#p': prov },
        ExpressionAttributeValues: { ':ref': ref, ':b': ref.b, ':now': new Date().toISOString() },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    await bumpDataState();
    return (res.Attributes?.digests as Record<string, DigestRef> | undefined)?.[prov];
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

async function deleteVersion(semester: string, prov: string, ref: DigestRef): Promise<void> {
  const writer = new BatchWriter(ddb(), table(), { concurrency: 4 });
  for (let i = 0; i < ref.n; i++) await writer.delete(omiKeys.digestBucket(semester, prov, ref.v, i));
  await writer.flush();
}

const byZone = (a: [string, string], b: [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
const byZoneDesc = (a: [string, string], b: [string, string]) => byZone(b, a);

/**
 * A comune's lines of one semester from the digests of the provinces holding it (its own and
 * those holding it under an old code: OmiDataState.digestsOf), merged in the order the gsi1
 * Queries return them (quotations by LinkZona, descriptions by LinkZona descending), read
 * strongly consistent: 'none' when no province holds the comune, 'unreadable' when a version
 * was replaced since the manifest was read (read the zone items instead).
 */
export async function readComuneDigest(
  semester: string,
  comuneId: string,
  refs: readonly { prov: string; ref: DigestRef }[],
): Promise<ComuneLines | 'none' | 'unreadable'> {
  const keys = refs.filter((r) => r.ref.n > 0).map((r) => omiKeys.digestBucket(semester, r.prov, r.ref.v, omiKeys.digestBucketOf(comuneId, r.ref.n)));
  if (!keys.length) return 'none';
  let items: (Record<string, unknown> | undefined)[];
  if (keys.length === 1) items = [(await ddb().send(new GetCommand({ TableName: table(), Key: keys[0], ConsistentRead: true }))).Item];
  else {
    const got = await batchGet(keys, { consistent: true });
    items = keys.map((k) => got.get(`${k.pk}|${k.sk}`));
  }
  const parts: ComuneLines[] = [];
  for (const item of items) {
    if (!item) return 'unreadable';
    const lines = (JSON.parse(gunzipSync(item.data as Uint8Array).toString('utf8')) as Record<string, ComuneLines>)[comuneId];
    if (lines) parts.push(lines);
  }
  if (!parts.length) return 'none';
  if (parts.length === 1) return parts[0]!;
  return { quotations: parts.flatMap((p) => p.quotations).sort(byZone), zones: parts.flatMap((p) => p.zones).sort(byZoneDesc) };
}

/**
 * The start of a clear: the manifest names no digests any more (and the data state changes),
 * so no valuation reads a digest of records being deleted; the buckets go with the records.
 */
export async function dropDigestRefs(semester: string): Promise<void> {
  try {
    await ddb().send(
      new UpdateCommand({ TableName: table(), Key: omiKeys.semester(semester), UpdateExpression: 'REMOVE digests', ConditionExpression: 'attribute_exists(pk)' }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
  await bumpDataState();
}

/** Every digest key of a semester and province, all versions (clear). */
export function forEachDigestKeyOf(semester: string, prov: string, onKey: (key: { pk: string; sk: string }) => Promise<void>): Promise<void> {
  return forEachKeyIn([omiKeys.digestBuckets(semester, prov)], onKey);
}
