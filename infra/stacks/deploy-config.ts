import type { Construct } from 'constructs';
import * as z from 'zod';
import { isItalianIban, isItalianVatNumber, normalizeIban, vatDigitsOf } from '../../functions/domain/business-ids';
import {
  DEMO_BANK_TRANSFER,
  DEMO_COMPANY,
  DEMO_DELEGATEE,
  DEMO_GRANTEE,
  voiceWidgetSchema,
  type BankTransferConfig,
  type DelegateeConfig,
  type GranteeConfig,
  type RuntimeConfig,
  type VoiceWidgetConfig,
} from '../../functions/domain/runtime-config';

const text = (max: number) => z.string().trim().min(1).max(max);
const vatNumber = z.string().trim().refine(isItalianVatNumber, 'not an Italian VAT number (11 digits, optionally after IT, with a valid check digit)');
const iban = z.string().trim().refine(isItalianIban, 'not an Italian IBAN (IT, 27 characters, valid mod-97 checksum)');

/**
 * Deploy-time settings, read once from CDK context (`cdk.json` "context" or `-c key=value`)
 * and validated, so a typo fails the synth instead of a Lambda at run time.
 * The defaults match those of functions/lib/config.ts. The parties named to users and in
 * documents (company, grantee, delegatee, bank account) have no default: a deploy must name
 * them, and the demo values of the local runtime are refused (REQUIRED_CONTEXT, demoValuesIn).
 */
const contextSchema = z.object({
  /** The public address of the SPA: links in e-mails and the media bucket's CORS origin. */
  appUrl: z.string().url().optional(),
  /** Custom domain for CloudFront; needs certificateArn (an ACM certificate in us-east-1). */
  domainName: z.string().min(1).optional(),
  certificateArn: z.string().startsWith('arn:').optional(),
  mailFrom: z.string().email().default('noreply@opzionecasa.it'),
  backofficeEmail: z.string().email().default('backoffice@opzionecasa.it'),
  tokenTtlDays: z.coerce.number().int().positive().default(30),
  /** `-c company='{"name","address","vatNumber","email"}'`: the site's footer (config.json) */
  company: z.object({ name: text(200), address: text(300), vatNumber, email: z.string().email() }),
  /** `-c grantee='{"name","vatNumber","address"}'`: the company that buys the purchase option, named in the option PDF */
  grantee: z.object({ name: text(200), vatNumber, address: text(300) }),
  /** `-c delegatee='{"company","administrator"}'`: named in the land-registry delegation forms */
  delegatee: z.object({ company: text(200), administrator: text(200) }),
  /** `-c voiceWidget='{"projectId":"...","scriptUrl":"https://..."}'` */
  voiceWidget: voiceWidgetSchema.nullable().default(null),
  /**
   * `-c bankTransfer='{"iban":"IT..","beneficiary":".."}'`: the account agents pay by bank
   * transfer (beneficiary defaults to the company name).
   */
  bankTransfer: z.object({ iban, beneficiary: text(140).optional() }),
  /**
   * `-c stripe='{"secretName":"opzionecasa/stripe"}'`: a Secrets Manager secret holding JSON
   * {"secretKey":"sk_...","webhookSecret":"whsec_..."}, read at run time (Parameters and
   * Secrets extension, functions/lib/secrets.ts) by the functions with the 'stripe' grant
   * only, which get its name and read access (never its values). Without it card
   * payments are off (the bank transfer remains).
   */
  stripe: z.object({ secretName: z.string().min(1).max(512) }).nullable().default(null),
  /** `-c alarmEmail=ops@...`: the CloudWatch alarms (failed triggers, API 5xx) by e-mail; without it nobody is subscribed */
  alarmEmail: z.string().email().optional(),
});

export interface DeployConfig {
  appUrl: string;
  /** custom domain and its certificate, when both are configured */
  customDomain?: { domainName: string; certificateArn: string };
  mailFrom: string;
  backofficeEmail: string;
  tokenTtlDays: number;
  company: RuntimeConfig['company'];
  grantee: GranteeConfig;
  delegatee: DelegateeConfig;
  voiceWidget: VoiceWidgetConfig | null;
  bankTransfer: BankTransferConfig;
  stripe: { secretName: string } | null;
  alarmEmail?: string;
}

/** Context keys a deploy must set, with what the operator is asked for. */
export const REQUIRED_CONTEXT = {
  company: 'the company shown in the site footer, JSON {"name","address","vatNumber","email"}',
  grantee: 'the company that buys the purchase option, named in the option PDF, JSON {"name","vatNumber","address"}',
  delegatee: 'the company and administrator named in the land-registry delegation forms, JSON {"company","administrator"}',
  bankTransfer: 'the account agents pay by bank transfer, JSON {"iban","beneficiary"?}',
} as const;

const JSON_KEYS = new Set(['company', 'grantee', 'delegatee', 'voiceWidget', 'bankTransfer', 'stripe']);

export const CONTEXT_KEYS = [
  'appUrl',
  'domainName',
  'certificateArn',
  'mailFrom',
  'backofficeEmail',
  'tokenTtlDays',
  'company',
  'grantee',
  'delegatee',
  'voiceWidget',
  'bankTransfer',
  'stripe',
  'alarmEmail',
] as const;

/** Without appUrl or a custom domain, the product's own domain. */
export const DEFAULT_APP_URL = 'https://opzionecasa.it';

const SEE_DOCS = 'see docs/deploy.md, "Contesto"';

