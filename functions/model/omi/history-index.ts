/**
 * The zones' history index (gsi2 OMIH#{prov}#{linkZona}, keys.ts) for OMI items stored before
 * it existed. Every import writes its items with their history keys and registers a province
 * new to a semester as history-indexed (semesters.ts registerProvince); a (semester, province)
 * that held data before is read by key (zone-history.ts) until this backfill has given every
 * item of it its history keys and listed the province in the manifest's `historyIndexed`.
 *
 * Idempotent and resumable, one (semester, province) at a time: an item gets its keys only
 * while it exists (a clear running beside it is never undone), the manifest lists the
 * province only while the manifest exists and no quotations import is under way there
 * (`dirty`, VALORI or ZONE: the next run takes it). Run by the daily `indexOmiHistory` job and the local setup.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mapLimit } from '../../lib/media-storage';
import { ddb, isConditionFailure, queryAll, table } from '../db';
import { omiKeys } from '../keys';
import { bumpDataState } from './data-state';
import { listSemesters } from './semesters';

/** item updates in flight at once */
const CONCURRENCY = 16;

export interface HistoryIndexRun {
  /** (semester, province) pairs indexed by this run */
  indexed: number;
  /** items given their history keys */
  items: number;
  /** pairs left for the next run (an import under way there, or no time left) */
  pending: number;
}

/** Indexes every (semester, province) not yet history-indexed; stops starting new ones when `timeLeftMs()` falls under a minute. */
export async function indexZoneHistories(timeLeftMs: () => number = () => Infinity): Promise<HistoryIndexRun> {
  const run: HistoryIndexRun = { indexed: 0, items: 0, pending: 0 };
  for (const m of await listSemesters()) {
    for (const prov of m.provinces) {
      if (m.historyIndexed.includes(prov)) continue;
      if (m.dirty.includes(prov) || timeLeftMs() < 60_000) {
        run.pending++;
        continue;
      }
      run.items += await indexProvince(m.semester, prov);
      if (await markIndexed(m.semester, prov)) run.indexed++;
      else run.pending++;
    }
  }
  return run;
}

/** Gives every item of a semester and province without history keys its keys; how many. */
async function indexProvince(semester: string, prov: string): Promise<number> {
  const missing: { pk: string; sk: string }[] = [];
  await Promise.all(
    omiKeys.semesterProvince(semester, prov).map((q) =>
      queryAll(
        { TableName: table(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': q.pk }, ProjectionExpression: 'pk, sk, gsi2pk', ConsistentRead: true },
        (item) => {
          if (item.gsi2pk === undefined) missing.push({ pk: item.pk as string, sk: item.sk as string });
        },
      ),
    ),
  );
  const updated = await mapLimit(missing, CONCURRENCY, async (key) => {
    const kind = key.sk.startsWith(omiKeys.quotationSkPrefix) ? 'quotations' : 'description';
    const h = omiKeys.zoneHistoryIndex(omiKeys.parseZoneQuotations(key.pk, key.sk), kind);
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: table(),
          Key: key,
          UpdateExpression: 'SET gsi2pk = :pk, gsi2sk = :sk',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':pk': h.gsi2pk, ':sk': h.gsi2sk },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false; // deleted meanwhile (a clear): nothing to index
      throw err;
    }
  });
  return updated.filter(Boolean).length;
}

/** Lists the province as history-indexed (the data state changes: valuations read it by Query from now). */
async function markIndexed(semester: string, prov: string): Promise<boolean> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: omiKeys.semester(semester),
        UpdateExpression: 'SET updatedAt = :now ADD historyIndexed :p',
        ConditionExpression: 'attribute_exists(pk) AND NOT contains(dirty, :prov)',
        ExpressionAttributeValues: { ':now': new Date().toISOString(), ':p': new Set([prov]), ':prov': prov },
      }),
    );
    await bumpDataState();
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
