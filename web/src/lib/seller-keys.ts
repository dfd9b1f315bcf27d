/**
 * The cache key of the seller's property list (GET /seller/properties): the seller dashboard
 * reads it, the onboarding refreshes it after each step.
 */
export const sellerKeys = {
  properties: ['seller', 'properties'] as const,
};

/**
 * The seller's own pages of a property, opened by id (ownership, no link): the dashboard
 * links to them, and the e-mail's links go on to them after their first arrival.
 */
export const sellerPaths = {
  onboarding: (propertyId: string) => `/seller-kyc?property=${encodeURIComponent(propertyId)}`,
  availability: (propertyId: string) => `/seller-availability/${encodeURIComponent(propertyId)}`,
};
