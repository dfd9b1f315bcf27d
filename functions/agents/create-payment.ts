import { route } from '../lib/http';
import { createCardPayment } from './agent-payment';
import { requestParams } from './schemas';

/** POST /agent/requests/{requestId}/payment: the Stripe Checkout URL of the caller's own request awaiting payment. */
export const handler = route('createAgentPayment', { params: requestParams }, async ({ caller, params }) =>
  createCardPayment(caller.userId, params.requestId),
);
