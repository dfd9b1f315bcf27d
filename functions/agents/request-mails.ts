import { logger } from '../lib/logger';
import { deliverOutbox } from '../model/outbox';

/**
 * Sends the agents' e-mails a request change has just stored in the outbox; one that fails
 * now stays pending for the scheduled retry (logged, never thrown).
 */
export async function deliverRequestMails(ids: readonly string[], context: Record<string, unknown>): Promise<void> {
  for (const id of ids) {
    try {
      await deliverOutbox(id);
    } catch (err) {
      logger.error('Agent request e-mail not sent now; the scheduled retry will send it', { ...context, outboxId: id, error: err as Error });
    }
  }
}
