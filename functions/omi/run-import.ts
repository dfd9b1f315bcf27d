/**
 * The OMI import use case, run by the S3 ObjectCreated trigger: streams the dropped file
 * from S3 through the parser, hands each row to the handler of the file's kind (VALORI:
 * rows gathered into one item per zone; ZONE: one item per zone description), writes in
 * parallel BatchWriteItem calls, keeps the job item's progress live (a heartbeat every
 * HEARTBEAT_MS, whatever the row rate: heartbeat.ts), then rebuilds the comune digests
 * (model/omi/comune-digest.ts) and, for VALORI, the listing index of every (semester,
 * province) it touched, and marks each clean.
 *
 * Exact counts: before writing the first record of a province, what the semester already
 * holds there is read (model/omi/semesters.ts loadExisting: nothing for a new province,
 * the listing index for a clean one, the table itself for one an earlier run left dirty):
 * a record already present is "updated", else "inserted". Re-importing the same file
 * inserts 0.
 * Idempotent: keys are the record's identity, so a re-run after a crash (or S3 delivering
 * the event twice) converges to the same items, and the index is rebuilt from what the
 * table holds plus the file.
 *
 * Stages: claimImport -> openObject -> importRows (startFile, takeRow, checkBytesRead) ->
 * rebuildIndexes -> completeImport, or failImport (rebuildFromTable when it fails for good).
 *
 * The object read is the object announced (object-check.ts), checked at both ends:
 * - before any row is read, GetObject's length and ETag against the event's size and ETag:
 *   a file still being written, cut short or replaced fails the job with nothing written,
 *   so the data already imported is untouched (the cheap check, and the one that catches a
 *   store that announces an object before it holds all of it);
 * - at the end of the stream, the bytes read (counted and MD5-hashed as the parser pulls
 *   them, no second read) against the same size and ETag (MD5 only for a single-part ETag).
 *   Zone items are written while the file streams, so this check can only come after some
 *   writes: a mismatch there fails the job before the last zones are written, rebuilds the
 *   indexes from what the table then holds (rebuildFromTable), and says that some zones may
 *   already hold the bytes read; a new upload rewrites them. Undoing those writes
 *   would need every overwritten item read first: not done, as only a corrupted transfer of
 *   an object that passed the first check reaches this point.
 *
 * Progress (domain/omi/progress.ts estimates the time left from it): rows read, rows
 * written (stored by DynamoDB, counted as each BatchWriteItem returns), and the phase:
 * 'rows' while the file is read and written, 'index' while the digests and the listing index
 * are rebuilt.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../lib/aws/s3';
import { logger } from '../lib/logger';
import { mapLimit } from '../lib/media-storage';
import type { UnmatchedComune } from '../domain/omi/api';
import type { IndexEntry } from '../domain/omi/listing-index';
import { isSemester } from '../domain/omi/semester';
import type { OmiValoriRow, OmiZoneRow } from '../domain/omi/types';
import { OMI_MAX_BYTES, tooLargeMessage } from '../domain/uploads';
import { writeIndexChunk } from '../model/omi/index-chunks';
import { activeJob, claimJob, MAX_STORED_REASONS, updateJob, type RejectedRow } from '../model/omi/jobs';
import { rebuildComuneDigests } from '../model/omi/comune-digest';
import { getSemester, listingFromTable, loadExisting, othersRegisteredSince, registerProvince, releaseProvince, type SemesterManifest } from '../model/omi/semesters';
import { OmiWriter } from '../model/omi/writer';
import type { OmiImportPhase } from '../domain/omi/api';
import { importPercent } from '../domain/omi/progress';
import { startHeartbeat, type Heartbeat } from './heartbeat';
import { valoriHandler, zoneHandler, type ProvinceState, type RowHandler } from './import-handlers';
import { CountingHash, openedObjectMismatch, readBytesMismatch } from './object-check';
import { OmiFormatError, parseOmiCsv, type OmiFileKind, type OmiFileMeta, type OmiParseEvent, type OmiParseSummary } from './parse-omi';

/** Unmatched comuni listed in a job (a national file has ~160, merged comuni; the item stays far below DynamoDB's 400 KB). */
const MAX_UNMATCHED = 1000;

