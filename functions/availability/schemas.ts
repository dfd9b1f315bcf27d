import * as z from 'zod';
import { AVAILABILITY_MESSAGES, availabilitySaveSchema, todayInRome } from '../domain/availability';

/** The link's token; a malformed one is the same 404 as an unknown one (openLink). */
export const tokenParams = z.object({
  token: z.string({ error: AVAILABILITY_MESSAGES.invalidLink }).max(200, AVAILABILITY_MESSAGES.invalidLink),
});

/** The save's body; "past" is decided by the server's clock in Europe/Rome at each request. */
export const saveBody = availabilitySaveSchema({ today: () => todayInRome() });