const same = (a: unknown, b: string, normalize: (v: string) => string = (v) => v.trim()) =>
  typeof a === 'string' && normalize(a) === normalize(b);

/**
 * The placeholders of the local runtime found in the context: the demo VAT numbers,
 * addresses, administrator and IBAN. The company name is the brand's and may be the real one.
 */
export function demoValuesIn(raw: Record<string, unknown>): string[] {
  const field = (key: string, name: string) => (raw[key] as Record<string, unknown> | undefined)?.[name];
  const vat = (v: string) => vatDigitsOf(v);
  const checks: [string, unknown, string, ((v: string) => string)?][] = [
    ['company.vatNumber', field('company', 'vatNumber'), DEMO_COMPANY.vatNumber, vat],
    ['company.address', field('company', 'address'), DEMO_COMPANY.address],
    ['grantee.vatNumber', field('grantee', 'vatNumber'), DEMO_GRANTEE.vatNumber, vat],
    ['grantee.address', field('grantee', 'address'), DEMO_GRANTEE.address],
    ['delegatee.administrator', field('delegatee', 'administrator'), DEMO_DELEGATEE.administrator],
    ['bankTransfer.iban', field('bankTransfer', 'iban'), DEMO_BANK_TRANSFER.iban, normalizeIban],
  ];
  return checks
    .filter(([, value, demo, normalize]) => same(value, demo, normalize))
    .map(([path, value]) => `CDK context '${path}' is the local demo value "${String(value)}": set the real one`);
}

export function readDeployConfig(scope: Construct): DeployConfig {
  const raw: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const key of CONTEXT_KEYS) {
    let value: unknown = scope.node.tryGetContext(key);
    // `-c company='{"name":...}'` arrives as a string
    if (JSON_KEYS.has(key) && typeof value === 'string' && value !== '') {
      try {
        value = JSON.parse(value);
      } catch {
        problems.push(`Invalid CDK context: ${key}: not valid JSON`);
        continue;
      }
    }
    if (value !== undefined && value !== null && value !== '') raw[key] = value;
  }
  for (const [key, what] of Object.entries(REQUIRED_CONTEXT)) {
    if (!(key in raw) && !problems.some((p) => p.includes(`: ${key}:`))) problems.push(`Missing CDK context '${key}': ${what}`);
  }
  problems.push(...demoValuesIn(raw));
  const parsed = contextSchema.safeParse(raw);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      const path = i.path.join('.');
      // a missing required key is reported once, above
      if (i.path.length === 1 && String(i.path[0]) in REQUIRED_CONTEXT && !(String(i.path[0]) in raw)) continue;
      if (problems.some((p) => p.startsWith(`CDK context '${path}' is the local demo value`))) continue;
      problems.push(`Invalid CDK context: ${path}: ${i.message}`);
    }
  }
  if (problems.length || !parsed.success) {
    throw new Error(`Cannot deploy with this CDK context (${SEE_DOCS}):\n- ${problems.join('\n- ')}`);
  }
  const c = parsed.data;
  if (Boolean(c.domainName) !== Boolean(c.certificateArn)) {
    throw new Error(`Invalid CDK context: domainName and certificateArn go together (${SEE_DOCS})`);
  }
  const customDomain = c.domainName && c.certificateArn ? { domainName: c.domainName, certificateArn: c.certificateArn } : undefined;
  return {
    appUrl: (c.appUrl ?? (customDomain ? `https://${customDomain.domainName}` : DEFAULT_APP_URL)).replace(/\/+$/, ''),
    customDomain,
    mailFrom: c.mailFrom,
    backofficeEmail: c.backofficeEmail,
    tokenTtlDays: c.tokenTtlDays,
    company: c.company,
    grantee: c.grantee,
    delegatee: c.delegatee,
    voiceWidget: c.voiceWidget,
    bankTransfer: { iban: c.bankTransfer.iban, beneficiary: c.bankTransfer.beneficiary ?? c.company.name },
    stripe: c.stripe,
    alarmEmail: c.alarmEmail,
  };
}

/**
 * The deploy configuration as the Lambdas' environment (functions/lib/config.ts): the
 * parties named in the documents they generate.
 */
export function partiesEnvironment(config: Pick<DeployConfig, 'grantee' | 'delegatee'>): Record<string, string> {
  return {
    GRANTEE_NAME: config.grantee.name,
    GRANTEE_VAT_NUMBER: config.grantee.vatNumber,
    GRANTEE_ADDRESS: config.grantee.address,
    DELEGATEE_COMPANY: config.delegatee.company,
    DELEGATEE_ADMINISTRATOR: config.delegatee.administrator,
  };
}

/**
 * Feature flags this app is written against. They live here rather than in cdk.json so
 * that the tests synthesize exactly what `cdk synth` does; cdk.json and `-c` still win.
 */
export const FEATURE_FLAGS: Record<string, unknown> = {
  // S3 access-log delivery through a bucket policy instead of the legacy ACL
  '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy': true,
  // merge IAM statements: one role serves many grants
  '@aws-cdk/aws-iam:minimizePolicies': true,
  '@aws-cdk/aws-cloudfront:defaultSecurityPolicyTLSv1.2_2021': true,
  '@aws-cdk/core:enablePartitionLiterals': true,
  // Exports/imports: the data stack cannot be deleted while the stacks using it exist
  '@aws-cdk/core:defaultCrossStackReferences': 'strong',
};
