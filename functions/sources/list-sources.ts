import type { SourceList } from '../domain/sources';
import { route } from '../lib/http';
import { listSources } from '../model/source';

/** GET /sources: every lead source, newest first, with how many requests each brought. */
export const handler = route('listSources', {}, async (): Promise<SourceList> => ({ items: await listSources() }));
