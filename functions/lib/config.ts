import * as z from 'zod';

/**
 * Runtime configuration, read once from the environment and validated.
 * On AWS the CDK api stack sets these variables; locally the local runtime does.
 * `*_ENDPOINT` variables exist only locally (emulators); on AWS they are unset.
 */
const schema = z.object({
  TABLE_NAME: z.string().min(1),
  MEDIA_BUCKET: z.string().min(1).optional(),
  OMI_BUCKET: z.string().min(1).optional(),
  USER_POOL_ID: z.string().min(1).optional(),
  USER_POOL_CLIENT_ID: z.string().min(1).optional(),
  /**
   * Local runtime only (infra/local/stack.ts: the demo accounts): e-mails whose admin tokens
   * count as MFA-verified without TOTP (functions/auth/pre-token-generation.ts). Never set on AWS.
   */
  MFA_EXEMPT_EMAILS: z.string().optional(),
  AWS_REGION: z.string().min(1).default('eu-south-1'),
  MAIL_FROM: z.string().email().default('noreply@opzionecasa.it'),
  BACKOFFICE_EMAIL: z.string().email().default('backoffice@opzionecasa.it'),
  APP_URL: z.string().url().default('http://localhost:5173'),
  TOKEN_TTL_DAYS: z.coerce.number().int().positive().default(30),
  /**
   * The company the seller's delegations are signed over to, and its administrator (spec 000);
   * the company that buys the purchase option (the grantee of the option PDF). Deploy
   * configuration with no default: the CDK context on AWS (infra/stacks/deploy-config.ts),
   * the demo values locally (infra/local/stack.ts); the PDFs require them.
   */
  DELEGATEE_COMPANY: z.string().min(1).optional(),
  DELEGATEE_ADMINISTRATOR: z.string().min(1).optional(),
  GRANTEE_NAME: z.string().min(1).optional(),
  GRANTEE_VAT_NUMBER: z.string().min(1).optional(),
  GRANTEE_ADDRESS: z.string().min(1).optional(),
  /**
   * The identity check's face matcher: Amazon Rekognition on AWS (unset), the local face-api
   * engine on the emulators (infra/local/stack.ts sets 'local'). functions/identity/face-matcher.ts
   */
  FACE_MATCHER: z.enum(['rekognition', 'local']).default('rekognition'),
  /** Rekognition's region when it differs from the Lambda's (Rekognition is not in eu-south-1) */
  /** Rekognition is not offered in eu-south-1 (Milano): the nearest EU region that has it */
  REKOGNITION_REGION: z.string().min(1).default('eu-central-1'),
  /**
   * Stripe (the agents' card payments, functions/lib/stripe.ts): on AWS only the payment
   * Lambdas get STRIPE_SECRET_ID, the Secrets Manager secret (JSON: secretKey,
   * webhookSecret) read at run time through the Parameters and Secrets extension
   * (functions/lib/secrets.ts, docs/deploy.md); locally and in tests the values themselves.
   * Without the secret key the card is "not configured" and only the bank transfer is offered.
   */
  STRIPE_SECRET_ID: z.string().min(1).optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** only locally and in tests: where the Stripe client sends its calls (a local stand-in) */
  STRIPE_API_URL: z.string().url().optional(),
  /**
   * The secret CloudFront adds to every API request (functions/lib/origin.ts): on AWS the
   * ARN of the Secrets Manager secret (read through the Parameters and Secrets extension),
   * locally the value itself (generated at each start by infra/local/stack.ts).
   */
  ORIGIN_SECRET_ARN: z.string().startsWith('arn:').optional(),
  ORIGIN_SECRET: z.string().min(32).optional(),
  /**
   * The key of the per-IP rate limit's client hash (functions/model/rate-limit.ts): on AWS
   * generated at deploy in Secrets Manager, the route functions get its ARN and read it at
   * run time through the Parameters and Secrets extension (functions/lib/secrets.ts); locally
   * the value itself, one per data folder (infra/local/setup.ts ensureIpHashSalt).
   */
  IP_HASH_SALT_ARN: z.string().startsWith('arn:').optional(),
  IP_HASH_SALT: z.string().min(32).optional(),
  /**
   * The ETSI TS 119 612 trusted list whose granted qualified CAs are the trust anchors of the
   * signature checks (functions/system/refresh-trusted-list.ts): AgID's list of Italy. Tests
   * point it at a local server; the local runtime never fetches it on a timer.
   */
  TRUSTED_LIST_URL: z.string().url().default('https://eidas.agid.gov.it/TL/TSL-IT.xml'),
  DYNAMODB_ENDPOINT: z.string().url().optional(),
  S3_ENDPOINT: z.string().url().optional(),
  SES_ENDPOINT: z.string().url().optional(),
  COGNITO_ENDPOINT: z.string().url().optional(),
});

export type Config = z.infer<typeof schema>;

let cached: Config | undefined;

export function config(): Config {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** Forget the cached configuration (the local runtime and tests set the environment first). */
export function resetConfig(): void {
  cached = undefined;
}

export function requireConfig<K extends keyof Config>(key: K): NonNullable<Config[K]> {
  const value = config()[key];
  if (value === undefined || value === null || value === '') {
    throw new Error(`Missing configuration ${String(key)}`);
  }
  return value as NonNullable<Config[K]>;
}
