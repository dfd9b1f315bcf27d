import { describe, expect, it } from 'vitest';
import {
  describeImportSpeed,
  formatRowsPerSecond,
  formatTimeLeft,
  formatTimeLeftPhrase,
  importSpeed,
  type ImportProgressFields,
} from '../../functions/domain/omi/progress';

const start = '2026-01-01T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(start) + seconds * 1000).toISOString();
const job = (patch: Partial<ImportProgressFields> = {}): ImportProgressFields => ({
  rowsRead: 0,
  startedAt: start,
  updatedAt: start,
  bytesRead: 0,
  bytesTotal: null,
  ...patch,
});

describe('importSpeed', () => {
  it('measures rows per second and the time left from the bytes still to read', () => {
    // 10.000 rows and 2 MB of 8 MB in 4 s: 2.500 rows/s, 6 MB left at 0,5 MB/s = 12 s
    const speed = importSpeed(job({ rowsRead: 10_000, updatedAt: at(4), bytesRead: 2_000_000, bytesTotal: 8_000_000 }));
    expect(speed.rowsPerSecond).toBe(2500);
    expect(speed.secondsLeft).toBeCloseTo(12, 10);
  });

  it('uses the server clock only (startedAt..updatedAt), whatever the time now', () => {
    const a = importSpeed(job({ rowsRead: 500, updatedAt: at(10), bytesRead: 100, bytesTotal: 200 }));
    expect(a).toEqual({ rowsPerSecond: 50, secondsLeft: 10 });
  });

  it('estimates nothing before the job started, before a second of work, or with no row read', () => {
    const none = { rowsPerSecond: null, secondsLeft: null };
    expect(importSpeed(job({ startedAt: null, rowsRead: 100, updatedAt: at(5) }))).toEqual(none);
    expect(importSpeed(job({ rowsRead: 100, updatedAt: at(0.5) }))).toEqual(none);
    expect(importSpeed(job({ rowsRead: 0, updatedAt: at(5), bytesRead: 10, bytesTotal: 100 }))).toEqual(none);
    expect(importSpeed(job({ rowsRead: 100, startedAt: 'not a date', updatedAt: at(5) }))).toEqual(none);
    // a heartbeat older than the start (clock trouble) is not a negative speed
    expect(importSpeed(job({ rowsRead: 100, startedAt: at(10), updatedAt: at(5) }))).toEqual(none);
  });

  it('gives the speed without a time left when the file size is unknown', () => {
    expect(importSpeed(job({ rowsRead: 300, updatedAt: at(3), bytesRead: 50, bytesTotal: null }))).toEqual({ rowsPerSecond: 100, secondsLeft: null });
    expect(importSpeed(job({ rowsRead: 300, updatedAt: at(3), bytesRead: 0, bytesTotal: 1000 }))).toEqual({ rowsPerSecond: 100, secondsLeft: null });
  });

  it('is at 0 s left once every byte is read (the last rows are being written)', () => {
    expect(importSpeed(job({ rowsRead: 300, updatedAt: at(3), bytesRead: 1200, bytesTotal: 1000 })).secondsLeft).toBe(0);
  });
});

describe('it-IT formats', () => {
  it('formats rows per second with Italian grouping and decimals', () => {
    expect(formatRowsPerSecond(12_345.6)).toBe('12.346 righe al secondo');
    expect(formatRowsPerSecond(2.25)).toBe('2,3 righe al secondo');
    expect(formatRowsPerSecond(1)).toBe('1 riga al secondo');
    expect(formatRowsPerSecond(0.4)).toBe('0,4 righe al secondo');
  });

  it('formats the time left in whole seconds, minutes and hours', () => {
    expect(formatTimeLeft(0.2)).toBe('1 s');
    expect(formatTimeLeft(41.2)).toBe('42 s');
    expect(formatTimeLeft(60)).toBe('1 min');
    expect(formatTimeLeft(125)).toBe('2 min 5 s');
    expect(formatTimeLeft(3600)).toBe('1 h');
    expect(formatTimeLeft(3720)).toBe('1 h 2 min');
    expect(formatTimeLeftPhrase(0.3)).toBe('tempo rimanente: pochi istanti');
    expect(formatTimeLeftPhrase(125)).toBe('tempo rimanente: circa 2 min 5 s');
  });

  it('describes a running import in one line', () => {
    expect(describeImportSpeed(job())).toBeNull();
    expect(describeImportSpeed(job({ rowsRead: 10_000, updatedAt: at(4) }))).toBe('2.500 righe al secondo');
    expect(describeImportSpeed(job({ rowsRead: 10_000, updatedAt: at(4), bytesRead: 2_000_000, bytesTotal: 8_000_000 }))).toBe(
      '2.500 righe al secondo · tempo rimanente: circa 12 s',
    );
  });
});
