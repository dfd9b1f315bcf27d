/**
 * OMI import and clear jobs (keys in keys.ts, omiKeys): one item per job, updated while the
 * background function works so the admin page can show live progress and then the result.
 * The run that holds a job touches it every few seconds (functions/omi/heartbeat.ts).
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OmiJob, OmiJobKind, OmiJobStatus, RejectedRow } from '../../domain/omi/api';
import { ddb, isConditionFailure, table } from '../db';
import { omiKeys } from '../keys';

export type { OmiJob, OmiJobKind, OmiJobStatus, RejectedRow };

/** Stored rejected-row reasons are capped; the counts stay exact. */
export const MAX_STORED_REASONS = 100;

/** A running job whose heartbeat is older than this is taken over by a redelivered event (the heartbeat beats well inside it). */
export const STALE_AFTER_MS = 30_000;

/**
 * A running job silent this long is dead for the repair (functions/omi/repair-imports.ts):
 * longer than Lambda waits before retrying a failed asynchronous invocation (1, then 2
 * minutes), so a retry on its way is not ended first and then resumed.
 */
export const ABANDON_AFTER_MS = 5 * 60_000;

const FIELDS: (keyof OmiJob)[] = [
  'id', 'kind', 'status', 'fileName', 'semester', 's3Key', 'createdBy', 'createdAt', 'startedAt', 'finishedAt', 'updatedAt',
  'rowsRead', 'rowsWritten', 'rowsExpected', 'phase', 'indexDone', 'indexTotal', 'indexStartedAt', 'indexWorkDone', 'indexWorkTotal', 'inserted', 'updated', 'rejected', 'rejectedReasons', 'warnings', 'warningReasons', 'fileKind', 'encoding', 'bytesRead', 'bytesTotal',
  'deleted', 'total', 'progress', 'durationMs', 'error', 'unmatchedComuni',
];

const ZERO = {
  rowsRead: 0, rowsWritten: 0, indexDone: 0, indexWorkDone: 0, inserted: 0, updated: 0, rejected: 0, rejectedReasons: [], warnings: 0, warningReasons: [], bytesRead: 0, deleted: 0, progress: 0, unmatchedComuni: [],
};

export function toJob(item: Record<string, unknown>): OmiJob {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) out[f] = item[f] ?? (f in ZERO ? ZERO[f as keyof typeof ZERO] : null);
  return out as unknown as OmiJob;
}

export async function createJob(input: {
  id: string;
  kind: OmiJobKind;
  fileName?: string | null;
  semester?: string | null;
  s3Key?: string | null;
  createdBy?: string | null;
  now?: Date;
}): Promise<OmiJob> {
  const createdAt = (input.now ?? new Date()).toISOString();
  const item = {
    ...omiKeys.job(input.id),
    ...omiKeys.jobIndex(createdAt, input.id),
    entity: 'omiJob',
    id: input.id,
    kind: input.kind,
    status: 'pending' as const,
    fileName: input.fileName ?? null,
    semester: input.semester ?? null,
    s3Key: input.s3Key ?? null,
    createdBy: input.createdBy ?? null,
    createdAt,
    updatedAt: createdAt,
    ...ZERO,
  };
  await ddb().send(new PutCommand({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return toJob(item);
}

export async function getJob(id: string): Promise<OmiJob | undefined> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: omiKeys.job(id), ConsistentRead: true }));
  return res.Item && res.Item.entity === 'omiJob' ? toJob(res.Item) : undefined;
}

