/**
 * The cache key of the seller's property list (GET /seller/properties): the seller dashboard
 * reads it, the onboarding refreshes it after each step.
 */
export const sellerKeys = {
  properties: ['seller', 'properties'] as const,
};
