import * as z from 'zod';

/**
 * The time a scheduled run acts as of: the real clock; an event with `detail.now` (ISO) runs
 * as of that time instead, for the tests and `npm run invoke` (EventBridge sends `detail: {}`).
 */
const eventSchema = z.looseObject({
  detail: z.looseObject({ now: z.iso.datetime({ offset: true, error: 'detail.now deve essere una data ISO 8601' }).optional() }).optional(),
});

export function scheduledNow(event: unknown): Date {
  const parsed = eventSchema.safeParse(event ?? {});
  if (!parsed.success) throw new Error(`Evento non valido: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const at = parsed.data.detail?.now;
  return at ? new Date(at) : new Date();
}
