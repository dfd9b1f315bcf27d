import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { SELF_SIGNUP_USER_TYPES } from '../domain/roles';
import { trigger } from '../lib/observability';

/**
 * Cognito pre sign-up: only the self-service user types may sign up (nobody makes
 * themselves admin). The account is NOT confirmed here: Cognito e-mails a confirmation
 * code and the SPA asks for it (ConfirmSignUp), so the e-mail's ownership is proven
 * before the profile exists (post-confirmation.ts). Demo accounts are made with
 * AdminCreateUser and never pass through here.
 */
export const handler = trigger('preSignUp', async (event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> => {
  if (event.triggerSource === 'PreSignUp_SignUp') {
    const userType = event.request.userAttributes['custom:user_type'];
    if (!userType || !(SELF_SIGNUP_USER_TYPES as readonly string[]).includes(userType)) {
      throw new Error('Tipo di utente non valido');
    }
    event.response.autoConfirmUser = false;
    event.response.autoVerifyEmail = false;
  }
  return event;
});
