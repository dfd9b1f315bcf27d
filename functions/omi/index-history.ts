import type { Context } from 'aws-lambda';
import { logger } from '../lib/logger';
import { trigger } from '../lib/observability';
import { indexZoneHistories, type HistoryIndexRun } from '../model/omi/history-index';

/**
 * Scheduled (rate(1 day)): OMI items stored before the zones' history index get its keys, one
 * semester and province at a time, until less than a minute of the invocation is left (the
 * next day goes on). Nothing to do, once every semester is indexed: one Query of the manifests.
 */
export const handler = trigger('indexOmiHistory', async (_event: unknown, context?: Context): Promise<HistoryIndexRun> => {
  const run = await indexZoneHistories(() => context?.getRemainingTimeInMillis() ?? Infinity);
  logger.info('OMI history index run', { ...run });
  return run;
});
