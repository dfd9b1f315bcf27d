import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { cognito } from '../lib/aws/cognito';
import { config } from '../lib/config';
import { trigger } from '../lib/observability';
import { MFA_CLAIM, type MfaClaim } from '../domain/admin-security';

/**
 * Cognito pre token generation: the ID token says whether the account has TOTP MFA
 * (claim `mfa`: 'totp'), which admin routes require (functions/lib/http.ts). With MFA
 * OPTIONAL, Cognito asks for the TOTP code at every sign-in of an account that has it, so
 * a token of such an account was issued after the second factor. Only admins are looked up
 * (on AWS the event lists the groups; the local emulator does not, so it always looks).
 */
export const handler = trigger('preTokenGeneration', async (event: PreTokenGenerationTriggerEvent): Promise<PreTokenGenerationTriggerEvent> => {
  const groups = event.request.groupConfiguration?.groupsToOverride;
  if (groups && !groups.includes('admin')) return event;
  const mfa = await mfaOf(event);
  if (mfa) {
    event.response = {
      ...event.response,
      claimsOverrideDetails: {
        ...event.response?.claimsOverrideDetails,
        claimsToAddOrOverride: { ...event.response?.claimsOverrideDetails?.claimsToAddOrOverride, [MFA_CLAIM]: mfa },
      },
    };
  }
  return event;
});

async function mfaOf(event: PreTokenGenerationTriggerEvent): Promise<MfaClaim | undefined> {
  const user = await cognito().send(new AdminGetUserCommand({ UserPoolId: event.userPoolId, Username: event.userName }));
  if (user.UserMFASettingList?.includes('SOFTWARE_TOKEN_MFA')) return 'totp';
  const email = (event.request.userAttributes.email ?? '').toLowerCase();
  const exempt = (config().MFA_EXEMPT_EMAILS ?? '').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);
  return email && exempt.includes(email) ? 'exempt' : undefined;
}
