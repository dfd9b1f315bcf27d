import * as z from 'zod';
import { sendReminders, type ReminderSummary } from './reminders';
import { trigger } from '../lib/observability';

/**
 * Scheduled (rate(1 day)): the daily reminders and the deletion of expired link tokens
 * (reminders.ts). The run's time is the real clock; an event with `detail.now` (ISO) runs
 * as of that time instead, for the tests and `npm run invoke` (EventBridge sends `detail: {}`).
 */
const eventSchema = z.looseObject({
  detail: z.looseObject({ now: z.iso.datetime({ offset: true, error: 'detail.now deve essere una data ISO 8601' }).optional() }).optional(),
});

export const handler = trigger('sendReminders', async (event: unknown = {}): Promise<ReminderSummary> => {
  const parsed = eventSchema.safeParse(event ?? {});
  if (!parsed.success) throw new Error(`Evento non valido: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const at = parsed.data.detail?.now;
  return sendReminders({ now: at ? new Date(at) : new Date() });
});
