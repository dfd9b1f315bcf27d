import { route } from '../lib/http';
import { getProfile } from './profiles';
import { NotFoundError } from '../lib/errors';

/** The caller's own profile and groups; the SPA uses it for the post-sign-in redirect and guards. */
export const handler = route('getMe', {}, async ({ caller }) => {
  const me = caller!;
  const profile = await getProfile(me.userId);
  if (!profile) throw new NotFoundError('Profilo non trovato');
  return { ...profile, groups: me.groups };
});
