import type { RuntimeConfig } from '@domain/runtime-config';

/**
 * Amplify is used for Cognito authentication only, and loaded on first use: the home page
 * paints without it (it is ~35 KB gzip), and it arrives while the page reads the session.
 */
type AuthModule = typeof import('aws-amplify/auth');

let runtimeConfig: RuntimeConfig | undefined;
let loading: Promise<AuthModule> | undefined;

/** Remembers the Cognito settings; nothing is loaded until `auth()` is first called. */
export function configureAmplify(config: RuntimeConfig): void {
  runtimeConfig = config;
}

/** aws-amplify/auth, configured once. */
export function auth(): Promise<AuthModule> {
  loading ??= (async () => {
    const config = runtimeConfig;
    if (!config) throw new Error('configureAmplify was not called');
    const [{ Amplify }, authModule] = await Promise.all([import('aws-amplify'), import('aws-amplify/auth')]);
    Amplify.configure({
      Auth: {
        Cognito: {
          userPoolId: config.userPoolId,
          userPoolClientId: config.userPoolClientId,
          ...(config.cognitoEndpoint ? { userPoolEndpoint: config.cognitoEndpoint } : {}),
        },
      },
    });
    return authModule;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
