import type { Caller } from '../lib/auth';
import { profileNames } from '../model/option';

/** The agent as the visit mails and entries name them: id, e-mail and the profile's full name. */
export async function agentOf(caller: Caller): Promise<{ userId: string; email: string; name: string }> {
  const name = (await profileNames([caller.userId])).get(caller.userId);
  return { userId: caller.userId, email: caller.email, name: name || caller.email };
}
