import * as z from 'zod';
import { route } from '../lib/http';
import type { LinkKindAnswer } from '../domain/links';
import { linkTokenKind } from '../model/tokens';

const params = z.object({ token: z.string({ error: 'Link non valido' }).max(200, 'Link non valido') });

/** GET /links/{token}: public, answers the kind, and a co-owner's link its invited address (one BatchGet of the three token items, model/tokens.ts; functions/domain/links.ts). */
export const handler = route('getLinkKind', { params }, async ({ params }): Promise<LinkKindAnswer> => linkTokenKind(params.token));
