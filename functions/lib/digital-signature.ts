/**
 * Verification of an Italian "firma digitale" over a document the product generated: a
 * CAdES .p7m (CMS SignedData with the PDF encapsulated, possibly nested: one envelope per
 * signer, as Italian signing apps countersign) or a PAdES PDF (signatures appended to the
 * generated PDF as incremental updates). Pure computation: the caller gives the uploaded
 * file, the expected PDF, the trusted CA certificates and the clock. Revocation (CRL, OCSP)
 * is not checked here.
 */
import type * as Asn1js from 'asn1js';
import type * as Pkijs from 'pkijs';
import { fiscalCodeOfSerialNumber, type DigitalSigner, type SignatureFormat, type SignatureRefusal } from '../domain/onboarding/digital-signature';
import { changesBeyondSignatures } from './pdf-revisions';

/**
 * A verified signer (domain/onboarding/digital-signature.ts DigitalSigner): name from givenName +
 * surname (else CN), codice fiscale from the subject serialNumber, issuer CN (else O, else the
 * DN), signingTime the signed attribute (PAdES without it: the dictionary's /M), serial in hex.
 */
export type VerifiedSigner = DigitalSigner & { certificateSerial: string };
export type VerifyResult = { ok: true; format: SignatureFormat; signers: VerifiedSigner[] } | { ok: false; refusal: SignatureRefusal };

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  commonName: '2.5.4.3',
  surname: '2.5.4.4',
  serialNumber: '2.5.4.5',
  organization: '2.5.4.10',
  givenName: '2.5.4.42',
};
const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN', '2.5.4.4': 'SN', '2.5.4.5': 'serialNumber', '2.5.4.6': 'C', '2.5.4.7': 'L', '2.5.4.8': 'ST',
  '2.5.4.10': 'O', '2.5.4.11': 'OU', '2.5.4.42': 'GN', '2.5.4.97': 'organizationIdentifier',
};
/** Clock skew tolerated on the signing time. */
const SKEW_MS = 5 * 60 * 1000;
/** Nested envelopes unwrapped at most (a p7m of a p7m of ...). */
const MAX_NESTING = 8;
const PADES_SUBFILTERS = new Set(['ETSI.CAdES.detached', 'adbe.pkcs7.detached']);

/**
 * pkijs and asn1js (~400 KB, from the functions' layer: infra/lambda-bundle), loaded by the
 * first verification rather than at every start of the functions that may run one.
 */
let asn1js: typeof Asn1js;
let pkijs: typeof Pkijs;
let loading: Promise<void> | undefined;
function loadPki(): Promise<void> {
  loading ??= Promise.all([import('asn1js'), import('pkijs')]).then(
    ([a, p]) => {
      asn1js = a;
      pkijs = p;
      pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto: globalThis.crypto }));
    },
    (err: unknown) => {
      // tried again by the next verification
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/** One SignerInfo to verify: its SignedData, its index, the detached data (PAdES) and the PDF /M date. */
interface SignerToCheck { cms: Pkijs.SignedData; index: number; data?: ArrayBuffer; pdfTime: Date | null }

const refuse = (refusal: SignatureRefusal): VerifyResult => ({ ok: false, refusal });
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return bytes.length >= prefix.length && Buffer.from(bytes.buffer, bytes.byteOffset, prefix.length).equals(prefix);
}

export async function verifySignedDocument(input: {
  file: Uint8Array;
  expected: Uint8Array;
  trustAnchors: readonly Uint8Array[];
  now: Date;
  notBefore?: Date;
}): Promise<VerifyResult> {
  await loadPki();
  try {
    const isPdf = latin1(input.file.subarray(0, 4)) === '%PDF';
    const parsed = isPdf ? readPades(input.file, input.expected) : readCades(input.file, input.expected);
    if (!Array.isArray(parsed)) return refuse(parsed);
    return await checkSigners(isPdf ? 'PAdES' : 'CAdES', parsed, input);
  } catch {
    // unexpected shapes that slipped past the parsers: never throw on an upload
    return refuse({ code: 'not-signed' });
  }
}

