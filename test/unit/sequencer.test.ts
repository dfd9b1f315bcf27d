import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { longestFirst, recordedFileSeconds } from '../support/sequencer';

describe('test file order (longest recorded first)', () => {
  const seconds = new Map([
    ['test/e2e/kyc.test.ts', 96.4],
    ['test/e2e/a11y.test.ts', 140],
    ['test/e2e/voice-widget.test.ts', 5.5],
    ['test/e2e/users.test.ts', 23.7],
  ]);
  const id = (f: string) => f;

  it('starts the files that took longest first', () => {
    const files = ['test/e2e/users.test.ts', 'test/e2e/voice-widget.test.ts', 'test/e2e/kyc.test.ts', 'test/e2e/a11y.test.ts'];
    expect(longestFirst(files, id, seconds)).toEqual(['test/e2e/a11y.test.ts', 'test/e2e/kyc.test.ts', 'test/e2e/users.test.ts', 'test/e2e/voice-widget.test.ts']);
  });

  it('starts a file with no recorded time before the timed ones, and keeps the given order among equals', () => {
    const files = ['test/e2e/voice-widget.test.ts', 'test/e2e/new-b.test.ts', 'test/e2e/a11y.test.ts', 'test/e2e/new-a.test.ts'];
    expect(longestFirst(files, id, seconds)).toEqual(['test/e2e/new-b.test.ts', 'test/e2e/new-a.test.ts', 'test/e2e/a11y.test.ts', 'test/e2e/voice-widget.test.ts']);
    expect(longestFirst(files, id, new Map())).toEqual(files);
  });

  it('reads the times bench:suite records, and none from a missing or unreadable file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sequencer-'));
    try {
      const file = path.join(dir, 'suite.json');
      writeFileSync(file, JSON.stringify({ totalS: 900, fileSeconds: { 'test/e2e/kyc.test.ts': 96.4 } }));
      expect([...recordedFileSeconds(file)]).toEqual([['test/e2e/kyc.test.ts', 96.4]]);
      writeFileSync(file, '{ not json');
      expect(recordedFileSeconds(file).size).toBe(0);
      expect(recordedFileSeconds(path.join(dir, 'missing.json')).size).toBe(0);
      writeFileSync(file, JSON.stringify({ totalS: 900 }));
      expect(recordedFileSeconds(file).size).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
