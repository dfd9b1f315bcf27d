import type { Context } from 'aws-lambda';
import { logger } from '../lib/logger';
import { trigger } from '../lib/observability';
import { digestPending } from '../model/omi/comune-digest';
import { indexZoneHistories, type HistoryIndexRun } from '../model/omi/history-index';
import { repairAbandonedImports, type ImportRepair } from './repair-imports';

/**
 * Scheduled (rate(1 day)): first the imports that died for good are ended and their provinces
 * rebuilt from the table (repair-imports.ts); then OMI items stored before the zones' history index get its keys, and
 * a semester and province without comune digests gets them (model/omi/comune-digest.ts), one
 * semester and province at a time, until less than a minute of the invocation is left (the
 * next day goes on). Nothing to do, once every semester is indexed: one Query of the manifests each.
 */
export const handler = trigger(
  'indexOmiHistory',
  async (_event: unknown, context?: Context): Promise<HistoryIndexRun & { digests: { built: number; pending: number }; repair: ImportRepair }> => {
    const timeLeft = () => context?.getRemainingTimeInMillis() ?? Infinity;
    const repair = await repairAbandonedImports(timeLeft);
    const run = await indexZoneHistories(timeLeft);
    const digests = await digestPending(timeLeft);
    logger.info('OMI history index run', { ...run, digests, repair });
    return { ...run, digests, repair };
  },
);