// --- reading the containers ----------------------------------------------------------------

/** The CMS SignedData in `der`, or null; `exact` demands that nothing follow it. */
function readSignedData(der: Uint8Array, exact: boolean): Pkijs.SignedData | null {
  if (der[0] !== 0x30) return null;
  try {
    const asn = asn1js.fromBER(der);
    if (asn.offset === -1 || (exact && asn.offset !== der.length)) return null;
    const info = new pkijs.ContentInfo({ schema: asn.result });
    if (info.contentType !== OID.signedData) return null;
    return new pkijs.SignedData({ schema: info.content });
  } catch {
    return null;
  }
}

/** DER as is, or the base64 (PEM armour allowed) some tools write. */
function derOf(file: Uint8Array): Uint8Array | null {
  if (file[0] === 0x30) return file;
  const text = latin1(file).replace(/-----[A-Z0-9 ]+-----/g, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/** CAdES: unwrap the envelopes down to the document; signers innermost (first to sign) first. */
function readCades(file: Uint8Array, expected: Uint8Array): SignerToCheck[] | SignatureRefusal {
  const der = derOf(file);
  let cms = der && readSignedData(der, false);
  if (!cms) return { code: 'not-signed' };
  const levels: Pkijs.SignedData[] = [];
  let content: Uint8Array | null = null;
  for (let depth = 0; cms && depth < MAX_NESTING; depth++) {
    // a detached SignedData does not carry the document
    if (!cms.encapContentInfo.eContent) return { code: 'not-signed' };
    levels.unshift(cms);
    content = new Uint8Array(cms.encapContentInfo.eContent.getValue());
    cms = readSignedData(content, true);
  }
  if (!content || !Buffer.from(content).equals(expected)) return { code: 'content-mismatch' };
  return levels.flatMap((level) => level.signerInfos.map((_, index) => ({ cms: level, index, pdfTime: null })));
}

/** PDF date (D:YYYYMMDDHHmmSS+HH'mm') as a Date, or null. */
function pdfDate(value: string | undefined): Date | null {
  const m = value && /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(\d{2})?'?(\d{2})?'?)?/.exec(value);
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = m;
  const offset = sign === '+' || sign === '-' ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  const time = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offset * 60_000;
  return Number.isNaN(time) ? null : new Date(time);
}

/**
 * PAdES: every signature dictionary (a /ByteRange with its /Contents in the same object), in
 * file order, each verified over its two byte ranges. The file must be the expected PDF plus
 * incremental updates that only add signatures (./pdf-revisions.ts), and the last signature
 * must cover everything but its own /Contents.
 */
function readPades(file: Uint8Array, expected: Uint8Array): SignerToCheck[] | SignatureRefusal {
  const text = latin1(file);
  const entries: { range: number[] | null; holeStart: number; holeEnd: number; cms: Pkijs.SignedData; pdfTime: Date | null }[] = [];
  for (const m of text.matchAll(/\/ByteRange\s*\[([^\]]*)\]/g)) {
    // the enclosing indirect object: from its `obj` to its `endobj`
    const objStart = text.lastIndexOf('obj', m.index);
    const objEnd = text.indexOf('endobj', m.index);
    if (objStart < 0 || objEnd < 0) return { code: 'not-signed' };
    const dict = text.slice(objStart, objEnd);
    const contents = [...dict.matchAll(/\/Contents\s*<([0-9A-Fa-f]*)>/g)];
    const subFilter = /\/SubFilter\s*\/([^\s/<>[\]()]+)/.exec(dict)?.[1];
    if (contents.length !== 1 || (subFilter !== undefined && !PADES_SUBFILTERS.has(subFilter))) return { code: 'not-signed' };
    const hex = contents[0]![1]!;
    const cms = hex.length % 2 === 0 ? readSignedData(new Uint8Array(Buffer.from(hex, 'hex')), false) : null;
    // PAdES signatures are detached: an encapsulated content would be verified instead of the PDF
    if (!cms || cms.encapContentInfo.eContent) return { code: 'not-signed' };
    const holeStart = objStart + contents[0]!.index + contents[0]![0].indexOf('<');
    const numbers = m[1]!.trim().split(/\s+/);
    const range = numbers.length === 4 && numbers.every((n) => /^\d{1,15}$/.test(n)) ? numbers.map(Number) : null;
    entries.push({ range, holeStart, holeEnd: holeStart + hex.length + 2, cms, pdfTime: pdfDate(/\/M\s*\(([^)]*)\)/.exec(dict)?.[1]) });
  }
  if (entries.length === 0) return { code: 'not-signed' };
  // signatures appended to the generated PDF, each covering at least all of it
  if (!startsWith(file, expected) || entries.some((e) => e.holeStart < expected.length)) return { code: 'content-mismatch' };
  const signers: SignerToCheck[] = [];
  for (const [i, e] of entries.entries()) {
    if (!e.range) return { code: 'bad-signature' };
    const [a, b, c, d] = e.range as [number, number, number, number];
    // the hole is exactly the <hex> of /Contents; the last signature reaches the end of the file
    const last = i === entries.length - 1;
    if (a !== 0 || b !== e.holeStart || c !== e.holeEnd || c + d > file.length || (last && c + d !== file.length)) return { code: 'bad-signature' };
    const data = new Uint8Array(b + d);
    data.set(file.subarray(0, b));
    data.set(file.subarray(c, c + d), b);
    for (const index of e.cms.signerInfos.keys()) signers.push({ cms: e.cms, index, data: data.buffer, pdfTime: e.pdfTime });
  }
  // what the signed updates add: signatures only, never a change of the document shown
  if (changesBeyondSignatures(file, expected.length) !== null) return { code: 'pdf-changed' };
  return signers;
}

