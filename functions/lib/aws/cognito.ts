import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { config } from '../config';
import { clientOptions, onReset } from './shared';
import { traced } from '../observability';

let client: CognitoIdentityProviderClient | undefined;
onReset(() => (client = undefined));

export function cognito(): CognitoIdentityProviderClient {
  client ??= traced(new CognitoIdentityProviderClient(clientOptions(config().COGNITO_ENDPOINT)));
  return client;
}
