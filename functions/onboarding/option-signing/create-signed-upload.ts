import { optionUploadSchema } from '../../domain/onboarding/kyc';
import type { PresignedUpload } from '../../domain/uploads';
import { propertyParams } from '../../model/owned-property';
import { route } from '../../lib/http';
import { createSignedOptionUpload } from './option-signing';

/** POST /seller/properties/{propertyId}/option/uploads: presigned POST of the signed option (pdf, jpg, jpeg, png; 20 MB). Owner only. */
export const handler = route(
  'createOptionUpload',
  { body: optionUploadSchema, params: propertyParams },
  async ({ body, params, caller }): Promise<PresignedUpload> => createSignedOptionUpload(params.propertyId, caller.userId, body),
);
