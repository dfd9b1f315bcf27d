import * as z from 'zod';
import type { ActivityPage } from '../domain/activity';
import { route } from '../lib/http';
import { activityFeed } from '../model/activity';

const query = z.object({ cursor: z.string({ error: 'Pagina non valida: ricarica la lista' }).max(600, 'Pagina non valida: ricarica la lista').optional() });

/** GET /admin/activity?cursor=: the admins' "Attività" feed, newest first, 50 entries a page. */
export const handler = route('listActivity', { query }, async ({ query }): Promise<ActivityPage> => activityFeed(query.cursor));
