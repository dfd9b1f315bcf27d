import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { createProfile } from '../model/profile';
import { SELF_SIGNUP_USER_TYPES, type UserType } from '../domain/roles';
import { logger } from '../lib/logger';
import { trigger } from '../lib/observability';

/**
 * Cognito post confirmation: creates the profile (full_name, user_type, phone) and adds the
 * group. A seller joins `seller` at once; an agente_immobiliare gets agentStatus 'pending'
 * and no group until an admin approves the account (Gestione Utenti).
 */
export const handler = trigger('postConfirmation', async (event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> => {
  if (event.triggerSource !== 'PostConfirmation_ConfirmSignUp') return event;
  const attrs = event.request.userAttributes;
  const rawType = attrs['custom:user_type'] ?? 'venditore';
  const userType: UserType = (SELF_SIGNUP_USER_TYPES as readonly string[]).includes(rawType)
    ? (rawType as UserType)
    : 'venditore';
  await createProfile({
    userId: attrs.sub!,
    email: attrs.email ?? '',
    fullName: (attrs.name ?? '').trim(),
    userType,
    phone: attrs.phone_number?.trim() || null,
    userPoolId: event.userPoolId,
    username: event.userName,
  });
  logger.info('Profile created', { userId: attrs.sub, userType });
  return event;
});
