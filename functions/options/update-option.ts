import * as z from 'zod';
import { updateOptionSchema } from '../domain/review/schemas';
import { route } from '../lib/http';
import { actorOf } from '../lib/auth';
import { updateOption } from '../model/option';

const params = z.object({ propertyId: z.string({ error: 'Immobile non valido' }).min(1, 'Immobile non valido').max(100, 'Immobile non valido') });

/** PATCH /admin/options/{propertyId} {agentCommissionPercentage, salePricePercentage, minAgentCommissionPercentage}: the agents' terms, before assignment. */
export const handler = route('updateOption', { body: updateOptionSchema, params }, async ({ body, params, caller }) => updateOption(params.propertyId, body, actorOf(caller, 'admin')));
