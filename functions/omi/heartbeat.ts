/**
 * The heartbeat of a running OMI job: the run that holds a job touches its item every
 * HEARTBEAT_MS (model/omi/jobs.ts updateJob), so a redelivered event takes the job over
 * only when the run stopped beating for STALE_AFTER_MS of model/omi/jobs.ts (its Lambda died).
 */
import { logger } from '../lib/logger';

/** How often a running job touches its item (startHeartbeat): well inside STALE_AFTER_MS. */
export const HEARTBEAT_MS = 5_000;

export interface Heartbeat {
  /** no beat after this resolves (it waits for one in flight) */
  stop(): Promise<void>;
}

/**
 * Calls `beat` every `everyMs` until stopped: a timer, not a row count, so a run whose
 * writes stall (a throttled table) or whose file arrives slowly still beats and is never
 * taken for dead. A beat never overlaps the previous one; a failed beat is logged (the
 * run's own next write reports a real problem). Stop it before the job's final update.
 */
export function startHeartbeat(beat: () => Promise<unknown>, everyMs = HEARTBEAT_MS): Heartbeat {
  let inFlight: Promise<void> | undefined;
  let stopped = false;
  const timer = setInterval(() => {
    if (inFlight || stopped) return;
    inFlight = beat()
      .then(
        () => undefined,
        (err: unknown) => logger.warn('OMI job heartbeat failed', { error: err as Error }),
      )
      .finally(() => {
        inFlight = undefined;
      });
  }, everyMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}

