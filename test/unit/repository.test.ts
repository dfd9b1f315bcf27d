/**
 * The repository stands alone: a clone has nothing beside it, so no tracked file may point
 * outside it (a sibling folder, an absolute path of some machine).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);

// written in pieces so this file does not match itself
const SIBLING = ['..', 'sha' + 'red'].join('/');
const FORBIDDEN: { what: string; test: (text: string) => boolean }[] = [
  { what: `a sibling folder (${SIBLING})`, test: (t) => t.includes(SIBLING) },
  // a checkout directly in the system's temporary folder (git clone . /tmp/x) says nothing about this machine: tests write under it
  { what: 'the parent folder of this checkout', test: (t) => t.includes(`${path.dirname(root)}/`) && !['/', os.tmpdir()].includes(path.dirname(root)) },
  ...['work', 'home', 'Users', 'root'].map((dir) => ({
    what: `an absolute path under /${dir}/`,
    test: (t: string) => new RegExp(`(^|[\\s'"\`(=:])/${dir}/[\\w.-]`).test(t),
  })),
];

describe('the repository stands alone', () => {
  it('tracks files (sanity)', () => {
    expect(tracked).toContain('package.json');
    expect(tracked.length).toBeGreaterThan(50);
  });

  it('no tracked text file names a path outside the repository', () => {
    const found: string[] = [];
    for (const file of tracked) {
      if (file === 'package-lock.json') continue;
      const bytes = readFileSync(path.join(root, file));
      if (bytes.subarray(0, 8000).includes(0)) continue; // binary
      const lines = bytes.toString('utf8').split('\n');
      lines.forEach((line, i) => {
        for (const f of FORBIDDEN) if (f.test(line)) found.push(`${file}:${i + 1}: ${f.what}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(found).toEqual([]);
  });
});