/** The most recent jobs, newest first. */
export async function recentJobs(limit = 20): Promise<OmiJob[]> {
  const q = omiKeys.recentJobs();
  const res = await ddb().send(
    new QueryCommand({
      TableName: table(),
      IndexName: q.index,
      KeyConditionExpression: 'gsi3pk = :pk',
      ExpressionAttributeValues: { ':pk': q.pk },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (res.Items ?? []).map(toJob);
}

/** A job of this kind that is running right now (heartbeat fresh), if any. */
export async function activeJob(kind?: OmiJobKind, now = Date.now()): Promise<OmiJob | undefined> {
  return (await recentJobs(20)).find(
    (j) => j.status === 'running' && (!kind || j.kind === kind) && now - Date.parse(j.updatedAt) < STALE_AFTER_MS,
  );
}

/**
 * Takes a job for one run. It succeeds when the job is new, pending or failed, when a
 * running one stopped beating (its Lambda died), or when a completed import is for another
 * version of the object (a new upload with the same key). It fails — and the caller does
 * nothing — when the same object is already done or being worked on (S3 may deliver an
 * event twice). Counters restart: a re-run recounts the whole file (idempotent writes).
 */
export async function claimJob(
  id: string,
  run: { runId: string; kind: OmiJobKind; etag?: string | null; fileName?: string | null; semester?: string | null; s3Key?: string | null; bytesTotal?: number | null },
  now = new Date(),
): Promise<boolean> {
  const at = now.toISOString();
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: omiKeys.job(id),
        UpdateExpression:
          'SET entity = :entity, id = :id, kind = :kind, #status = :running, runId = :run, heartbeatAt = :now, startedAt = :at, updatedAt = :at, ' +
          'etag = :etag, fileName = if_not_exists(fileName, :fileName), semester = if_not_exists(semester, :semester), ' +
          's3Key = if_not_exists(s3Key, :s3Key), createdAt = if_not_exists(createdAt, :at), gsi3pk = if_not_exists(gsi3pk, :g3pk), ' +
          'gsi3sk = if_not_exists(gsi3sk, :g3sk), rowsRead = :zero, rowsWritten = :zero, rowsExpected = :null, #phase = :null, indexDone = :zero, indexTotal = :null, indexStartedAt = :null, indexWorkDone = :zero, indexWorkTotal = :null, inserted = :zero, updated = :zero, rejected = :zero, ' +
          'rejectedReasons = :none, warnings = :zero, warningReasons = :none, bytesRead = :zero, bytesTotal = :bytesTotal, deleted = :zero, progress = :zero, ' +
          'finishedAt = :null, #error = :null, durationMs = :null',
        ConditionExpression:
          'attribute_not_exists(pk) OR #status IN (:pending, :failed) OR (#status = :running AND heartbeatAt < :stale) ' +
          'OR (#status = :completed AND kind = :import AND etag <> :etag)',
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error', '#phase': 'phase' },
        ExpressionAttributeValues: {
          ':entity': 'omiJob',
          ':id': id,
          ':kind': run.kind,
          ':running': 'running',
          ':pending': 'pending',
          ':failed': 'failed',
          ':completed': 'completed',
          ':import': 'import',
          ':run': run.runId,
          ':now': now.getTime(),
          ':stale': now.getTime() - STALE_AFTER_MS,
          ':at': at,
          ':etag': run.etag ?? '',
          ':fileName': run.fileName ?? null,
          ':semester': run.semester ?? null,
          ':s3Key': run.s3Key ?? null,
          ':g3pk': omiKeys.jobIndex(at, id).gsi3pk,
          ':g3sk': omiKeys.jobIndex(at, id).gsi3sk,
          ':zero': 0,
          ':none': [],
          ':bytesTotal': run.bytesTotal ?? null,
          ':null': null,
        },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

type Progress = Partial<Pick<OmiJob,
  'rowsRead' | 'rowsWritten' | 'rowsExpected' | 'phase' | 'indexDone' | 'indexTotal' | 'indexStartedAt' | 'indexWorkDone' | 'indexWorkTotal' | 'inserted' | 'updated' | 'rejected' | 'rejectedReasons' | 'warnings' | 'warningReasons' | 'bytesRead' | 'bytesTotal' | 'deleted' | 'total' |
  'progress' | 'fileKind' | 'encoding' | 'semester' | 'unmatchedComuni'>>;

/** Progress of the run that holds the job (a newer run takes over: this one's writes then fail). */
export async function updateJob(
  id: string,
  runId: string,
  fields: Progress & { status?: OmiJobStatus; error?: string | null; finishedAt?: string; durationMs?: number },
  now = new Date(),
): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':run': runId, ':hb': now.getTime(), ':at': now.toISOString() };
  const sets = ['heartbeatAt = :hb', 'updatedAt = :at'];
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    names[`#${k}`] = k;
    values[`:${k}`] = v;
    sets.push(`#${k} = :${k}`);
  }
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: omiKeys.job(id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'runId = :run',
      ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
      ExpressionAttributeValues: values,
    }),
  );
}

/**
 * Ends an import whose run stopped beating and was not taken over (its Lambda died and no
 * retry came): failed, with the reason. False when a run beats again or the job ended meanwhile
 * (the condition, not a read before it, decides).
 */
export async function abandonJob(id: string, message: string, now = new Date()): Promise<boolean> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: omiKeys.job(id),
        UpdateExpression: 'SET #status = :failed, #error = :error, #phase = :null, finishedAt = :at, updatedAt = :at',
        ConditionExpression: '#status = :running AND heartbeatAt < :stale',
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error', '#phase': 'phase' },
        ExpressionAttributeValues: { ':failed': 'failed', ':running': 'running', ':error': message, ':null': null, ':at': now.toISOString(), ':stale': now.getTime() - ABANDON_AFTER_MS },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
