/**
 * What CloudFront adds to every request it forwards to the API (web stack): the origin
 * secret, which the API requires (functions/lib/origin.ts), and the viewer's address.
 * Locally the secret is made at each start (infra/local/stack.ts puts it in ORIGIN_SECRET);
 * the stand-ins of CloudFront (infra/local/web-server.ts, the Vite proxy of `npm start`) add
 * these headers, and so do the tools that call the local API directly in its place (tests,
 * demo data, `npm run invoke`).
 */
import { randomBytes } from 'node:crypto';
import { ORIGIN_HEADER, VIEWER_IP_HEADER } from '../../functions/lib/origin';

export function newOriginSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function edgeHeaders(originSecret: string, viewerIp?: string): Record<string, string> {
  return { [ORIGIN_HEADER]: originSecret, ...(viewerIp ? { [VIEWER_IP_HEADER]: viewerIp } : {}) };
}

/** The address of the socket a request came from, as CloudFront's `event.viewer.ip` gives it. */
export function socketIp(remoteAddress: string | undefined): string {
  return (remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
}
