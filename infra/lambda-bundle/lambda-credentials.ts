/**
 * Stands for `@aws-sdk/credential-provider-node` in the Lambda bundles (alias in ./index.ts).
 * In Lambda the execution role's credentials are always in the environment
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), which is the first link of
 * the SDK's default chain; the other links (SSO, ini files, processes, web identity, instance
 * metadata and the STS/SSO clients they need, ~90 KB) can never answer there, so only that
 * first link ships. Outside Lambda (local runtime, tests, scripts) nothing is substituted.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';
type Init = Parameters<typeof fromEnv>[0];
type Credentials = Awaited<ReturnType<ReturnType<typeof fromEnv>>> | undefined;

export const defaultProvider = (init: Init = {}) => fromEnv(init);

/** as the SDK's own: credentials with an expiry are refreshed 5 minutes before it */
export const credentialsWillNeedRefresh = (credentials: Credentials): boolean => credentials?.expiration !== undefined;
export const credentialsTreatedAsExpired = (credentials: Credentials): boolean =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
