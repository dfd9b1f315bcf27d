/** zod schemas of the /sources routes, with the spec's Italian messages. */
import * as z from 'zod';
import { createSourceInput, SOURCE_MESSAGES } from '../domain/sources';

export const createSourceBody = createSourceInput;

/** The path parameter; a malformed id is answered like a missing source (404) by the use case. */
export const sourceParams = z.object({ sourceId: z.string({ error: SOURCE_MESSAGES.notFound }) });
