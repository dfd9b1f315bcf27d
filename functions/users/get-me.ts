import type { Me } from '../domain/profile';
import { agentStatusOf } from '../domain/users';
import { route } from '../lib/http';
import { NotFoundError } from '../lib/errors';
import { getProfile } from '../model/profile';

/** The caller's own profile, groups and (agents) approval state; the SPA uses it for the post-sign-in redirect and guards. */
export const handler = route('getMe', {}, async ({ caller }): Promise<Me> => {
  const me = caller;
  const profile = await getProfile(me.userId);
  if (!profile) throw new NotFoundError('Profilo non trovato');
  return {
    ...profile,
    agentStatus: agentStatusOf(profile),
    groups: me.groups,
    // an admin whose token has no MFA: the SPA asks them to set up TOTP (admin routes refuse them)
    mfaRequired: me.groups.includes('admin') && !me.mfa,
  };
});
