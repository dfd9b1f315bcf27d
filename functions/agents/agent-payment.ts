/**
 * Card payments of the agents' requests through Stripe Checkout: the session the agent pays on
 * (amount computed here from the stored request, never sent by the browser), and what a paid
 * session delivered by the webhook does. The bank transfer needs no call: an admin marks the
 * request paid once the money arrives (payments.ts recordPayment).
 */
import { config } from '../lib/config';
import { ConflictError, NotFoundError } from '../lib/errors';
import { logger } from '../lib/logger';
import { stripeClient, type StripeCheckoutSession } from '../lib/stripe';
import { formatEuroCents } from '../domain/format';
import { AGENT_MESSAGES, commissionAmountOf, paymentReference, toCents, type AgentPaymentLink } from '../domain/agent-requests';
import { readOption, requireRequestById, type Item } from '../model/agent-request';
import { saveCheckout } from '../model/agent-payment';
import { requestsPageUrl } from '../domain/agent-mail';
import { recordPayment } from './payments';

/**
 * POST /agent/requests/{requestId}/payment: a Checkout session for the caller's own request
 * awaiting payment; its URL is opened in a new tab. Same request, amount and day: the same
 * session (Stripe idempotency key), so a double click does not make two.
 */
export async function createCardPayment(agentId: string, requestId: string, now = new Date()): Promise<AgentPaymentLink> {
  const item = await requireRequestById(requestId);
  if (item.agentId !== agentId) throw new NotFoundError(AGENT_MESSAGES.requestNotFound);
  if (item.status !== 'payment_pending') throw new ConflictError(AGENT_MESSAGES.payOnlyApproved, 'NOT_AWAITING_PAYMENT');
  const stripe = await stripeClient();
  if (!stripe) throw new ConflictError(AGENT_MESSAGES.cardNotConfigured, 'CARD_NOT_CONFIGURED');
  const option = await readOption(String(item.propertyId));
  if (!option) throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
  if (typeof option.assignedAgentId === 'string' && option.assignedAgentId && option.assignedAgentId !== agentId) {
    throw new ConflictError(AGENT_MESSAGES.assignedToOther, 'OPTION_ASSIGNED');
  }

  const pct = Number(item.requestedCommissionPercentage);
  const optionAmount = Number(item.optionAmount);
  const amount = commissionAmountOf(optionAmount, pct);
  const reference = paymentReference(requestId);
  const place = item.propertyCity ? `${String(item.propertyAddress)}, ${String(item.propertyCity)}` : String(item.propertyAddress);
  const page = requestsPageUrl(config().APP_URL);
  const metadata = { requestId, propertyId: String(item.propertyId), agentId };
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'payment',
      locale: 'it',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'eur',
            unit_amount: toCents(amount),
            product_data: {
              name: `Provvigione opzione di acquisto - ${place}`.slice(0, 250),
              description: `${String(pct).replace('.', ',')}% di ${formatEuroCents(optionAmount)} - rif. ${reference}`,
            },
          },
        },
      ],
      client_reference_id: requestId,
      ...(typeof item.agentEmail === 'string' && item.agentEmail.includes('@') ? { customer_email: item.agentEmail } : {}),
      metadata,
      payment_intent_data: { metadata, description: reference },
      success_url: `${page}&pagamento=completato`,
      cancel_url: `${page}&pagamento=annullato`,
    },
    { idempotencyKey: `agentreq-${requestId}-${toCents(amount)}-${now.toISOString().slice(0, 10)}` },
  );
  if (!session.url) throw new Error(`Checkout session ${session.id} without url`);
  await saveCheckout(item, { id: session.id, url: session.url }, now);
  logger.info('Checkout session created', { requestId, sessionId: session.id, amountCents: toCents(amount) });
  return { url: session.url };
}

export type WebhookOutcome = 'paid' | 'already_paid' | 'ignored';

/**
 * A Checkout session Stripe reports as completed (or its delayed payment as succeeded): when
 * it is paid and matches a request (id, agent, property, amount), the request becomes paid.
 * Anything that cannot be applied is logged and acknowledged (Stripe would retry for days
 * otherwise): a payment for a request no longer awaiting it is for an operator to refund.
 */
export async function applyPaidSession(session: StripeCheckoutSession): Promise<WebhookOutcome> {
  if (session.payment_status !== 'paid') {
    logger.info('Checkout session not paid yet', { sessionId: session.id, paymentStatus: session.payment_status });
    return 'ignored';
  }
  const requestId = session.metadata?.requestId ?? session.client_reference_id ?? '';
  let item: Item;
  try {
    item = await requireRequestById(requestId);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    logger.error('Paid Checkout session for an unknown request', { sessionId: session.id, requestId });
    return 'ignored';
  }
  const expected = toCents(commissionAmountOf(Number(item.optionAmount), Number(item.requestedCommissionPercentage)));
  if (session.metadata?.agentId !== item.agentId || session.metadata?.propertyId !== item.propertyId || session.amount_total !== expected) {
    logger.error('Paid Checkout session does not match its request', {
      sessionId: session.id, requestId, amountTotal: session.amount_total, expected, metadata: session.metadata,
    });
    return 'ignored';
  }
  try {
    const result = await recordPayment(requestId, 'carta', session.id, { id: null, role: 'system', name: 'Stripe' });
    if (result.outcome === 'already_paid' && item.paymentRef !== session.id) {
      logger.error('Request already paid: this card payment is a second one, refund it', { sessionId: session.id, requestId, paidVia: item.paidVia });
    }
    return result.outcome;
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    logger.error('Card payment for a request that can no longer be paid: refund it', { sessionId: session.id, requestId, reason: err.message });
    return 'ignored';
  }
}
