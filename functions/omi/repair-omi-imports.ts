import type { Context } from 'aws-lambda';
import { logger } from '../lib/logger';
import { trigger } from '../lib/observability';
import { repairAbandonedImports, type ImportRepair } from './repair-imports';

/**
 * Scheduled (rate(15 minutes)): the imports that died for good are ended and their provinces
 * rebuilt from the table (repair-imports.ts), so an admin sees a dead import failed, and
 * valuations use the comune digests and their cache again, within a quarter of an hour rather
 * than the next day. Nothing to do, the usual case: one Query of the recent jobs and one of the
 * manifests.
 */
export const handler = trigger('repairOmiImports', async (_event: unknown, context?: Context): Promise<ImportRepair> => {
  const repair = await repairAbandonedImports(() => context?.getRemainingTimeInMillis() ?? Infinity);
  if (repair.abandoned || repair.rebuilt || repair.pending) logger.info('OMI imports repaired', { ...repair });
  return repair;
});
