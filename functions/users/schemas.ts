/** zod schemas of the /users routes, with the spec's Italian messages (functions/domain/users.ts). */
import * as z from 'zod';
import { agentDecisionInput, updateRoleInput, updateUserInput, USER_MESSAGES } from '../domain/users';

export const updateUserBody = updateUserInput;
export const updateRoleBody = updateRoleInput;
export const agentDecisionBody = agentDecisionInput;

/** The path parameter; an id no user has is answered 404 by the use case. */
export const userParams = z.object({ userId: z.string({ error: USER_MESSAGES.notFound }).min(1, USER_MESSAGES.notFound).max(128, USER_MESSAGES.notFound) });
