/**
 * The secrets a function reads at run time (never at deploy: no value nor dynamic reference
 * sits in a Lambda's environment, test/infra/secrets.test.ts):
 * - on AWS the environment names the Secrets Manager secret (IP_HASH_SALT_ARN,
 *   STRIPE_SECRET_ID) and the value comes from the AWS Parameters and Secrets Lambda
 *   extension (a local HTTP endpoint that caches it, as for the origin secret,
 *   functions/lib/origin.ts); this module keeps a value for the same time;
 * - locally and in tests the value itself is in the environment (IP_HASH_SALT,
 *   STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: infra/local/stack.ts) and wins.
 */
import { config } from './config';

/** How long a value read from the extension is kept in memory (the extension's own cache is as long). */
export const SECRET_CACHE_MS = 60_000;

const cache = new Map<string, { value: string | undefined; until: number }>();

/** The SecretString of a secret (name or ARN) through the extension, kept SECRET_CACHE_MS. */
async function fromExtension(secretId: string): Promise<string | undefined> {
  const hit = cache.get(secretId);
  if (hit && hit.until > Date.now()) return hit.value;
  const port = process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773';
  const url = `http://localhost:${port}/secretsmanager/get?secretId=${encodeURIComponent(secretId)}`;
  const res = await fetch(url, { headers: { 'X-Aws-Parameters-Secrets-Token': process.env.AWS_SESSION_TOKEN ?? '' } });
  // the name only, never the value, in the error
  if (!res.ok) throw new Error(`Secret ${secretId}: the secrets extension answered ${res.status}`);
  const value = ((await res.json()) as { SecretString?: string }).SecretString;
  cache.set(secretId, { value, until: Date.now() + SECRET_CACHE_MS });
  return value;
}

/** One field of a JSON secret, or undefined when it is missing or empty. */
function field(secretString: string | undefined, name: string): string | undefined {
  const parsed = secretString ? (JSON.parse(secretString) as Record<string, unknown>) : {};
  const value = parsed[name];
  return typeof value === 'string' && value ? value : undefined;
}

/** The salt of the per-IP rate limit's hash (functions/model/rate-limit.ts); throws when none is configured. */
export async function ipHashSalt(): Promise<string> {
  const { IP_HASH_SALT, IP_HASH_SALT_ARN } = config();
  const value = IP_HASH_SALT ?? (IP_HASH_SALT_ARN ? await fromExtension(IP_HASH_SALT_ARN) : undefined);
  if (!value || value.length < 32) throw new Error('Missing configuration IP_HASH_SALT');
  return value;
}

/** Stripe's secret key and webhook secret (functions/lib/stripe.ts); undefined when not configured. */
export async function stripeSecrets(): Promise<{ secretKey: string | undefined; webhookSecret: string | undefined }> {
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_SECRET_ID } = config();
  if (STRIPE_SECRET_KEY || STRIPE_WEBHOOK_SECRET || !STRIPE_SECRET_ID) return { secretKey: STRIPE_SECRET_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET };
  const secret = await fromExtension(STRIPE_SECRET_ID);
  return { secretKey: field(secret, 'secretKey'), webhookSecret: field(secret, 'webhookSecret') };
}

/** Forget the values read (tests). */
export function resetSecrets(): void {
  cache.clear();
}
