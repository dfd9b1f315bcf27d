import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { edgeOriginsOf, headerValues, securityHeaders, sonnerStyleHash } from '../../infra/stacks/security-headers';

const MEDIA = 'https://media-bucket.s3.eu-south-1.amazonaws.com';
const OMI = 'https://omi-bucket.s3.eu-south-1.amazonaws.com';
const WIDGET = 'https://voice.example.test/v2/widget.js';

const aws = (voiceWidget: { scriptUrl: string } | null = null) =>
  securityHeaders(edgeOriginsOf({ region: 'eu-south-1', voiceWidget: voiceWidget as never }, [MEDIA, OMI]));

/** `directive -> sources` of a CSP string. */
function csp(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(';').map((d) => {
      const [name, ...sources] = d.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

describe('content security policy', () => {
  it('runs only the site\'s own scripts: no inline script, no eval, nothing third-party without a widget', () => {
    const p = csp(aws().contentSecurityPolicy);
    expect(p['script-src']).toEqual(["'self'"]);
    expect(p['default-src']).toEqual(["'self'"]);
    expect(aws().contentSecurityPolicy).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(p['object-src']).toEqual(["'none'"]);
    expect(p['base-uri']).toEqual(["'self'"]);
    expect(p['frame-src']).toEqual(["'none'"]);
  });

  it('may not be framed by anyone', () => {
    expect(csp(aws().contentSecurityPolicy)['frame-ancestors']).toEqual(["'none'"]);
    expect(aws().frameOptions).toBe('DENY');
  });

  it('connects only to the site, the Cognito endpoint of the region and the buckets', () => {
    const p = csp(aws().contentSecurityPolicy);
    expect(p['connect-src']).toEqual(["'self'", 'https://cognito-idp.eu-south-1.amazonaws.com', MEDIA, OMI]);
    expect(p['img-src']).toEqual(["'self'", 'data:', 'blob:', MEDIA, OMI]);
    expect(p['media-src']).toEqual(["'self'", 'blob:', MEDIA, OMI]);
  });

  it('allows the voice widget\'s origin (scripts, frames, its connections, the microphone) only when configured', () => {
    const h = aws({ scriptUrl: WIDGET });
    const p = csp(h.contentSecurityPolicy);
    expect(p['script-src']).toEqual(["'self'", 'https://voice.example.test']);
    expect(p['frame-src']).toEqual(['https://voice.example.test']);
    expect(p['connect-src']).toContain('https://voice.example.test');
    expect(h.permissionsPolicy).toContain('microphone=(self "https://voice.example.test")');
    expect(aws().permissionsPolicy).toContain('microphone=()');
    expect(aws().contentSecurityPolicy).not.toContain('voice.example.test');
  });

  it('uses the local emulators\' origins when the runtime configuration names them', () => {
    const local = securityHeaders(edgeOriginsOf({ region: 'eu-south-1', cognitoEndpoint: 'http://127.0.0.1:9229', voiceWidget: null }, ['http://127.0.0.1:4569']));
    expect(csp(local.contentSecurityPolicy)['connect-src']).toEqual(["'self'", 'http://127.0.0.1:9229', 'http://127.0.0.1:4569']);
  });

  it('allows styles from the site and, by their hashes, exactly the stylesheet sonner inserts (and the empty one it starts from)', () => {
    const p = csp(aws().contentSecurityPolicy);
    expect(p['style-src']).toEqual(["'self'", sonnerStyleHash(), "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"]);
    const source = readFileSync('node_modules/sonner/dist/index.mjs', 'utf8');
    const css = JSON.parse(/__insertCSS\(("(?:[^"\\]|\\.)*")\)/.exec(source)![1]!) as string;
    expect(css).toContain('[data-sonner-toaster]');
    expect(sonnerStyleHash()).toBe(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
  });
});

describe('the other security headers', () => {
  it('sends HSTS for two years with subdomains, a referrer policy, nosniff and a permissions policy with the camera', () => {
    expect(headerValues(aws())).toEqual({
      'content-security-policy': aws().contentSecurityPolicy,
      'strict-transport-security': 'max-age=63072000; includeSubDomains',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'permissions-policy': expect.stringContaining('camera=(self)'),
    });
    expect(aws().permissionsPolicy).toMatch(/geolocation=\(\)/);
  });
});
