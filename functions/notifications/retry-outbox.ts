import { logger } from '../lib/logger';
import { trigger } from '../lib/observability';
import { retryPendingOutbox } from '../model/outbox';

/**
 * Scheduled (rate(5 minutes)): sends the outbox mails still pending (lead notifications
 * whose first attempt failed), with a bounded number of attempts; see model/outbox.ts.
 */
export const handler = trigger('retryOutbox', async (): Promise<Record<string, number>> => {
  const counts = await retryPendingOutbox();
  if (counts.sent || counts.retry || counts.failed) logger.info('Outbox retry run', counts);
  return counts;
});
