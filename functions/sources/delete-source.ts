import { route } from '../lib/http';
import { sourceParams } from './schemas';
import { deleteSource } from '../model/source';

/** DELETE /sources/{sourceId}: 204, or 404 'Fonte non trovata'. */
export const handler = route('deleteSource', { params: sourceParams }, async ({ params }) => {
  await deleteSource(params.sourceId);
});
