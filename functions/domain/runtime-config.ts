import { z } from 'zod';

/**
 * The SPA's runtime configuration, served as /config.json: written at deploy by the web
 * stack on AWS, and by the local runtime on this machine.
 */
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
  voiceWidgetProjectId: z.string().nullable().default(null),
  /** only locally: the mail viewer */
  mailViewerUrl: z.string().url().optional(),
});

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

export const DEFAULT_COMPANY: RuntimeConfig['company'] = {
  name: 'Opzione Casa S.r.l.',
  address: 'Via Alessandro Manzoni 12, 20121 Milano (MI)',
  vatNumber: 'IT12345678901',
  email: 'info@opzionecasa.it',
};
