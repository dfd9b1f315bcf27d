import { ValidationError } from '../lib/errors';
import { route } from '../lib/http';
import { logger } from '../lib/logger';
import { InvalidSignature, verifyStripeEvent, type StripeCheckoutSession, type StripeEvent } from '../lib/stripe';
import { AGENT_MESSAGES } from '../domain/agent-requests';
import { applyPaidSession, type WebhookOutcome } from './agent-payment';

const PAID_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/**
 * POST /payments/stripe/webhook (public: Stripe calls it, the signature is the check). The
 * signature is verified on the RAW body as API Gateway passed it (text, or base64 for a body
 * it treats as binary); a bad or missing signature is a 400 and changes nothing. A paid
 * Checkout session marks its request paid; a redelivery changes nothing.
 */
export const handler = route('stripeWebhook', {}, async ({ event }): Promise<{ received: true; outcome: WebhookOutcome }> => {
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64') : event.body) : '';
  const signature = event.headers?.['stripe-signature'] ?? '';
  let stripeEvent: StripeEvent;
  try {
    stripeEvent = await verifyStripeEvent(raw, signature);
  } catch (err) {
    if (!(err instanceof InvalidSignature)) throw err;
    logger.warn('Stripe webhook refused: bad signature', { reason: err.message });
    throw new ValidationError(AGENT_MESSAGES.signatureInvalid);
  }
  if (!PAID_EVENTS.has(stripeEvent.type)) return { received: true, outcome: 'ignored' };
  const outcome = await applyPaidSession(stripeEvent.data.object as StripeCheckoutSession);
  logger.info('Stripe webhook applied', { eventId: stripeEvent.id, type: stripeEvent.type, outcome });
  return { received: true, outcome };
});