/** Provinces rebuilt at once after the rows (each: a query of its zone items, a few writes). */
const REBUILD_CONCURRENCY = 8;

/** A problem with the file itself: the job fails with this message and is not retried. */
export class OmiImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OmiImportError';
  }
}

/** The bytes read at the end of the stream are not the object announced: nothing more is written. */
class OmiObjectMismatchError extends OmiImportError {}

export interface ImportRequest {
  bucket: string;
  key: string;
  jobId: string;
  semester: string | undefined;
  fileName: string;
  etag?: string;
  size?: number;
}

export interface ImportOutcome {
  status: 'completed' | 'failed' | 'skipped';
  rowsRead: number;
  inserted: number;
  updated: number;
  rejected: number;
  warnings: number;
  error?: string;
  durationMs: number;
}

/** One run of an import once its job is claimed: what it has read, counted and written so far. */
interface ImportRun {
  readonly req: ImportRequest;
  readonly runId: string;
  readonly started: number;
  readonly counts: { rowsRead: number; inserted: number; updated: number; rejected: number; warnings: number };
  /** rows whose record DynamoDB has stored */
  rowsWritten: number;
  phase: OmiImportPhase;
  /** phase 'index': provinces rebuilt, of indexTotal */
  indexDone: number;
  indexTotal: number | null;
  /** phase 'index': when it began, and the provinces rebuilt weighed by their records in the file */
  indexStartedAt: string | null;
  indexWorkDone: number;
  indexWorkTotal: number | null;
  /** counts and hashes the object's bytes as the parser reads them */
  readonly read: CountingHash;
  readonly reasons: RejectedRow[];
  readonly warningReasons: RejectedRow[];
  /** the file's comuni tied to no current comune (reported when the import completes) */
  readonly unmatched: Map<string, UnmatchedComune>;
  bytesRead: number;
  /** line feeds among bytesRead: lines per byte measured where the bytes are counted */
  lineFeeds: number;
  /** the parser has handed out every row: rowsRead is the file's */
  readDone: boolean;
  bytesTotal: number | null;
  /** from the request, else from the file's title */
  semester: string | undefined;
  fileKind: OmiFileKind | undefined;
  /** the semester's manifest as it was before this run registered any province */
  manifest: SemesterManifest | undefined;
  /** when `manifest` was read (ms): what the run knows of the semester is as old as that */
  manifestReadAt: number;
  readonly provinces: Map<string, ProvinceState>;
  /** where each province's existing records were read from (logged) */
  readonly existingFrom: Record<'none' | 'index' | 'table', number>;
  readonly writer: OmiWriter;
}

type RowEvent = Extract<OmiParseEvent, { type: 'valori' | 'zone' }>;
type Handlers = { valori: RowHandler<OmiValoriRow>; zone: RowHandler<OmiZoneRow> };

export async function runImport(req: ImportRequest, opts: { concurrency?: number } = {}): Promise<ImportOutcome> {
  const started = Date.now();
  const runId = randomUUID();
  if (!(await claimImport(req, runId))) {
    logger.info('OMI import already done or running: event ignored', { jobId: req.jobId, key: req.key });
    return { status: 'skipped', rowsRead: 0, inserted: 0, updated: 0, rejected: 0, warnings: 0, durationMs: 0 };
  }
  const run: ImportRun = {
    req,
    runId,
    started,
    counts: { rowsRead: 0, inserted: 0, updated: 0, rejected: 0, warnings: 0 },
    rowsWritten: 0,
    phase: 'rows',
    indexDone: 0,
    indexTotal: null,
    indexStartedAt: null,
    indexWorkDone: 0,
    indexWorkTotal: null,
    read: new CountingHash(),
    reasons: [],
    warningReasons: [],
    unmatched: new Map(),
    bytesRead: 0,
    lineFeeds: 0,
    readDone: false,
    bytesTotal: req.size ?? null,
    semester: req.semester,
    fileKind: undefined,
    manifest: undefined,
    manifestReadAt: 0,
    provinces: new Map(),
    existingFrom: { none: 0, index: 0, table: 0 },
    writer: new OmiWriter({ concurrency: opts.concurrency ?? 16, onRowsWritten: (rows) => (run.rowsWritten += rows) }),
  };
  // the job item is touched every HEARTBEAT_MS whatever the row rate, until the final update
  const heartbeat = startHeartbeat(() => reportProgress(run));
  try {
    const body = await openObject(run);
    const summary = await importRows(run, body);
    await rebuildIndexes(run);
    return await completeImport(run, summary, heartbeat);
  } catch (err) {
    return await failImport(run, err, heartbeat);
  } finally {
    await heartbeat.stop();
  }
}

