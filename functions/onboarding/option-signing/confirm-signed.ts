import { optionSignedSchema, type OptionSignedResult } from '../../domain/onboarding/kyc';
import { propertyParams } from '../../model/owned-property';
import { route } from '../../lib/http';
import { confirmSignedOption } from './option-signing';

/** POST /seller/properties/{propertyId}/option/signed: the uploaded signed copy signs the option (once). Owner only. */
export const handler = route(
  'confirmOptionSigned',
  { body: optionSignedSchema, params: propertyParams },
  async ({ body, params, caller }): Promise<OptionSignedResult> => confirmSignedOption(params.propertyId, caller.userId, body),
);
