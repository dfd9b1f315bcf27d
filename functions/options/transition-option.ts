import { optionTransitionSchema, type OptionTransitionResult } from '../domain/review/schemas';
import { actorOf } from '../lib/auth';
import { route } from '../lib/http';
import { propertyParams } from '../model/property';
import { applyAdminAction } from './lifecycle';

/** POST /admin/options/{propertyId}/transitions {action: publish|withdraw|exercise|cancel, reason}: 409 when the state does not allow it. */
export const handler = route(
  'transitionOption',
  { body: optionTransitionSchema, params: propertyParams },
  async ({ body, params, caller }): Promise<OptionTransitionResult> => applyAdminAction(params.propertyId, body.action, body.reason, actorOf(caller, 'admin')),
);