/**
 * Stage 1: takes the job for this run (false: the same object is already done or being
 * worked on, and the event is ignored). Counters restart: a re-run recounts the whole file.
 */
function claimImport(req: ImportRequest, runId: string): Promise<boolean> {
  return claimJob(req.jobId, {
    runId,
    kind: 'import',
    etag: req.etag,
    fileName: req.fileName,
    semester: req.semester,
    s3Key: req.key,
    bytesTotal: req.size ?? null,
  });
}

/** The job's live fields: counts, reasons, bytes and progress, plus `extra`. */
function reportProgress(run: ImportRun, extra: Record<string, unknown> = {}): Promise<void> {
  return updateJob(run.req.jobId, run.runId, {
    ...run.counts,
    rejectedReasons: run.reasons,
    warningReasons: run.warningReasons,
    bytesRead: run.bytesRead,
    bytesTotal: run.bytesTotal,
    rowsWritten: run.rowsWritten,
    rowsExpected: expectedRows(run),
    phase: run.phase,
    indexDone: run.indexDone,
    indexTotal: run.indexTotal,
    indexStartedAt: run.indexStartedAt,
    indexWorkDone: run.indexWorkDone,
    indexWorkTotal: run.indexWorkTotal,
    progress: importPercent({ ...run.counts, ...run, rowsExpected: expectedRows(run), fileKind: run.fileKind ?? null, startedAt: null, updatedAt: '' }),
    ...extra,
  });
}

/**
 * The rows the file holds: exact once the parser is done; until then from the line feeds
 * per byte where the bytes are counted (the parser's input), less the title and header
 * lines. Not from rowsRead per byte: the bytes run ahead of the rows parsed by what the
 * stream buffers (about a megabyte: a ZONE file's rows were expected 7 times too few).
 */
function expectedRows(run: ImportRun): number | null {
  if (run.readDone) return run.counts.rowsRead;
  if (!run.bytesTotal || run.bytesRead <= 0 || run.lineFeeds <= 0) return null;
  return Math.max(run.counts.rowsRead, Math.round((run.lineFeeds * run.bytesTotal) / run.bytesRead) - 2);
}

/**
 * Stage 2: the object to read, once nothing forbids it: no clear is running, the object
 * opened is the one the event announced (its size and ETag: else nothing is written), and
 * the file is within OMI_MAX_BYTES (S3 enforces the upload policy's limit; a file that got
 * in another way is refused here). The body goes through run.read (byte count and MD5).
 */
async function openObject(run: ImportRun): Promise<Readable> {
  if (await activeJob('clear')) {
    throw new OmiImportError('È in corso la cancellazione dei dati OMI: ricarica il file al termine');
  }
  const obj = await s3().send(new GetObjectCommand({ Bucket: run.req.bucket, Key: run.req.key }));
  const cancel = () => obj.Body?.transformToWebStream?.().cancel().catch(() => undefined);
  const mismatch = openedObjectMismatch(run.req, { contentLength: obj.ContentLength, etag: obj.ETag });
  if (mismatch) {
    cancel();
    logger.warn('OMI import: object opened is not the one announced', { key: run.req.key, size: run.req.size, etag: run.req.etag, contentLength: obj.ContentLength, objectEtag: obj.ETag });
    throw new OmiImportError(mismatch);
  }
  // the event's size is the object uploaded; GetObject's length only when the event has none
  run.bytesTotal = run.req.size ?? obj.ContentLength ?? null;
  if (run.bytesTotal !== null && run.bytesTotal > OMI_MAX_BYTES) {
    cancel();
    throw new OmiImportError(tooLargeMessage(OMI_MAX_BYTES));
  }
  const body = obj.Body as Readable;
  body.once('error', (err) => run.read.destroy(err));
  return body.pipe(run.read);
}

