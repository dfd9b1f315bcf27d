/**
 * The repair of imports that died for good (repairOmiImports, every 15 minutes). A run whose Lambda dies (timeout, memory)
 * and whose retries are exhausted leaves its job "running" with a silent heartbeat, and the
 * provinces it registered dirty: the admin's page would show it running forever, the data page
 * would read the table, valuations would skip the comune digests and, since `importing` is
 * global, their cache for every comune, and the history backfill would skip the province.
 *
 * When no job is alive (none has beaten for ABANDON_AFTER_MS, nor failed that recently while
 * still registered in a province, as a run Lambda retries is: nothing imports or clears, and
 * Lambda's usual retries of a failed run are past), each silent import ends failed
 * with the reason (abandonJob: only while it is still silent), and every dirty province of every
 * semester gets its digests and listing index rebuilt from what the table holds, as a run that
 * fails by itself does (run-import.ts rebuildFromTable), and is marked clean with its dead jobs'
 * registrations gone, only while those are exactly the registrations there (an import that
 * registered since is writing: the province stays dirty for it). A retry arriving later (Lambda
 * may hold an event for hours when short of capacity) takes the failed job over and registers
 * its provinces again; one that does so while the repair rebuilds finds its province marked
 * clean for the rest of its run (its job id is already registered there), and its own end
 * rebuilds digests and index again: valuations may read that province's previous digests
 * meanwhile, and the result converges.
 */
import { abandonJob, ABANDON_AFTER_MS, recentJobs } from '../model/omi/jobs';
import { rebuildComuneDigests } from '../model/omi/comune-digest';
import { writeIndexChunk } from '../model/omi/index-chunks';
import { listingFromTable, listSemesters, releaseAbandonedProvince } from '../model/omi/semesters';
import { randomUUID } from 'node:crypto';

export const ABANDONED_IMPORT_MESSAGE =
  "Importazione interrotta: l'elaborazione si è fermata prima della fine del file e non è ripartita. Le zone già scritte restano; ricarica il file per completarla.";

export interface ImportRepair {
  /** silent imports ended as failed */
  abandoned: number;
  /** (semester, province) pairs rebuilt from the table and marked clean */
  rebuilt: number;
  /** pairs left dirty: a job is beating, or no time was left (the next run goes on) */
  pending: number;
}

/** How many recent jobs are looked at: far more than run in a day. */
const JOBS_LOOKED_AT = 50;

export async function repairAbandonedImports(timeLeftMs: () => number = () => Infinity, now = Date.now()): Promise<ImportRepair> {
  const out: ImportRepair = { abandoned: 0, rebuilt: 0, pending: 0 };
  const jobs = await recentJobs(JOBS_LOOKED_AT);
  const running = jobs.filter((j) => j.status === 'running');
  const semesters = await listSemesters();
  const dirty = semesters.flatMap((m) => m.dirty.map((prov) => ({ manifest: m, prov })));
  // still registered in a province: a run that failed for good has released its provinces, one
  // that failed on an internal error has not (Lambda retries it, 1 then 2 minutes later)
  const registered = new Set(dirty.flatMap(({ manifest, prov }) => manifest.registrations[prov] ?? []));
  // a job beating, silent for less than ABANDON_AFTER_MS, or failed that recently and retried may be writing, or about to
  const alive = jobs.some(
    (j) => now - Date.parse(j.updatedAt) < ABANDON_AFTER_MS && (j.status === 'running' || (j.status === 'failed' && registered.has(j.id))),
  );
  if (alive) return { ...out, pending: dirty.length };

  for (const j of running) if (j.kind === 'import' && (await abandonJob(j.id, ABANDONED_IMPORT_MESSAGE, new Date(now)))) out.abandoned++;
  const version = randomUUID().slice(0, 8);
  for (const { manifest, prov } of dirty) {
    if (timeLeftMs() < 60_000) {
      out.pending++;
      continue;
    }
    await rebuildComuneDigests(manifest.semester, prov);
    await writeIndexChunk(manifest.semester, prov, await listingFromTable(manifest, prov), version);
    // clean only while the jobs that died are the ones registered there: one that registered since is writing
    if (await releaseAbandonedProvince(manifest, prov)) out.rebuilt++;
    else out.pending++;
  }
  return out;
}
