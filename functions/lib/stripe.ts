/**
 * Stripe, the card side of the agents' payments: the API client (Checkout sessions) and the
 * webhook signature check. Both read their secrets at run time through secrets.ts (on AWS
 * from Secrets Manager via the Parameters and Secrets extension, locally STRIPE_SECRET_KEY and
 * STRIPE_WEBHOOK_SECRET). Without a secret key there is no client: card payments are "not
 * configured" and the bank transfer remains. STRIPE_API_URL (local runtime and tests only)
 * points the client at a stand-in server, since Stripe itself is out of reach there.
 */
import Stripe from 'stripe';
import { config } from './config';
import { stripeSecrets } from './secrets';

let cached: { signature: string; client: Stripe } | undefined;


/** The Stripe API client, or null when no secret key is configured. */
export async function stripeClient(): Promise<Stripe | null> {
  const { secretKey: key } = await stripeSecrets();
  const { STRIPE_API_URL: apiUrl } = config();
  if (!key) return null;
  const signature = `${key}|${apiUrl ?? ''}`;
  if (cached?.signature !== signature) {
    const target = apiUrl ? new URL(apiUrl) : undefined;
    cached = {
      signature,
      client: new Stripe(key, {
        maxNetworkRetries: 2,
        timeout: 8_000,
        ...(target
          ? { host: target.hostname, port: target.port || (target.protocol === 'https:' ? 443 : 80), protocol: target.protocol === 'https:' ? 'https' : 'http' }
          : {}),
      }),
    };
  }
  return cached.client;
}

export type StripeEvent = Stripe.Event;
export type StripeCheckoutSession = Stripe.Checkout.Session;

/**
 * The event of a webhook delivery, verified against STRIPE_WEBHOOK_SECRET on the RAW body
 * (the bytes Stripe signed: re-serialised JSON would not match). Throws when the secret is
 * missing (a deploy problem: the generic 500 makes Stripe retry later) and `InvalidSignature`
 * when the signature or its timestamp (5 minutes tolerance) does not match.
 */
export async function verifyStripeEvent(rawBody: string | Buffer, signatureHeader: string): Promise<Stripe.Event> {
  const secret = (await stripeSecrets()).webhookSecret;
  if (!secret) throw new Error('Missing configuration STRIPE_WEBHOOK_SECRET');
  try {
    return Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret);
  } catch (err) {
    throw new InvalidSignature((err as Error).message);
  }
}

export class InvalidSignature extends Error {
  override name = 'InvalidSignature';
}
