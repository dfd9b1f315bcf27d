/**
 * POST /properties answer (spec 000 section 7): the stored property's id, when it was
 * created, its state. A retry with the same propertyDraftId answers the same.
 */
export interface SubmissionResult {
  propertyId: string;
  createdAt: string;
  status: 'submitted';
}
