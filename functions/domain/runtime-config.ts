import * as z from 'zod';

/**
 * The SPA's runtime configuration, served as /config.json: written at deploy by the web
 * stack on AWS, and by the local runtime on this machine.
 */
export const voiceWidgetSchema = z.object({
  projectId: z.string().min(1),
  /** the vendor's script (https); the page injects it only once it is interactive */
  scriptUrl: z.string().url().startsWith('https://'),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/).default('#ff6603'),
  ballSize: z.number().int().min(24).max(160).default(64),
});
export type VoiceWidgetConfig = z.infer<typeof voiceWidgetSchema>;

export { VOICE_WIDGET_SIZE } from './voice-widget';

/** The account agents pay the commission to by bank transfer (beneficiary: the provider's company). */
export const bankTransferSchema = z.object({
  iban: z.string().min(15).max(42),
  beneficiary: z.string().min(1).max(140),
});
export type BankTransferConfig = z.infer<typeof bankTransferSchema>;

export const runtimeConfigSchema = z.object({
  apiUrl: z.string().min(1),
  region: z.string().min(1),
  userPoolId: z.string().min(1),
  userPoolClientId: z.string().min(1),
  /** only locally: the Cognito emulator's URL */
  cognitoEndpoint: z.string().url().optional(),
  company: z.object({
    name: z.string(),
    address: z.string(),
    vatNumber: z.string(),
    email: z.string(),
  }),
  privacyUrl: z.string().default('/privacy'),
  /**
   * The third-party voice assistant of the home page (spec 000: 238 x 423 px, project id,
   * colour, ball size). Null (as locally): nothing is loaded.
   */
  voiceWidget: voiceWidgetSchema.nullable().default(null),
  /** only locally: the mail viewer */
  mailViewerUrl: z.string().url().optional(),
  /**
   * How agents pay a request (spec 001, bank transfer dialog): by card only when Stripe is
   * configured at deploy; by bank transfer always, to this account.
   */
  payments: z
    .object({
      card: z.boolean(),
      bankTransfer: bankTransferSchema,
    })
    .default(() => ({ card: false, bankTransfer: DEMO_BANK_TRANSFER })),
});

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/**
 * DEMO company details (placeholder VAT number and address): what the local runtime shows in
 * the footer. A deploy to AWS must set its own (`company` context), and refuses these.
 */
export const DEMO_COMPANY: RuntimeConfig['company'] = {
  name: 'Opzione Casa S.r.l.',
  address: 'Via Alessandro Manzoni 12, 20121 Milano (MI)',
  vatNumber: 'IT12345678901',
  email: 'info@opzionecasa.it',
};

/** The company that buys the purchase option: named in the option PDF. */
export interface GranteeConfig {
  name: string;
  vatNumber: string;
  address: string;
}

/** DEMO grantee of the local runtime; a deploy must set its own (`grantee` context). */
export const DEMO_GRANTEE: GranteeConfig = {
  name: DEMO_COMPANY.name,
  vatNumber: DEMO_COMPANY.vatNumber,
  address: DEMO_COMPANY.address,
};

/** The company the seller's land-registry delegations are signed over to, and its administrator. */
export interface DelegateeConfig {
  company: string;
  administrator: string;
}

/** DEMO delegatee of the local runtime (a made-up administrator); a deploy must set its own (`delegatee` context). */
export const DEMO_DELEGATEE: DelegateeConfig = {
  company: DEMO_COMPANY.name,
  administrator: 'Marco Ferrari',
};

/**
 * DEMO bank details, NOT a real account: what the local runtime shows. A deploy to AWS must
 * set the real ones (`bankTransfer` context, docs/deploy.md), and refuses these.
 */
export const DEMO_BANK_TRANSFER: BankTransferConfig = {
  iban: 'IT60 X054 2811 1010 0000 0123 456',
  beneficiary: DEMO_COMPANY.name,
};
