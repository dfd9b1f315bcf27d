import { kycQuerySchema, type KycState } from '../domain/onboarding/kyc';
import { route } from '../lib/http';
import { kycState } from './state';

/** GET /seller/kyc?token={token}: the state of /seller-kyc (links an unowned property to the caller). */
export const handler = route('getKycState', { query: kycQuerySchema }, async ({ query, caller }): Promise<KycState> => kycState(query.token, caller));
