/**
 * The synthetic trusted list of test/fixtures/trusted-list (see its README) and its
 * certificates, for the parser's unit test and the refresh's integration test.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

export const TSL_FIXTURE = readFileSync(new URL('../fixtures/trusted-list/tsl-it.xml', import.meta.url), 'utf8');

/** The fixture's certificates by the name after "Fixture " in their CN. */
export type FixtureCert = 'ca-qc-1' | 'ca-qc-2' | 'withdrawn' | 'tsa' | 'wsa' | 'scheme operator';

const CERT_ELEMENT = /<(\w+:)?X509Certificate>([^<]+)<\/(\w+:)?X509Certificate>/g;

/** The base64 DER of the fixture's certificate `name`. */
export function fixtureCert(name: FixtureCert, xml = TSL_FIXTURE): string {
  for (const m of xml.matchAll(CERT_ELEMENT)) {
    const b64 = m[2]!.replace(/\s+/g, '');
    if (new X509Certificate(Buffer.from(b64, 'base64')).subject.split('\n').includes(`CN=Fixture ${name}`)) return b64;
  }
  throw new Error(`no certificate "Fixture ${name}" in the trusted list fixture`);
}

export const derOf = (b64: string): Uint8Array => new Uint8Array(Buffer.from(b64, 'base64'));

/** sha256 hex of a certificate's DER: the name of its object in the trust store. */
export const hashOf = (der: Uint8Array | string): string =>
  createHash('sha256').update(typeof der === 'string' ? derOf(der) : der).digest('hex');

/** The fixture with `name`'s DigitalId removed from the granted CA. */
export function withoutCert(xml: string, name: FixtureCert): string {
  const b64 = fixtureCert(name, xml);
  const out = xml.replace(/<(\w+:)?DigitalId>\s*<(\w+:)?X509Certificate>([^<]+)<\/(\w+:)?X509Certificate>\s*<\/(\w+:)?DigitalId>\s*/g, (element, _a, _b, content: string) =>
    content.replace(/\s+/g, '') === b64 ? '' : element,
  );
  if (out === xml) throw new Error(`no DigitalId of ${name}`);
  return out;
}

/** The fixture with another TSLSequenceNumber. */
export function withSequence(xml: string, sequence: number): string {
  return xml.replace(/<(\w+:)?TSLSequenceNumber>\d+</, (_m, prefix?: string) => `<${prefix ?? ''}TSLSequenceNumber>${sequence}<`);
}
