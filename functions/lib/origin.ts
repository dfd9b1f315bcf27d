import { createHash, timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config } from './config';
import { logger } from './logger';

/**
 * The API answers only requests that came through the edge. The execute-api endpoint is
 * public, so CloudFront adds a secret header to every request it forwards to the API (an
 * origin custom header, overwriting any value a viewer sent) and `route()` refuses with
 * 403 any request without it, before anything else runs. Only such requests may name the
 * viewer's address (`x-viewer-ip`, set by the web stack's viewer-request function).
 *
 * Where the secret comes from:
 * - on AWS, a Secrets Manager secret (api stack) that the web stack rotates at every deploy
 *   (infra/stacks/origin-secret.ts); the functions read it through the AWS Parameters and
 *   Secrets Lambda extension (a local HTTP endpoint with a 60 s cache), and accept both the
 *   AWSCURRENT and the AWSPREVIOUS version, so the edges still sending the old value while
 *   the distribution updates are not refused;
 * - locally, ORIGIN_SECRET, generated at each start (infra/local/stack.ts) and added by the
 *   stand-ins of CloudFront (infra/local/web-server.ts, the Vite proxy of `npm start`).
 * With neither configured every request is refused (fail closed).
 */
export const ORIGIN_HEADER = 'x-origin-verify';
export const VIEWER_IP_HEADER = 'x-viewer-ip';

const STAGES = ['AWSCURRENT', 'AWSPREVIOUS'] as const;

const digest = (value: string) => createHash('sha256').update(value).digest();

function sameSecret(received: Buffer, expected: string): boolean {
  return timingSafeEqual(received, digest(expected));
}

/** One version of the secret from the Parameters and Secrets extension; undefined when that version does not exist. */
async function secretVersion(secretArn: string, stage: (typeof STAGES)[number]): Promise<string | undefined> {
  const port = process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773';
  const url = `http://localhost:${port}/secretsmanager/get?secretId=${encodeURIComponent(secretArn)}&versionStage=${stage}`;
  const res = await fetch(url, { headers: { 'X-Aws-Parameters-Secrets-Token': process.env.AWS_SESSION_TOKEN ?? '' } });
  if (!res.ok) {
    // a secret rotated once has no AWSPREVIOUS yet
    if (stage === 'AWSPREVIOUS' && res.status >= 400 && res.status < 500) return undefined;
    throw new Error(`Origin secret ${stage}: the secrets extension answered ${res.status}`);
  }
  return ((await res.json()) as { SecretString?: string }).SecretString;
}

/** True when the request carries the edge's secret. */
export async function fromEdge(event: APIGatewayProxyEventV2): Promise<boolean> {
  const header = event.headers?.[ORIGIN_HEADER];
  const { ORIGIN_SECRET, ORIGIN_SECRET_ARN } = config();
  if (!ORIGIN_SECRET && !ORIGIN_SECRET_ARN) {
    logger.error('No origin secret configured (ORIGIN_SECRET_ARN or ORIGIN_SECRET): every request is refused');
    return false;
  }
  if (!header) return false;
  const received = digest(header);
  if (ORIGIN_SECRET) return sameSecret(received, ORIGIN_SECRET);
  // the current version first: the previous one is asked for only during a rotation
  for (const stage of STAGES) {
    const value = await secretVersion(ORIGIN_SECRET_ARN!, stage);
    if (value && sameSecret(received, value)) return true;
  }
  return false;
}
