import { describe, expect, it } from 'vitest';
import {
  describeImportSpeed,
  formatRowsPerSecond,
  formatTimeLeft,
  formatTimeLeftPhrase,
  importPercent,
  importSpeed,
  importSpeedNow,
  importWork,
  INDEX_WORK_SHARE,
  rebuildDone,
  type ImportProgressFields,
} from '../../functions/domain/omi/progress';

const start = '2026-01-01T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(start) + seconds * 1000).toISOString();
const job = (patch: Partial<ImportProgressFields> = {}): ImportProgressFields => ({
  rowsRead: 0,
  rowsWritten: 0,
  rowsExpected: null,
  rejected: 0,
  startedAt: start,
  updatedAt: start,
  bytesRead: 0,
  bytesTotal: null,
  // the rows alone (each kind's rebuild is tested on its own)
  fileKind: null,
  phase: 'rows',
  indexDone: 0,
  indexTotal: null,
  indexStartedAt: null,
  indexWorkDone: 0,
  indexWorkTotal: null,
  ...patch,
});

describe('importSpeed', () => {
  it('measures rows written per second and the time left from the rows still to write', () => {
    // 2 MB of 8 MB read: 10.000 rows read, so 40.000 expected; 8.000 written in 4 s = 2.000 rows/s,
    // 32.000 left at 2.000 rows/s = 16 s
    const speed = importSpeed(job({ rowsRead: 10_000, rowsWritten: 8_000, updatedAt: at(4), bytesRead: 2_000_000, bytesTotal: 8_000_000 }));
    expect(speed.rowsPerSecond).toBe(2000);
    expect(speed.secondsLeft).toBeCloseTo(16, 10);
  });

  it("takes the run's expected rows over rows read per byte read, which the stream's buffers skew", () => {
    // a ZONE file on disk: 1,2 MB of 3,6 MB entered the parser, 1.225 rows parsed, 800 written in 10 s;
    // the run counted 9.100 line feeds in those bytes: 27.300 rows expected, not 3.675
    const lagging = { rowsRead: 1225, rowsWritten: 800, updatedAt: at(10), bytesRead: 1_200_000, bytesTotal: 3_600_000 };
    expect(importWork(job(lagging))).toEqual({ done: 800, total: 3675 });
    expect(importWork(job({ ...lagging, rowsExpected: 27_300 }))).toEqual({ done: 800, total: 27_300 });
    expect(importSpeed(job({ ...lagging, rowsExpected: 27_300 })).secondsLeft).toBeCloseTo(26_500 / 80, 10);
    expect(importPercent(job({ ...lagging, rowsExpected: 27_300 }))).toBe(2);
    // never fewer than the rows already read
    expect(importWork(job({ ...lagging, rowsExpected: 1000 }))!.total).toBe(1225);
  });

  it('counts rejected rows as done (they need no write), never more than expected', () => {
    const speed = importSpeed(job({ rowsRead: 1000, rowsWritten: 400, rejected: 100, updatedAt: at(5), bytesRead: 100, bytesTotal: 200 }));
    // 2.000 expected, 500 done in 5 s: 1.500 left at 100/s
    expect(speed.secondsLeft).toBeCloseTo(15, 10);
    expect(importWork(job({ rowsRead: 1000, rowsWritten: 990, rejected: 20, bytesRead: 200, bytesTotal: 200 }))).toEqual({ done: 1000, total: 1000 });
  });

  it('does not take reading for progress: all bytes read, rows still being written', () => {
    // the old estimate said 0 s ("pochi istanti") here; half the rows are still to write
    const speed = importSpeed(job({ rowsRead: 27_000, rowsWritten: 13_500, updatedAt: at(20), bytesRead: 5_000_000, bytesTotal: 5_000_000 }));
    expect(speed.secondsLeft).toBeCloseTo(20, 10);
    expect(importPercent(job({ rowsRead: 27_000, rowsWritten: 13_500, bytesRead: 5_000_000, bytesTotal: 5_000_000 }))).toBe(50);
  });

  it.each(['valori', 'zone'] as const)('a %s file counts the rebuild as work still to do, then as its own phase', (fileKind) => {
    const rows = { rowsRead: 1000, bytesRead: 1000, bytesTotal: 1000, fileKind };
    const index = 1000 * INDEX_WORK_SHARE[fileKind];
    expect(index).toBeGreaterThan(0);
    expect(importWork(job({ ...rows, rowsWritten: 1000 }))).toEqual({ done: 1000, total: 1000 + index });
    expect(importSpeed(job({ ...rows, rowsWritten: 1000, updatedAt: at(50) })).secondsLeft).toBeCloseTo((index * 50) / 1000, 10);
    const half = job({ ...rows, rowsWritten: 1000, phase: 'index', indexDone: 50, indexTotal: 100, updatedAt: at(52) });
    expect(importWork(half)).toEqual({ done: 1000 + index / 2, total: 1000 + index });
    expect(importSpeed(half).secondsLeft).toBeCloseTo((index / 2) / ((1000 + index / 2) / 52), 10);
    expect(importSpeed(job({ ...rows, rowsWritten: 1000, phase: 'index', indexDone: 100, indexTotal: 100, updatedAt: at(55) })).secondsLeft).toBe(0);
    expect(importPercent(job({ ...rows, rowsWritten: 1000, phase: 'index', indexDone: 100, indexTotal: 100 }))).toBe(99);
  });

  describe('during the rebuild, from the time it began', () => {
    // 10.000 rows of a VALORI file written in 50 s, then the rebuild of 4 provinces (work: 10.000 units, Roma half of them)
    const rows = { rowsRead: 10_000, rowsWritten: 10_000, bytesRead: 1000, bytesTotal: 1000, fileKind: 'valori' as const, phase: 'index' as const, indexTotal: 4, indexStartedAt: at(50), indexWorkTotal: 10_000 };
    const expected = 50 * INDEX_WORK_SHARE.valori;

    it('expects the share of the rows\' time at its start', () => {
      expect(importSpeed(job({ ...rows, updatedAt: at(50) })).secondsLeft).toBeCloseTo(expected, 10);
      // nothing done yet: it counts down, and never below nothing
      expect(importSpeed(job({ ...rows, updatedAt: at(52) })).secondsLeft).toBeCloseTo(expected - 2, 10);
      expect(importSpeed(job({ ...rows, updatedAt: at(50 + expected + 3) })).secondsLeft).toBe(0);
    });

    it('weighs its own pace by the work done, provinces weighing their records', () => {
      // half the work (Roma alone) in 10 s: a length of 20 s by its pace, `expected` by the rows' time, half each; half of it left
      const half = job({ ...rows, indexDone: 1, indexWorkDone: 5000, updatedAt: at(60) });
      expect(rebuildDone(half)).toBe(0.5);
      expect(importSpeed(half).secondsLeft).toBeCloseTo(0.5 * (0.5 * 20 + 0.5 * Math.max(expected, 10)), 10);
      // nine tenths in 18 s: nearly all by its pace (20 s)
      const most = job({ ...rows, indexDone: 3, indexWorkDone: 9000, updatedAt: at(68) });
      expect(importSpeed(most).secondsLeft).toBeCloseTo(0.1 * (0.9 * 20 + 0.1 * 18), 10);
      expect(importSpeed(job({ ...rows, indexDone: 4, indexWorkDone: 10_000, updatedAt: at(70) })).secondsLeft).toBe(0);
      // the bar: the rows, then the rebuild's work done
      expect(importPercent(half)).toBe(Math.floor(((10_000 + 10_000 * INDEX_WORK_SHARE.valori * 0.5) / (10_000 + 10_000 * INDEX_WORK_SHARE.valori)) * 100));
    });

    it('counts provinces for a job written before the work was counted', () => {
      expect(rebuildDone(job({ indexDone: 1, indexTotal: 4 }))).toBe(0.25);
      expect(rebuildDone(job({ indexDone: 5, indexTotal: 4 }))).toBe(1);
      expect(rebuildDone(job({ indexTotal: null }))).toBe(0);
    });

    it('ignores a start of the rebuild before the job\'s or after its heartbeat (clock trouble)', () => {
      const before = importSpeed(job({ ...rows, indexStartedAt: at(-1), updatedAt: at(50) })).secondsLeft;
      const after = importSpeed(job({ ...rows, indexStartedAt: at(60), updatedAt: at(50) })).secondsLeft;
      // the estimate from the rows' pace: the whole rebuild's share still to do
      expect(before).toBeCloseTo((10_000 * INDEX_WORK_SHARE.valori) / ((10_000) / 50), 10);
      expect(after).toBe(before);
    });
  });

  it('within 30 % of the truth on a steady import from 20 % on, where the old byte estimate was far off', () => {
    // a ZONE run: 100 rows/s written, reading runs 40 % ahead of the writes (until the end of the file), then the rebuild
    const total = 10_000;
    const bytesPerRow = 150;
    const rebuildSeconds = (total * INDEX_WORK_SHARE.zone) / 100;
    for (const t of [20, 40, 60, 80]) {
      const written = 100 * t;
      const read = Math.min(total, written * 1.4);
      const j = job({ rowsRead: read, rowsWritten: written, updatedAt: at(t), bytesRead: read * bytesPerRow, bytesTotal: total * bytesPerRow, fileKind: 'zone' });
      const truth = (total - written) / 100 + rebuildSeconds;
      expect(Math.abs(importSpeed(j).secondsLeft! - truth) / truth).toBeLessThan(0.3);
    }
  });

  it('uses the server clock only (startedAt..updatedAt), whatever the time now', () => {
    const a = importSpeed(job({ rowsRead: 500, rowsWritten: 500, updatedAt: at(10), bytesRead: 100, bytesTotal: 200 }));
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

  it('gives the speed without a time left when the file size is unknown or nothing is written yet', () => {
    expect(importSpeed(job({ rowsRead: 300, rowsWritten: 300, updatedAt: at(3), bytesRead: 50, bytesTotal: null }))).toEqual({ rowsPerSecond: 100, secondsLeft: null });
    expect(importSpeed(job({ rowsRead: 300, rowsWritten: 300, updatedAt: at(3), bytesRead: 0, bytesTotal: 1000 }))).toEqual({ rowsPerSecond: 100, secondsLeft: null });
    expect(importSpeed(job({ rowsRead: 300, rowsWritten: 0, updatedAt: at(3), bytesRead: 50, bytesTotal: 1000 }))).toEqual({ rowsPerSecond: 0, secondsLeft: null });
  });

  it('is at 0 s left once every row read is written and rebuilt', () => {
    const done = { rowsRead: 300, rowsWritten: 300, updatedAt: at(3), bytesRead: 1200, bytesTotal: 1000 };
    expect(importSpeed(job(done)).secondsLeft).toBe(0);
    expect(importSpeed(job({ ...done, fileKind: 'zone' })).secondsLeft).toBeGreaterThan(0);
    expect(importSpeed(job({ ...done, fileKind: 'zone', phase: 'index', indexDone: 3, indexTotal: 3 })).secondsLeft).toBe(0);
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
    expect(describeImportSpeed(job({ rowsRead: 10_000, rowsWritten: 10_000, updatedAt: at(4) }))).toBe('2.500 righe al secondo');
    expect(describeImportSpeed(job({ rowsRead: 10_000, rowsWritten: 10_000, updatedAt: at(4), bytesRead: 2_000_000, bytesTotal: 8_000_000 }))).toBe(
      '2.500 righe al secondo · tempo rimanente: circa 12 s',
    );
    expect(
      describeImportSpeed(job({ rowsRead: 1000, rowsWritten: 1000, bytesRead: 10, bytesTotal: 10, fileKind: 'valori', phase: 'index', indexDone: 0, indexTotal: 10, updatedAt: at(50) })),
    ).toBe('tempo rimanente: circa 9 s'); // the rebuild: 170 rows' worth (0.17 x 1,000) at the 20 rows/s so far
  });

  it('counts the time left down on the page between heartbeats, never below nothing', () => {
    const running = job({ rowsRead: 10_000, rowsWritten: 10_000, updatedAt: at(4), bytesRead: 2_000_000, bytesTotal: 8_000_000 });
    expect(importSpeedNow(running, 0)).toEqual(importSpeed(running));
    expect(importSpeedNow(running, 3)).toEqual({ rowsPerSecond: 2500, secondsLeft: 9 });
    expect(importSpeedNow(running, 30).secondsLeft).toBe(0);
    // a page clock behind the heartbeat (no negative time since it) changes nothing
    expect(importSpeedNow(running, -5).secondsLeft).toBe(12);
    expect(describeImportSpeed(running, 3)).toBe('2.500 righe al secondo · tempo rimanente: circa 9 s');
    expect(describeImportSpeed(running, 12)).toBe('2.500 righe al secondo · tempo rimanente: pochi istanti');
    expect(importSpeedNow(job(), 5)).toEqual({ rowsPerSecond: null, secondsLeft: null });
  });

  it('estimates at the pace of the whole run so far, from the rows written', () => {
    // 40,000 of 100,000 rows written in 20 s (2,000/s), read 1,000 ahead: 60,000 rows left at 2,000/s
    const running = { rowsRead: 41_000, rowsWritten: 40_000, rowsExpected: 100_000, bytesRead: 4_100_000, bytesTotal: 10_000_000, fileKind: null, phase: 'rows' as const, updatedAt: at(20) };
    expect(importSpeed(job(running))).toEqual({ rowsPerSecond: 2000, secondsLeft: 30 });
    // rejected rows need no write: they count as done
    expect(importSpeed(job({ ...running, rowsWritten: 30_000, rejected: 10_000 })).secondsLeft).toBe(30);
  });
});