// --- the signers -----------------------------------------------------------------------------

/** The signer certificate when the SignerInfo's digest and signature verify, else null. */
async function verifiedCertificate(s: SignerToCheck): Promise<Pkijs.Certificate | null> {
  const info = s.cms.signerInfos[s.index];
  // CAdES/PAdES: signed attributes with the message digest are mandatory
  if (!info?.signedAttrs?.attributes.some((a) => a.type === OID.messageDigest)) return null;
  try {
    const result = await s.cms.verify({ signer: s.index, data: s.data, checkChain: false, extendedMode: true });
    return result.signatureVerified === true ? result.signerCertificate ?? null : null;
  } catch {
    return null;
  }
}

function signingTimeOf(s: SignerToCheck): Date | null {
  const attr = s.cms.signerInfos[s.index]?.signedAttrs?.attributes.find((a) => a.type === OID.signingTime);
  const value = attr?.values[0] as { toDate?: () => Date } | undefined;
  const date = typeof value?.toDate === 'function' ? value.toDate() : null;
  return date && !Number.isNaN(date.getTime()) ? date : s.pdfTime;
}

function nameValues(name: Pkijs.RelativeDistinguishedNames, type: string): string[] {
  return name.typesAndValues.filter((tv) => tv.type === type).map((tv) => String(tv.value.valueBlock.value ?? '').trim());
}

function distinguishedName(name: Pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues.map((tv) => `${SHORT_NAMES[tv.type] ?? tv.type}=${String(tv.value.valueBlock.value ?? '')}`).join(', ');
}

function signerInfoOf(cert: Pkijs.Certificate, signingTime: Date | null): VerifiedSigner {
  const { subject, issuer } = cert;
  const person = [...nameValues(subject, OID.givenName), ...nameValues(subject, OID.surname)].join(' ');
  const serial = nameValues(subject, OID.serialNumber)[0];
  const hex = Buffer.from(cert.serialNumber.valueBlock.valueHexView).toString('hex').replace(/^(00)+(?=.)/, '');
  return {
    name: person || nameValues(subject, OID.commonName)[0] || distinguishedName(subject),
    fiscalCode: fiscalCodeOfSerialNumber(serial),
    issuer: nameValues(issuer, OID.commonName)[0] || nameValues(issuer, OID.organization)[0] || distinguishedName(issuer),
    signingTime: signingTime ? signingTime.toISOString() : null,
    certificateSerial: hex,
  };
}

