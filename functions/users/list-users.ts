import type { UserList } from '../domain/users';
import { route } from '../lib/http';
import { listUsers } from '../model/user';

/** GET /users: every profile with role and agent approval state; pending agents first, then by name. */
export const handler = route('listUsers', {}, async (): Promise<UserList> => ({ items: await listUsers() }));