/**
 * Stage 3: streams the file through the parser, counts every row and hands each new or
 * updated one to the handler of the file's kind, then writes what the handlers still hold.
 * One await per block of lines, and per row only when a write or a province's first read
 * has to wait.
 */
async function importRows(run: ImportRun, body: Readable): Promise<OmiParseSummary> {
  const events = parseOmiCsv(body, {
    onBytes: (n, lineFeeds) => {
      run.bytesRead = n;
      run.lineFeeds = lineFeeds;
    },
  });
  const handlers: Handlers = { valori: valoriHandler(run), zone: zoneHandler(run) };
  let summary: OmiParseSummary;
  for (;;) {
    const next = await events.next();
    if (next.done) {
      summary = next.value;
      break;
    }
    for (const ev of next.value) {
      if (ev.type === 'meta') {
        await startFile(run, ev.meta);
        continue;
      }
      run.counts.rowsRead++;
      if (ev.type === 'rejected') {
        reject(run, ev.line, ev.reason);
        continue;
      }
      const waiting = takeRow(run, handlers, ev);
      if (waiting) await waiting;
    }
  }
  run.readDone = true;
  checkBytesRead(run);
  if (run.fileKind) await handlers[run.fileKind].finish(run.provinces.values());
  await run.writer.flush();
  return summary;
}

/** The stream has ended: every byte read is the object announced, else nothing more is written. */
function checkBytesRead(run: ImportRun): void {
  const mismatch = readBytesMismatch(run.req, { bytes: run.read.bytes, md5: run.read.md5() });
  if (!mismatch) return;
  logger.warn('OMI import: bytes read are not the object announced', { key: run.req.key, size: run.req.size, etag: run.req.etag, bytes: run.read.bytes, md5: run.read.md5() });
  throw new OmiObjectMismatchError(mismatch);
}

/** The file's title and header are read: its kind and semester (the request's must match the title's). */
async function startFile(run: ImportRun, meta: OmiFileMeta): Promise<void> {
  run.fileKind = meta.kind;
  const fromTitle = meta.semester;
  if (run.semester && fromTitle && run.semester !== fromTitle) {
    throw new OmiImportError(
      `Il semestre indicato (${run.semester}) non corrisponde a quello del file (${fromTitle}, dalla riga del titolo). Correggi il semestre e ricarica il file.`,
    );
  }
  run.semester ??= fromTitle;
  if (!run.semester || !isSemester(run.semester)) {
    throw new OmiImportError('Semestre non indicato: specifica il semestre nel formato AAAA-S1 o AAAA-S2');
  }
  run.manifestReadAt = Date.now();
  run.manifest = await getSemester(run.semester);
  await updateJob(run.req.jobId, run.runId, { semester: run.semester, fileKind: run.fileKind, bytesTotal: run.bytesTotal });
}

/** A good row: its province (read on first need), then a duplicate is rejected, anything else counted and accepted. */
function takeRow(run: ImportRun, handlers: Handlers, ev: RowEvent): Promise<void> | void {
  // one handler per file kind; the event's row matches it
  const handler = handlers[ev.type] as RowHandler<OmiValoriRow | OmiZoneRow>;
  const st = run.provinces.get(ev.row.prov);
  if (!st) return openProvince(run, ev.row.prov).then((opened) => acceptRow(run, handler, opened, ev));
  return acceptRow(run, handler, st, ev);
}

