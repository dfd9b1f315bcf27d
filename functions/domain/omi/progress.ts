/**
 * Speed and time left of a running OMI import, from the job the page polls
 * (GET /omi/imports/{jobId}). Pure: the server's clock only (startedAt..updatedAt, the
 * job's heartbeat), so the browser's clock never skews it.
 */
import { formatDecimal, formatNumber } from '../format';
import type { OmiJob } from './api';

export type ImportProgressFields = Pick<OmiJob, 'rowsRead' | 'startedAt' | 'updatedAt' | 'bytesRead' | 'bytesTotal'>;

export interface ImportSpeed {
  /** rows read per second so far; null until it can be measured */
  rowsPerSecond: number | null;
  /** seconds until the whole file is read at the pace so far; null when unknown */
  secondsLeft: number | null;
}

/** Below this much work the pace is noise: nothing is estimated. */
export const MIN_ELAPSED_MS = 1000;

/**
 * rows/s = rowsRead / (updatedAt - startedAt); time left = the bytes still to read at the
 * bytes/s so far (rows differ in length, bytes are what is known of the whole file).
 */
export function importSpeed(job: ImportProgressFields): ImportSpeed {
  const started = job.startedAt ? Date.parse(job.startedAt) : Number.NaN;
  const updated = Date.parse(job.updatedAt);
  const elapsedMs = updated - started;
  if (!Number.isFinite(elapsedMs) || elapsedMs < MIN_ELAPSED_MS || job.rowsRead <= 0) {
    return { rowsPerSecond: null, secondsLeft: null };
  }
  const seconds = elapsedMs / 1000;
  const rowsPerSecond = job.rowsRead / seconds;
  const total = job.bytesTotal;
  if (!total || total <= 0 || job.bytesRead <= 0) return { rowsPerSecond, secondsLeft: null };
  const remaining = Math.max(0, total - job.bytesRead);
  return { rowsPerSecond, secondsLeft: remaining / (job.bytesRead / seconds) };
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

/** The line under the progress bar: "1.235 righe al secondo · tempo rimanente: circa 2 min 5 s", or null. */
export function describeImportSpeed(job: ImportProgressFields): string | null {
  const { rowsPerSecond, secondsLeft } = importSpeed(job);
  if (rowsPerSecond === null) return null;
  const rate = formatRowsPerSecond(rowsPerSecond);
  return secondsLeft === null ? rate : `${rate} · ${formatTimeLeftPhrase(secondsLeft)}`;
}
