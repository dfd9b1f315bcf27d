import { trigger } from '../lib/observability';
import { scheduledNow } from '../lib/schedule';
import { remindTomorrowsVisits } from './visits';

/** Scheduled (rate(1 day)): tomorrow's booked visits remind their seller and agent, once, as of the event's `detail.now` when given. */
export const handler = trigger('remindVisits', async (event: unknown = {}) => remindTomorrowsVisits(scheduledNow(event)));
