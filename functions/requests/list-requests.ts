import type { RequestList } from '../domain/requests';
import { route } from '../lib/http';
import { listRequests } from '../model/request-list';
import { listQuery } from './schemas';

/**
 * GET /admin/properties?q=&cursor=&limit=: the requests newest first (50 a page, at most
 * 100), the total matching `q` (name, e-mail or comune; at least 2 characters, case and
 * accents ignored) and an opaque cursor for the next page.
 */
export const handler = route('listRequests', { query: listQuery }, async ({ query }): Promise<RequestList> => listRequests(query));
