import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import '../support/context';

/**
 * One temporary folder per run for the cloud assemblies of the infra tests (a synth of the
 * product app holds a 22 MB CLI layer), removed when the run ends: the default app is shared
 * by a worker's files until the worker goes, and a worker thread ends without an `exit` event
 * its own cleanup could hang on.
 */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'opzione-casa-infra-'));
  project.provide('infraOutdir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
