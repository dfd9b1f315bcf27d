import { SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '../config';
import { clientOptions, onReset } from './shared';
import { traced } from '../observability';

let client: SESv2Client | undefined;
onReset(() => (client = undefined));

export function ses(): SESv2Client {
  client ??= traced(new SESv2Client(clientOptions(config().SES_ENDPOINT)));
  return client;
}
