import type { IdentityReviewItem } from '../domain/identity';
import { route } from '../lib/http';
import { listIdentityReviews } from '../model/identity';

/**
 * GET /admin/identity-reviews: the identity checks waiting for an admin (similarity 60-70 %, or
 * not completed by the engine), oldest first, with the face photo and the document as
 * presigned GETs, the confidence and the document's data.
 */
export const handler = route('listIdentityReviews', {}, async (): Promise<{ reviews: IdentityReviewItem[] }> => ({ reviews: await listIdentityReviews() }));
