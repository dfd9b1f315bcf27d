import type { SellerKycState } from '../domain/onboarding/kyc';
import { route } from '../lib/http';
import { propertyParams } from '../model/property';
import { ownKycState } from './state';

/** GET /seller/properties/{propertyId}/onboarding: the state of /seller-kyc for the caller's own property, with no link needed. */
export const handler = route('getOwnKycState', { params: propertyParams }, async ({ params, caller }): Promise<SellerKycState> => ownKycState(params.propertyId, caller));