function acceptRow(run: ImportRun, handler: RowHandler<OmiValoriRow | OmiZoneRow>, st: ProvinceState, ev: RowEvent): Promise<void> | void {
  const identity = handler.identity(ev.row);
  const first = st.fromFile.get(identity);
  if (first) {
    reject(run, ev.line, handler.duplicate(first.line));
    return undefined;
  }
  if (st.existing.has(identity)) run.counts.updated++;
  else run.counts.inserted++;
  if (ev.warning) warn(run, ev.line, ev.warning);
  st.fromFile.set(identity, { entry: handler.entry(ev.row), line: ev.line });
  return handler.accept(ev.row, st, identity); // a promise only when a write had to wait for room
}

/** A province's first row: what the semester holds there (the manifest as it was before this run), then it is registered. */
async function openProvince(run: ImportRun, prov: string): Promise<ProvinceState> {
  const kind = run.fileKind === 'zone' ? 'zones' : 'quotations';
  const existing = await loadExisting(run.manifest, prov, kind);
  run.existingFrom[existing.source]++;
  const registered = await registerProvince(run.semester!, prov, run.req.jobId, !run.manifest?.provinces.includes(prov));
  // another job registered before this one (still there, or come and gone since the manifest was read)
  const shared = registered.others.length > 0 || registered.count !== (run.manifest?.registrationCounts[prov] ?? 0) + 1;
  const st: ProvinceState = {
    prov,
    existing: existing.entries,
    fromFile: new Map(),
    zones: new Map(),
    written: new Set(),
    reopened: new Set(),
    registrations: registered.count,
    shared,
    readAt: run.manifestReadAt,
  };
  run.provinces.set(prov, st);
  return st;
}

function reject(run: ImportRun, line: number, reason: string): void {
  run.counts.rejected++;
  if (run.reasons.length < MAX_STORED_REASONS) run.reasons.push({ line, reason });
}

function warn(run: ImportRun, line: number, reason: string): void {
  run.counts.warnings++;
  if (run.warningReasons.length < MAX_STORED_REASONS) run.warningReasons.push({ line, reason });
}

/**
 * Stage 4: every province the file touched, REBUILD_CONCURRENCY at a time, the largest first
 * (a large province started last would leave the others idle): its comune digests rebuilt
 * from the table (what it held merged with the file), then, for VALORI, its listing index under
 * a new version (what the table held merged with the file's records), then the job's
 * registration released (the last job out marks the province clean: semesters.ts
 * releaseProvince). The job counts the work done, each province weighing its records in the
 * file plus an average province's: the page's time left follows the rebuild's own pace
 * (domain/omi/progress.ts). Nothing of this runs for a file whose bytes were not the object:
 * the job has failed before.
 */
async function rebuildIndexes(run: ImportRun, listingOf: (prov: string, st: ProvinceState) => Promise<Iterable<IndexEntry>> = fileListing): Promise<void> {
  if (!run.fileKind) return;
  const version = run.runId.slice(0, 8);
  // a province costs its records and a part that does not depend on them (its queries, the
  // manifest's conditional writes), as much as an average province's records (bench/omi-eta.ts)
  const records = [...run.provinces.values()].reduce((sum, st) => sum + st.fromFile.size, 0);
  const fixed = Math.max(1, Math.round(records / Math.max(1, run.provinces.size)));
  const weight = (st: ProvinceState) => st.fromFile.size + fixed;
  const work = [...run.provinces.entries()].sort(([, a], [, b]) => weight(b) - weight(a));
  run.phase = 'index';
  run.indexTotal = work.length;
  run.indexStartedAt = new Date().toISOString();
  run.indexWorkTotal = work.reduce((sum, [, st]) => sum + weight(st), 0);
  await reportProgress(run); // the page shows the rebuild as soon as it starts
  await mapLimit(work, REBUILD_CONCURRENCY, async ([prov, st]) => {
    await rebuildComuneDigests(run.semester!, prov);
    if (run.fileKind === 'valori') {
      // another job writing the province during this run: what this run read when it started
      // misses its records, so the listing comes from the table (read now); the index keeps
      // the listing built from the latest reads whichever job writes last
      const readAt = Date.now();
      if (listingOf === fileListing && (st.shared || (await othersRegisteredSince(run.semester!, prov, run.req.jobId, st.registrations)))) {
        await writeIndexChunk(run.semester!, prov, await listingFromTable(await getSemester(run.semester!), prov), version, readAt);
      } else {
        await writeIndexChunk(run.semester!, prov, await listingOf(prov, st), version, listingOf === fileListing ? st.readAt : readAt);
      }
    }
    await releaseProvince(run.semester!, prov, run.req.jobId);
    run.indexDone++;
    run.indexWorkDone += weight(st);
  });
}

