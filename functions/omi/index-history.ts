import type { Context } from 'aws-lambda';
import { logger } from '../lib/logger';
import { trigger } from '../lib/observability';
import { digestPending } from '../model/omi/comune-digest';
import { indexZoneHistories, type HistoryIndexRun } from '../model/omi/history-index';

/**
 * Scheduled (rate(1 day)): OMI items stored before the zones' history index get its keys, and
 * a semester and province without comune digests gets them (model/omi/comune-digest.ts), one
 * semester and province at a time, until less than a minute of the invocation is left (the
 * next day goes on); a dirty province is left to repairOmiImports (every 15 minutes). Nothing
 * to do, once every semester is indexed: one Query of the manifests each.
 */
export const handler = trigger(
  'indexOmiHistory',
  async (_event: unknown, context?: Context): Promise<HistoryIndexRun & { digests: { built: number; pending: number } }> => {
    const timeLeft = () => context?.getRemainingTimeInMillis() ?? Infinity;
    const run = await indexZoneHistories(timeLeft);
    const digests = await digestPending(timeLeft);
    logger.info('OMI history index run', { ...run, digests });
    return { ...run, digests };
  },
);
