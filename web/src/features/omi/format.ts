import { formatDecimal, formatEuro, formatNumber } from '@domain/format';

export { formatNumber };

/** 11100 -> "11.100 €"; a missing value -> a dash. */
export function euroOrDash(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : formatEuro(value);
}

/** 19_234_567 -> "18,3 MB" */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} byte`;
  if (bytes < 1024 * 1024) return `${formatNumber(Math.round(bytes / 1024))} KB`;
  return `${formatDecimal(Math.round((bytes / (1024 * 1024)) * 10) / 10)} MB`;
}

/** 2345 -> "2,3 s"; 75000 -> "1 min 15 s" */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${formatDecimal(Math.max(0.1, Math.round(ms / 100) / 10))} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}
