import type { OptionDocumentLink } from '../../domain/onboarding/kyc';
import { propertyParams } from '../../model/owned-property';
import { route } from '../../lib/http';
import { optionDocumentUrl } from './option-signing';

/** GET /seller/properties/{propertyId}/option/document: presigned GET of the option PDF. Owner only. */
export const handler = route(
  'getOptionDocument',
  { params: propertyParams },
  async ({ params, caller }): Promise<OptionDocumentLink> => optionDocumentUrl(params.propertyId, caller.userId),
);
