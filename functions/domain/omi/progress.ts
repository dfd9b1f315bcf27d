/**
 * Speed and time left of a running OMI import, from the job the page polls
 * (GET /omi/imports/{jobId}). Pure: the server's clock only (startedAt..updatedAt, the
 * job's heartbeat), so the browser's clock never skews it.
 */
import { formatDecimal, formatNumber } from '../format';
import type { OmiJob } from './api';

export type ImportProgressFields = Pick<
  OmiJob,
  'rowsRead' | 'rowsWritten' | 'rowsExpected' | 'rejected' | 'startedAt' | 'updatedAt' | 'bytesRead' | 'bytesTotal' | 'fileKind' | 'phase' | 'indexDone' | 'indexTotal' | 'indexStartedAt' | 'indexWorkDone' | 'indexWorkTotal'
>;

export interface ImportSpeed {
  /** rows written (stored) per second so far; null until it can be measured */
  rowsPerSecond: number | null;
  /** seconds until the job completes at the pace so far (rows, then the index); null when unknown */
  secondsLeft: number | null;
}

/** Below this much work the pace is noise: nothing is estimated. */
export const MIN_ELAPSED_MS = 1000;

/**
 * The rebuild after a file's rows (phase 'index': the comune digests of every province it
 * touched, the job's registration released, and for VALORI the listing index), in rows'
 * worth of work: its time as a share of the rows' time, measured on the national 2017/2
 * files on the local stack (bench/omi-eta.ts, the runs kept in the history of
 * bench/results/omi-eta.json): VALORI 0.13-0.22, ZONE 0.15-0.20 (the digests read every
 * zone item of the province back, then write ~1 item per 8 comuni). Only the rebuild's start
 * rests on it: from then on its own pace takes over (rebuildSecondsLeft).
 */
export const INDEX_WORK_SHARE = { valori: 0.17, zone: 0.17 } as const;

export interface ImportWork {
  /** work done: rows written or rejected (a rejected row needs no write), then the rebuild's share */
  done: number;
  /** all the work: the rows the file is expected to hold, plus the rebuild's share */
  total: number;
}

/**
 * How much of the import is done, in rows. The file's rows are known only once it is read:
 * until then they are expected (`rowsExpected`: from the lines per byte the run counted
 * as the bytes came in; rows differ in length, a file's rows are alike). Done are the rows
 * written, not read: reading runs ahead of the writes. Null before the first row, or when
 * the file's size is unknown.
 */
export function importWork(job: ImportProgressFields): ImportWork | null {
  const total = job.bytesTotal;
  if (!total || total <= 0 || job.bytesRead <= 0 || job.rowsRead <= 0) return null;
  // a job written before rowsExpected: rows read per byte read (runs ahead of the rows parsed)
  const expected = job.rowsExpected ?? (job.bytesRead >= total ? job.rowsRead : (job.rowsRead * total) / job.bytesRead);
  const rows = Math.max(job.rowsRead, expected);
  const index = rows * indexShare(job);
  if (job.phase === 'index') return { done: rows + index * rebuildDone(job), total: rows + index };
  return { done: Math.min(rows, job.rowsWritten + job.rejected), total: rows + index };
}

/** The rebuild's length as a share of the rows' time (INDEX_WORK_SHARE), by the kind of file. */
const indexShare = (job: ImportProgressFields) => (job.fileKind === 'valori' || job.fileKind === 'zone' ? INDEX_WORK_SHARE[job.fileKind] : 0);

/**
 * The share of the rebuild done, 0..1: its work (each province weighing its records in the
 * file plus an average province's: Roma's take longer than Isernia's), else its provinces for
 * a job written before the work was counted.
 */
export function rebuildDone(job: ImportProgressFields): number {
  if (job.indexWorkTotal) return Math.min(1, job.indexWorkDone / job.indexWorkTotal);
  return job.indexTotal ? Math.min(1, job.indexDone / job.indexTotal) : 0;
}

/**
 * Seconds left of the rebuild (phase 'index', from indexStartedAt): before any province is
 * done, the expected share of the rows' time less the time spent; then the share of its work
 * still to do, of its length, which weighs its own pace (time so far / work done) against the
 * expected length (at least the time spent) by the work done. On the national files the pace
 * of the first provinces alone was 22-41 % off (bench/omi-eta.ts), the expected share 6-16 %.
 * Null when the job does not say when the rebuild began.
 */
