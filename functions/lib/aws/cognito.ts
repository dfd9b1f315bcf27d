import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { config } from '../config';
import { clientOptions, onReset } from './shared';

let client: CognitoIdentityProviderClient | undefined;
onReset(() => (client = undefined));

export function cognito(): CognitoIdentityProviderClient {
  client ??= new CognitoIdentityProviderClient(clientOptions(config().COGNITO_ENDPOINT));
  return client;
}
