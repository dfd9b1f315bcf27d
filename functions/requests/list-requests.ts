import type { RequestList } from '../domain/requests';
import { route } from '../lib/http';
import { listRequests } from '../model/request-list';
import { listQuery } from './schemas';

/**
 * GET /admin/properties?q=&state=&source=&from=&to=&sort=&cursor=&limit=: the requests
 * (50 a page, at most 100) newest first, oldest first or by desired amount; narrowed by a
 * search `q` (name, e-mail, comune, address, phone or request code; at least 2 characters,
 * case and accents ignored), a lifecycle state, a source (or `none`) and creation days in
 * Italy; the total of the matching requests and an opaque cursor for the next page.
 */
export const handler = route('listRequests', { query: listQuery }, async ({ query }): Promise<RequestList> => listRequests(query));