/** A province's listing after a complete run: what it held before, and the file's records over it. */
async function fileListing(_prov: string, st: ProvinceState): Promise<Iterable<IndexEntry>> {
  const merged = new Map<string, IndexEntry>();
  for (const [id, e] of st.existing) if (e) merged.set(id, e);
  for (const [id, f] of st.fromFile) if (f.entry) merged.set(id, f.entry);
  return merged.values();
}

/**
 * Stage 5 on a failure after some writes: the same rebuild (rebuildIndexes), the listing
 * read from the table itself, not from the file, whose rows were not all written; every
 * province the run touched is clean again. Left dirty, a province would keep the data page
 * reading the table, valuations away from the digests and their cache, and the daily backfill
 * away from it, until an import of that semester and province completed.
 */
async function rebuildFromTable(run: ImportRun): Promise<void> {
  if (!run.semester || !run.provinces.size) return;
  const manifest = await getSemester(run.semester);
  await rebuildIndexes(run, (prov) => listingFromTable(manifest, prov));
}

/** Stage 5: the job's final update, completed, after the heartbeat's last beat. */
async function completeImport(run: ImportRun, summary: OmiParseSummary, heartbeat: Heartbeat): Promise<ImportOutcome> {
  const durationMs = Date.now() - run.started;
  await heartbeat.stop();
  await reportProgress(run, {
    status: 'completed',
    progress: 100,
    unmatchedComuni: [...run.unmatched.values()].sort((a, b) => a.prov.localeCompare(b.prov) || a.comune.localeCompare(b.comune)).slice(0, MAX_UNMATCHED),
    phase: null,
    encoding: summary.encoding,
    finishedAt: new Date().toISOString(),
    durationMs,
  });
  logger.info('OMI import completed', { jobId: run.req.jobId, ...run.counts, unmatchedComuni: run.unmatched.size, durationMs, writer: run.writer.stats, existingFrom: run.existingFrom });
  return { status: 'completed', ...run.counts, durationMs };
}

/**
 * Stage 5 on failure: the job ends failed with the reason. A bad file fails for good; an
 * internal failure is thrown again so Lambda retries the event, and its own message (SDK,
 * network) stays in the logs, never on the admin's page.
 */
async function failImport(run: ImportRun, err: unknown, heartbeat: Heartbeat): Promise<ImportOutcome> {
  const known = err instanceof OmiFormatError || err instanceof OmiImportError;
  const message = known ? (err as Error).message : "Errore durante l'importazione: si è verificato un errore interno. Riprova; se il problema persiste contatta l'assistenza.";
  const durationMs = Date.now() - run.started;
  // the bytes read are not the object: what is buffered is dropped, never sent
  await (err instanceof OmiObjectMismatchError ? run.writer.discard() : run.writer.flush()).catch(() => undefined);
  // a run that stops for good after writing: the indexes follow what the table holds (a
  // failure the Lambda retries is left to the retry, which converges)
  if (known) await rebuildFromTable(run).catch((e: unknown) => logger.error('OMI indexes not rebuilt after a failed import', { jobId: run.req.jobId, error: e as Error }));
  await heartbeat.stop();
  await reportProgress(run, { status: 'failed', phase: null, error: message, finishedAt: new Date().toISOString(), durationMs }).catch((e: unknown) =>
    logger.error('OMI job update failed', { error: e as Error }),
  );
  logger.error('OMI import failed', { jobId: run.req.jobId, error: err as Error });
  if (!known) throw err;
  return { status: 'failed', ...run.counts, error: message, durationMs };
}
