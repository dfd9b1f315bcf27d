import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { SELF_SIGNUP_USER_TYPES } from '../domain/roles';

/**
 * Cognito pre sign-up: only the self-service user types may sign up (nobody makes
 * themselves admin); the account is confirmed at once, as the spec's sign-up flow
 * expects ('Registrazione completata! / Puoi ora effettuare il login').
 */
export async function handler(event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> {
  if (event.triggerSource === 'PreSignUp_SignUp') {
    const userType = event.request.userAttributes['custom:user_type'];
    if (!userType || !(SELF_SIGNUP_USER_TYPES as readonly string[]).includes(userType)) {
      throw new Error('Tipo di utente non valido');
    }
    event.response.autoConfirmUser = true;
    event.response.autoVerifyEmail = true;
  }
  return event;
}
