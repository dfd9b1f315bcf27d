import * as z from 'zod';
import { REVIEW_MESSAGES } from '../domain/review/rules';

/** The path parameter; an unknown id is a missing property (404) for the use case. */
export const propertyParams = z.object({
  propertyId: z.string({ error: REVIEW_MESSAGES.propertyNotFound }).min(1, REVIEW_MESSAGES.propertyNotFound).max(100, REVIEW_MESSAGES.propertyNotFound),
});
