import { sendReminders, type ReminderSummary } from './reminders';
import { trigger } from '../lib/observability';
import { scheduledNow } from '../lib/schedule';

/**
 * Scheduled (rate(1 day)): the daily reminders and the deletion of expired link tokens
 * (reminders.ts), as of the event's `detail.now` when given (lib/schedule.ts).
 */
export const handler = trigger('sendReminders', async (event: unknown = {}): Promise<ReminderSummary> => sendReminders({ now: scheduledNow(event) }));