function hasNonRepudiation(cert: Pkijs.Certificate): boolean {
  const ext = cert.extensions?.find((e) => e.extnID === OID.keyUsage);
  const bits = ext?.parsedValue instanceof asn1js.BitString ? ext.parsedValue.valueBlock.valueHexView : undefined;
  return ((bits?.[0] ?? 0) & 0x40) !== 0; // bit 1: nonRepudiation (contentCommitment)
}

function isCa(cert: Pkijs.Certificate): boolean {
  const ext = cert.extensions?.find((e) => e.extnID === OID.basicConstraints);
  return ext?.parsedValue instanceof pkijs.BasicConstraints && !!ext.parsedValue.cA;
}

/** Whether `cert` chains to an anchor at `at`, through CA certificates embedded in the CMS. */
async function chainsToAnchor(cert: Pkijs.Certificate, cms: Pkijs.SignedData, anchors: Pkijs.Certificate[], at: Date): Promise<boolean> {
  if (anchors.length === 0) return false;
  const intermediates = (cms.certificates ?? []).filter(
    (c): c is Pkijs.Certificate => c instanceof pkijs.Certificate && isCa(c) && !(c.issuer.isEqual(cert.issuer) && c.serialNumber.isEqual(cert.serialNumber)),
  );
  // the engine takes the last certificate as the one to validate
  const engine = new pkijs.CertificateChainValidationEngine({ trustedCerts: anchors, certs: [...intermediates, cert], checkDate: at });
  try {
    return (await engine.verify()).result === true;
  } catch {
    return false;
  }
}

function parseAnchors(ders: readonly Uint8Array[]): Pkijs.Certificate[] {
  return ders.flatMap((der) => {
    try {
      return [pkijs.Certificate.fromBER(der)];
    } catch {
      return [];
    }
  });
}

/** Every signer, rule by rule in the order of the refusals: the first failing rule wins. */
async function checkSigners(
  format: SignatureFormat,
  toCheck: SignerToCheck[],
  input: { trustAnchors: readonly Uint8Array[]; now: Date; notBefore?: Date },
): Promise<VerifyResult> {
  if (toCheck.length === 0) return refuse({ code: 'not-signed' });
  const signers: { s: SignerToCheck; cert: Pkijs.Certificate; time: Date | null; info: VerifiedSigner }[] = [];
  for (const s of toCheck) {
    const cert = await verifiedCertificate(s);
    if (!cert) return refuse({ code: 'bad-signature' });
    const time = signingTimeOf(s);
    signers.push({ s, cert, time, info: signerInfoOf(cert, time) });
  }
  for (const { cert, info } of signers) {
    if (!hasNonRepudiation(cert)) return refuse({ code: 'not-signing-certificate', signer: info.name });
  }
  for (const { cert, time, info } of signers) {
    const at = (time ?? input.now).getTime();
    if (at < cert.notBefore.value.getTime() || at > cert.notAfter.value.getTime()) return refuse({ code: 'certificate-expired', signer: info.name });
  }
  for (const { time, info } of signers) {
    if (!time) continue;
    const future = time.getTime() > input.now.getTime() + SKEW_MS;
    const early = input.notBefore !== undefined && time.getTime() < input.notBefore.getTime() - SKEW_MS;
    if (future || early) return refuse({ code: 'signing-time', signer: info.name });
  }
  const anchors = parseAnchors(input.trustAnchors);
  for (const { s, cert, time, info } of signers) {
    if (!(await chainsToAnchor(cert, s.cms, anchors, time ?? input.now))) return refuse({ code: 'untrusted', signer: info.name });
  }
  return { ok: true, format, signers: signers.map((x) => x.info) };
}
