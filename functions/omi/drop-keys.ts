/**
 * Object keys in the OMI drop bucket.
 * - `imports/{jobId}/{semester}/{fileName}`: a file uploaded from the import page;
 * - `clears/{jobId}.json`: a request to delete every OMI record (the same background
 *   function picks it up, so clearing needs no other trigger);
 * - anything else ending in .csv: a file dropped by hand (semester from its name or title).
 */
import { createHash } from 'node:crypto';
import { isSemester, semesterFromFileName } from '../domain/omi/semester';

export function importObjectKey(jobId: string, semester: string, fileName: string): string {
  return `imports/${jobId}/${semester}/${fileName}`;
}

export function clearObjectKey(jobId: string): string {
  return `clears/${jobId}.json`;
}

/** S3 event keys are URL-encoded with `+` for spaces. */
export function decodeEventKey(raw: string): string {
  return decodeURIComponent(raw.replace(/\+/g, ' '));
}

export type DropObject =
  | { kind: 'import'; jobId: string; semester: string | undefined; fileName: string }
  | { kind: 'clear'; jobId: string }
  | { kind: 'ignored'; reason: string };

const JOB_ID = /^[A-Za-z0-9-]{8,64}$/;

/**
 * `sequencer`: the S3 event's, the same for every delivery of one event and new for every new
 * PUT: a file dropped again at the same key with the same bytes (after "Cancella Tutti i Dati")
 * is a new job, while a redelivered event finds its job.
 */
export function classifyDropKey(key: string, etag = '', sequencer = ''): DropObject {
  const clear = /^clears\/([^/]+)\.json$/.exec(key);
  if (clear) return JOB_ID.test(clear[1]!) ? { kind: 'clear', jobId: clear[1]! } : { kind: 'ignored', reason: 'job non valido' };
  const upload = /^imports\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(key);
  if (upload && JOB_ID.test(upload[1]!)) {
    return { kind: 'import', jobId: upload[1]!, semester: isSemester(upload[2]!) ? upload[2]! : undefined, fileName: upload[3]! };
  }
  const fileName = key.split('/').pop() ?? key;
  if (!/\.csv$/i.test(fileName)) return { kind: 'ignored', reason: 'non è un file .csv' };
  const jobId = `drop-${createHash('sha256').update(`${key}|${etag}|${sequencer}`).digest('hex').slice(0, 24)}`;
  return { kind: 'import', jobId, semester: semesterFromFileName(fileName), fileName };
}
