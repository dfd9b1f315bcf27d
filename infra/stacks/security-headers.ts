/**
 * THE security headers of every response of the site, in one place: the web stack turns
 * them into the distribution's response headers policy, and the local stand-in of
 * CloudFront (infra/local/web-server.ts) sends the same values, so the browser tests run
 * the production build under the policy production has.
 *
 * Content-Security-Policy: scripts only from the site itself (no inline script, no eval:
 * the ID token lives in localStorage, an injected script must not run), the voice widget's
 * origin only when the deploy configures one; styles from the site plus the one inline
 * stylesheet sonner (the toasts) injects, allowed by its hash; the browser talks only to
 * the site, Cognito and the buckets' presigned URLs; no framing of the site.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { RuntimeConfig } from '../../functions/domain/runtime-config';

/** Where the SPA's browser code connects besides the site itself. */
export interface EdgeOrigins {
  /** the Cognito endpoint Amplify signs in with */
  cognito: string;
  /** origins of the buckets' presigned POST (uploads) and GET (previews, documents) URLs */
  storage: readonly string[];
  /** the voice widget's script, when the deploy configures one */
  voiceWidgetScriptUrl?: string | null;
}

export interface SecurityHeaders {
  contentSecurityPolicy: string;
  strictTransportSecurity: { maxAgeSeconds: number; includeSubdomains: boolean; preload: boolean };
  referrerPolicy: 'strict-origin-when-cross-origin';
  frameOptions: 'DENY';
  contentTypeOptions: 'nosniff';
  permissionsPolicy: string;
}

/** Two years, as HSTS preload lists ask; no `preload` (that is a decision for the owner of the domain). */
export const HSTS_MAX_AGE_SECONDS = 63_072_000;

/** The site's origins from its runtime configuration (Cognito's regional endpoint on AWS, the emulator locally). */
export function edgeOriginsOf(config: Pick<RuntimeConfig, 'region' | 'cognitoEndpoint' | 'voiceWidget'>, storage: readonly string[]): EdgeOrigins {
  return {
    cognito: config.cognitoEndpoint ? new URL(config.cognitoEndpoint).origin : `https://cognito-idp.${config.region}.amazonaws.com`,
    storage,
    voiceWidgetScriptUrl: config.voiceWidget?.scriptUrl ?? null,
  };
}

/**
 * The CSS sonner inserts as a <style> element when it loads, and its CSP hash. Read from
 * the installed package, so an upgrade of sonner updates the hash; if the package changes
 * how it inserts its styles this throws, and the synth and the local server fail loudly.
 */
export function sonnerStyleHash(): string {
  return styleHash(sonnerCss());
}

/**
 * sonner appends its <style> element empty, then its text: the browser checks both, so the
 * hash of the empty stylesheet is allowed too (it can style nothing).
 */
export const EMPTY_STYLE_HASH = styleHash('');

function styleHash(css: string): string {
  return `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
}

function sonnerCss(): string {
  const require = createRequire(import.meta.url);
  const file = require.resolve('sonner').replace(/index\.js$/, 'index.mjs');
  const match = /__insertCSS\(("(?:[^"\\]|\\.)*")\)/.exec(readFileSync(file, 'utf8'));
  if (!match) throw new Error(`sonner no longer inserts its CSS with __insertCSS("..."): see infra/stacks/security-headers.ts (${file})`);
  return JSON.parse(match[1]!) as string;
}

export function securityHeaders(origins: EdgeOrigins): SecurityHeaders {
  const widget = origins.voiceWidgetScriptUrl ? new URL(origins.voiceWidgetScriptUrl).origin : undefined;
  const storage = [...origins.storage];
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...(widget ? [widget] : [])],
    // React sets style props through the CSSOM, which CSP does not restrict: no 'unsafe-inline'
    ['style-src', "'self'", sonnerStyleHash(), EMPTY_STYLE_HASH],
    // blob: the previews of the photos a person picks, before the upload
    ['img-src', "'self'", 'data:', 'blob:', ...storage],
    ['media-src', "'self'", 'blob:', ...storage],
    ['font-src', "'self'"],
    ['connect-src', "'self'", origins.cognito, ...storage, ...(widget ? [widget] : [])],
    ['frame-src', ...(widget ? [widget] : ["'none'"])],
    ['worker-src', "'none'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ];
  return {
    contentSecurityPolicy: directives.map((d) => d.join(' ')).join('; '),
    strictTransportSecurity: { maxAgeSeconds: HSTS_MAX_AGE_SECONDS, includeSubdomains: true, preload: false },
    referrerPolicy: 'strict-origin-when-cross-origin',
    frameOptions: 'DENY',
    contentTypeOptions: 'nosniff',
    // the camera: the identity check of sellers and co-owners; the microphone only for the voice widget.
    // Only features Chromium knows: an unknown one ('bluetooth') is a console error on every page
    permissionsPolicy: [
      'camera=(self)',
      `microphone=(${widget ? `self "${widget}"` : ''})`,
      'geolocation=()',
      'usb=()',
      'serial=()',
      'hid=()',
      'midi=()',
      'display-capture=()',
    ].join(', '),
  };
}

/** The headers as a server sends them (lower-case names): what the local stand-in of CloudFront adds. */
export function headerValues(h: SecurityHeaders): Record<string, string> {
  const hsts = h.strictTransportSecurity;
  return {
    'content-security-policy': h.contentSecurityPolicy,
    'strict-transport-security': `max-age=${hsts.maxAgeSeconds}${hsts.includeSubdomains ? '; includeSubDomains' : ''}${hsts.preload ? '; preload' : ''}`,
    'referrer-policy': h.referrerPolicy,
    'x-frame-options': h.frameOptions,
    'x-content-type-options': h.contentTypeOptions,
    'permissions-policy': h.permissionsPolicy,
  };
}
