import { Amplify } from 'aws-amplify';
import type { RuntimeConfig } from '@domain/runtime-config';

/** Amplify is used for Cognito authentication only. */
export function configureAmplify(config: RuntimeConfig): void {
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.cognitoEndpoint ? { userPoolEndpoint: config.cognitoEndpoint } : {}),
      },
    },
  });
}
