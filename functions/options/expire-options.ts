import { trigger } from '../lib/observability';
import { scheduledNow } from '../lib/schedule';
import { expireOptions, type ExpiryRun } from './lifecycle';

/**
 * Scheduled (rate(1 day)): options stored before the lifecycle get their state, running options
 * past their expiry day become 'Scaduta', as of the event's `detail.now` when given.
 */
export const handler = trigger('expireOptions', async (event: unknown = {}): Promise<ExpiryRun> => expireOptions(scheduledNow(event)));
