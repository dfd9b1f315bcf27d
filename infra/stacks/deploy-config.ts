import type { Construct } from 'constructs';
import * as z from 'zod';
import {
  DEFAULT_COMPANY,
  DEMO_BANK_TRANSFER,
  bankTransferSchema,
  voiceWidgetSchema,
  type BankTransferConfig,
  type RuntimeConfig,
  type VoiceWidgetConfig,
} from '../../functions/domain/runtime-config';

/**
 * Deploy-time settings, read once from CDK context (`cdk.json` "context" or `-c key=value`)
 * and validated, so a typo fails the synth instead of a Lambda at run time.
 * The defaults match those of functions/lib/config.ts.
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
  company: z
    .object({
      name: z.string().min(1),
      address: z.string().min(1),
      vatNumber: z.string().min(1),
      email: z.string().email(),
    })
    .partial()
    .default({}),
  /** `-c voiceWidget='{"projectId":"...","scriptUrl":"https://..."}'` */
  voiceWidget: voiceWidgetSchema.nullable().default(null),
  /**
   * `-c bankTransfer='{"iban":"IT..","beneficiary":".."}'`: the account agents pay by bank
   * transfer (beneficiary defaults to the company name). Without it: DEMO_BANK_TRANSFER.
   */
  bankTransfer: bankTransferSchema.partial({ beneficiary: true }).optional(),
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
  voiceWidget: VoiceWidgetConfig | null;
  /** without the `bankTransfer` context: DEMO_BANK_TRANSFER (docs/deploy.md says to set it) */
  bankTransfer: BankTransferConfig;
  stripe: { secretName: string } | null;
  alarmEmail?: string;
}

export const CONTEXT_KEYS = [
  'appUrl',
  'domainName',
  'certificateArn',
  'mailFrom',
  'backofficeEmail',
  'tokenTtlDays',
  'company',
  'voiceWidget',
  'bankTransfer',
  'stripe',
  'alarmEmail',
] as const;

/** Without appUrl or a custom domain, the product's own domain. */
export const DEFAULT_APP_URL = 'https://opzionecasa.it';

export function readDeployConfig(scope: Construct): DeployConfig {
  const raw: Record<string, unknown> = {};
  for (const key of CONTEXT_KEYS) {
    let value: unknown = scope.node.tryGetContext(key);
    // `-c company='{"name":...}'` arrives as a string
    if ((key === 'company' || key === 'voiceWidget' || key === 'bankTransfer' || key === 'stripe') && typeof value === 'string') value = JSON.parse(value);
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = contextSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid CDK context: ${issues}`);
  }
  const c = parsed.data;
  if (Boolean(c.domainName) !== Boolean(c.certificateArn)) {
    throw new Error('Invalid CDK context: domainName and certificateArn go together');
  }
  const customDomain = c.domainName && c.certificateArn ? { domainName: c.domainName, certificateArn: c.certificateArn } : undefined;
  return {
    appUrl: (c.appUrl ?? (customDomain ? `https://${customDomain.domainName}` : DEFAULT_APP_URL)).replace(/\/+$/, ''),
    customDomain,
    mailFrom: c.mailFrom,
    backofficeEmail: c.backofficeEmail,
    tokenTtlDays: c.tokenTtlDays,
    company: { ...DEFAULT_COMPANY, ...c.company },
    voiceWidget: c.voiceWidget,
    bankTransfer: c.bankTransfer
      ? { iban: c.bankTransfer.iban, beneficiary: c.bankTransfer.beneficiary ?? c.company.name ?? DEFAULT_COMPANY.name }
      : DEMO_BANK_TRANSFER,
    stripe: c.stripe,
    alarmEmail: c.alarmEmail,
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
