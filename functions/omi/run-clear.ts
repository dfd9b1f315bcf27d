/**
 * "Cancella Tutti i Dati": deletes every OMI record, zone description, comune digest and listing index,
 * in the background, with progress on the job item. No Scan: the semester manifests name
 * every (semester, province) that ever received data (registered before the first write),
 * and gsi2 lists each one's keys. Import jobs (history) are kept.
 */
import { randomUUID } from 'node:crypto';
import { logger } from '../lib/logger';
import { dropDigestRefs, forEachDigestKeyOf } from '../model/omi/comune-digest';
import { deleteIndexParts } from '../model/omi/index-chunks';
import { claimJob, updateJob } from '../model/omi/jobs';
import { deleteSemesterManifest, forEachKeyOf, listSemesters } from '../model/omi/semesters';
import { OmiWriter } from '../model/omi/writer';
import { startHeartbeat, type Heartbeat } from './heartbeat';

export async function runClear(jobId: string): Promise<{ status: 'completed' | 'skipped'; deleted: number; durationMs: number }> {
  const started = Date.now();
  const runId = randomUUID();
  if (!(await claimJob(jobId, { runId, kind: 'clear' }))) {
    logger.info('OMI clear already done or running: event ignored', { jobId });
    return { status: 'skipped', deleted: 0, durationMs: 0 };
  }
  const writer = new OmiWriter({ concurrency: 16 });
  const digests = new OmiWriter({ concurrency: 4 });
  let heartbeat: Heartbeat | undefined;
  try {
    const manifests = await listSemesters();
    // zone-quotations items are counted in the index; zone descriptions are not: the total grows if met
    let total = manifests.reduce((s, m) => s + Object.values(m.index).reduce((t, r) => t + (r.zones ?? r.rows), 0), 0);
    let issued = 0;
    await updateJob(jobId, runId, { total, deleted: 0, progress: 0 });
    // progress and heartbeat every HEARTBEAT_MS, however fast the deletes go
    heartbeat = startHeartbeat(() =>
      updateJob(jobId, runId, { deleted: writer.stats.items, total, progress: Math.min(99, Math.floor((writer.stats.items / Math.max(1, total)) * 100)) }),
    );
    // no valuation reads the digests of what is being deleted
    for (const m of manifests) await dropDigestRefs(m.semester);
    for (const m of manifests) {
      for (const prov of m.provinces) {
        await forEachKeyOf(m.semester, prov, async (key) => {
          await writer.delete(key);
          issued++;
          if (issued > total) total = issued;
        });
      }
    }
    // the comune digests (every version) are no records of the files: not counted
    for (const m of manifests) for (const prov of m.provinces) await forEachDigestKeyOf(m.semester, prov, (key) => digests.delete(key));
    await Promise.all([writer.flush(), digests.flush()]);
    for (const m of manifests) {
      for (const [prov, ref] of Object.entries(m.index)) await deleteIndexParts(m.semester, prov, ref);
      await deleteSemesterManifest(m.semester);
    }
    const durationMs = Date.now() - started;
    await heartbeat.stop();
    await updateJob(jobId, runId, {
      status: 'completed',
      deleted: writer.stats.items,
      total: writer.stats.items,
      progress: 100,
      finishedAt: new Date().toISOString(),
      durationMs,
    });
    logger.info('OMI data cleared', { jobId, deleted: writer.stats.items, durationMs });
    return { status: 'completed', deleted: writer.stats.items, durationMs };
  } catch (err) {
    await Promise.all([writer.flush(), digests.flush()]).catch(() => undefined);
    await heartbeat?.stop();
    await updateJob(jobId, runId, {
      status: 'failed',
      error: `Errore durante la cancellazione dei dati: ${(err as Error).message}`,
      deleted: writer.stats.items,
      finishedAt: new Date().toISOString(),
      durationMs: Date.now() - started,
    }).catch(() => undefined);
    throw err;
  } finally {
    await heartbeat?.stop();
  }
}