function rebuildSecondsLeft(job: ImportProgressFields, startedMs: number, updatedMs: number): number | null {
  const indexMs = job.indexStartedAt ? Date.parse(job.indexStartedAt) : Number.NaN;
  if (!Number.isFinite(indexMs) || indexMs < startedMs || updatedMs < indexMs) return null;
  const spent = updatedMs - indexMs;
  const done = rebuildDone(job);
  if (done >= 1) return 0;
  const expected = (indexMs - startedMs) * indexShare(job);
  // nothing done yet: the expected length less the time spent
  if (done <= 0) return Math.max(0, expected - spent) / 1000;
  // its pace alone says spent / done; weighed by the work done against the expected length
  const length = spent + (1 - done) * Math.max(expected, spent);
  return ((1 - done) * length) / 1000;
}

/** 0..99 while running: the share of the work done (importWork), else from the bytes read. */
export function importPercent(job: ImportProgressFields): number {
  const work = importWork(job);
  if (work) return Math.min(99, Math.floor((work.done / work.total) * 100));
  return job.bytesTotal ? Math.min(99, Math.floor((job.bytesRead / job.bytesTotal) * 100)) : 0;
}

/**
 * rows/s = rows written / (updatedAt - startedAt); time left = the work still to do
 * (importWork) at the pace of the work done so far; during the rebuild, its own time left
 * (rebuildSecondsLeft). Not at the pace of the last seconds:
 * on the national 2017/2 files (bench/omi-eta.ts, four runs) the write pace of the local
 * stack swings by half for tens of seconds, and a 10-s window followed each swing (largest
 * error in the rows phase from 20 %, six series: 16-57 %, against 6-42 % for the average).
 */
export function importSpeed(job: ImportProgressFields): ImportSpeed {
  const started = job.startedAt ? Date.parse(job.startedAt) : Number.NaN;
  const updated = Date.parse(job.updatedAt);
  const elapsedMs = updated - started;
  if (!Number.isFinite(elapsedMs) || elapsedMs < MIN_ELAPSED_MS || job.rowsRead <= 0) {
    return { rowsPerSecond: null, secondsLeft: null };
  }
  const seconds = elapsedMs / 1000;
  const rowsPerSecond = job.rowsWritten / seconds;
  if (job.phase === 'index') {
    const left = rebuildSecondsLeft(job, started, updated);
    if (left !== null) return { rowsPerSecond, secondsLeft: left };
  }
  const work = importWork(job);
  if (!work || work.done <= 0) return { rowsPerSecond, secondsLeft: null };
  return { rowsPerSecond, secondsLeft: Math.max(0, work.total - work.done) / (work.done / seconds) };
}

/** 1234.5 -> "1.235 righe al secondo"; 2.25 -> "2,3 righe al secondo" */
export function formatRowsPerSecond(rowsPerSecond: number): string {
  const value = rowsPerSecond >= 10 ? formatNumber(Math.round(rowsPerSecond)) : formatDecimal(Math.round(rowsPerSecond * 10) / 10);
  return `${value} ${value === '1' ? 'riga' : 'righe'} al secondo`;
}

/** 42 -> "42 s"; 125 -> "2 min 5 s"; 3720 -> "1 h 2 min" (whole seconds, rounded up) */
export function formatTimeLeft(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) {
    const rest = s % 60;
    return rest ? `${Math.floor(s / 60)} min ${rest} s` : `${s / 60} min`;
  }
  const minutes = Math.round(s / 60);
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} h`;
}

/** "tempo rimanente: circa 2 min 5 s"; under a second: "tempo rimanente: pochi istanti" */
export function formatTimeLeftPhrase(secondsLeft: number): string {
  return `tempo rimanente: ${secondsLeft < 1 ? 'pochi istanti' : `circa ${formatTimeLeft(secondsLeft)}`}`;
}

/**
 * importSpeed as of `sinceBeatSeconds` after the job's heartbeat (the page's own clock since
 * that heartbeat arrived): the time left counts down between heartbeats, a few seconds apart.
 */
export function importSpeedNow(job: ImportProgressFields, sinceBeatSeconds = 0): ImportSpeed {
  const speed = importSpeed(job);
  return speed.secondsLeft === null ? speed : { ...speed, secondsLeft: Math.max(0, speed.secondsLeft - Math.max(0, sinceBeatSeconds)) };
}

/**
 * The line under the progress bar: "1.235 righe al secondo · tempo rimanente: circa 2 min 5 s"
 * (rows written); during the index rebuild the time left only; `sinceBeatSeconds` after the
 * heartbeat (importSpeedNow). Null when nothing is known.
 */
export function describeImportSpeed(job: ImportProgressFields, sinceBeatSeconds = 0): string | null {
  const { rowsPerSecond, secondsLeft } = importSpeedNow(job, sinceBeatSeconds);
  if (rowsPerSecond === null) return null;
  if (job.phase === 'index') return secondsLeft === null ? null : formatTimeLeftPhrase(secondsLeft);
  const rate = formatRowsPerSecond(rowsPerSecond);
  return secondsLeft === null ? rate : `${rate} · ${formatTimeLeftPhrase(secondsLeft)}`;
}
