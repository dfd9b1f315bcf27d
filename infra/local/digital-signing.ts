/**
 * Test tooling for Italian "firma digitale": a test certification authority, signer
 * certificates shaped like Italian qualified ones (C=IT, givenName, surname, serialNumber
 * 'TINIT-<codice fiscale>', keyUsage nonRepudiation) and the two formats the signing apps
 * produce: CAdES-BES attached (.p7m) and PAdES (a signature appended to the PDF as an
 * incremental update). Used by the unit tests of functions/lib/digital-signature.ts and by
 * the local demo seed; never by the product. Keys are ECDSA P-256 (fast to generate).
 * Certificates are built with pkijs (not @peculiar/x509, which needs a Reflect metadata
 * polyfill the project does not have).
 */
import type { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, type PDFObject } from 'pdf-lib';
import * as pkijs from 'pkijs';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

export interface TestCa { certificate: Uint8Array /*DER*/; pem: string; keys: CryptoKeyPair; name: string }
export interface TestSigner { certificate: Uint8Array; keys: CryptoKeyPair; ca: TestCa; fiscalCode: string; name: string }

const crypto = globalThis.crypto;
pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto }));

const KEY_ALGORITHM: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const DAY = 24 * 60 * 60 * 1000;

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  country: '2.5.4.6',
  organization: '2.5.4.10',
  commonName: '2.5.4.3',
  givenName: '2.5.4.42',
  surname: '2.5.4.4',
  serialNumber: '2.5.4.5',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
};

function generateKeys(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
}

/**
 * A distinguished name, one attribute per RDN; country and serialNumber PrintableString
 * (X.520), the rest UTF8String. Built as DER and parsed back: pkijs would encode a name built
 * from its parts as a single multi-valued RDN (C=IT + O=... + CN=...).
 */
function distinguishedName(attributes: [type: string, value: string][]): pkijs.RelativeDistinguishedNames {
  const der = new asn1js.Sequence({
    value: attributes.map(([type, value]) => new asn1js.Set({
      value: [new pkijs.AttributeTypeAndValue({
        type,
        value: type === OID.country || type === OID.serialNumber ? new asn1js.PrintableString({ value }) : new asn1js.Utf8String({ value }),
      }).toSchema()],
    })),
  }).toBER(false);
  return new pkijs.RelativeDistinguishedNames({ schema: asn1js.fromBER(der).result });
}

function extension(extnID: string, critical: boolean, value: asn1js.BaseBlock): pkijs.Extension {
  return new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });
}

/** keyUsage as a DER BIT STRING: bit n is 0x80 >> n of the first byte (at most 8 bits here). */
function keyUsage(bits: number[]): asn1js.BitString {
  const byte = bits.reduce((acc, bit) => acc | (0x80 >> bit), 0);
  return new asn1js.BitString({ valueHex: new Uint8Array([byte]).buffer, unusedBits: 7 - Math.max(...bits) });
}

const KEY_USAGE = { digitalSignature: 0, nonRepudiation: 1, keyCertSign: 5, cRLSign: 6 };

/** SHA-1 of the subjectPublicKey bits (RFC 5280 key identifier, method 1). */
async function keyIdentifier(cert: pkijs.Certificate): Promise<ArrayBuffer> {
  return crypto.subtle.digest('SHA-1', new Uint8Array(cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView));
}

/** A certificate for `publicKey`, signed by `issuerKey` (ECDSA with SHA-256). */
async function certificate(opts: {
  subject: pkijs.RelativeDistinguishedNames; issuer: pkijs.RelativeDistinguishedNames; publicKey: CryptoKey; issuerKey: CryptoKey;
  issuerKeyId: ArrayBuffer | null; notBefore: Date; notAfter: Date; ca: boolean; usages: number[];
}): Promise<Uint8Array> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = crypto.getRandomValues(new Uint8Array(12));
  serial[0] = (serial[0]! & 0x7f) | 0x01; // positive, no leading zero byte
  cert.serialNumber = new asn1js.Integer({ valueHex: serial.buffer });
  cert.subject = opts.subject;
  cert.issuer = opts.issuer;
  cert.notBefore.value = opts.notBefore;
  cert.notAfter.value = opts.notAfter;
  await cert.subjectPublicKeyInfo.importKey(opts.publicKey);
  const ownKeyId = await keyIdentifier(cert);
  cert.extensions = [
    extension(OID.keyUsage, true, keyUsage(opts.usages)),
    extension(OID.subjectKeyIdentifier, false, new asn1js.OctetString({ valueHex: ownKeyId })),
  ];
  if (opts.ca) cert.extensions.unshift(extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: true }).toSchema()));
  const authorityKeyId = opts.issuerKeyId ?? ownKeyId;
  cert.extensions.push(extension(OID.authorityKeyIdentifier, false,
    new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: authorityKeyId }) }).toSchema()));
  await cert.sign(opts.issuerKey, 'SHA-256');
  return new Uint8Array(cert.toSchema(true).toBER(false));
}

function pem(der: Uint8Array): string {
  const base64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`;
}

export async function createTestCa(opts: { name?: string; notBefore?: Date; notAfter?: Date } = {}): Promise<TestCa> {
  const name = opts.name ?? 'Opzione Casa Test CA';
  const keys = await generateKeys();
  const dn = distinguishedName([[OID.country, 'IT'], [OID.organization, 'Opzione Casa Test'], [OID.commonName, name]]);
  const der = await certificate({
    subject: dn, issuer: dn, publicKey: keys.publicKey, issuerKey: keys.privateKey, issuerKeyId: null,
    notBefore: opts.notBefore ?? new Date(Date.now() - 365 * DAY),
    notAfter: opts.notAfter ?? new Date(Date.now() + 10 * 365 * DAY),
    ca: true, usages: [KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign],
  });
  return { certificate: der, pem: pem(der), keys, name };
}

export async function issueSignerCertificate(ca: TestCa, opts: {
  givenName: string; surname: string; fiscalCode: string; notBefore?: Date; notAfter?: Date; nonRepudiation?: boolean;
}): Promise<TestSigner> {
  const keys = await generateKeys();
  const name = `${opts.givenName} ${opts.surname}`;
  const caCert = parseCertificate(ca.certificate);
  const der = await certificate({
    subject: distinguishedName([
      [OID.country, 'IT'], [OID.givenName, opts.givenName], [OID.surname, opts.surname],
      [OID.serialNumber, `TINIT-${opts.fiscalCode}`], [OID.commonName, name],
    ]),
    issuer: caCert.subject,
    publicKey: keys.publicKey,
    issuerKey: ca.keys.privateKey,
    issuerKeyId: await keyIdentifier(caCert),
    notBefore: opts.notBefore ?? new Date(Date.now() - 30 * DAY),
    notAfter: opts.notAfter ?? new Date(Date.now() + 3 * 365 * DAY),
    ca: false,
    usages: [opts.nonRepudiation === false ? KEY_USAGE.digitalSignature : KEY_USAGE.nonRepudiation],
  });
  return { certificate: der, keys, ca, fiscalCode: opts.fiscalCode, name };
}

function parseCertificate(der: Uint8Array): pkijs.Certificate {
  return pkijs.Certificate.fromBER(new Uint8Array(der));
}

/** ESS signingCertificateV2 (RFC 5035): the SHA-256 of the signer certificate with its issuer and serial. */
async function signingCertificateV2(der: Uint8Array, cert: pkijs.Certificate): Promise<asn1js.Sequence> {
  const hash = await crypto.subtle.digest('SHA-256', new Uint8Array(der));
  const issuerSerial = new asn1js.Sequence({
    value: [
      // GeneralNames with one directoryName ([4] EXPLICIT Name)
      new asn1js.Sequence({ value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [cert.issuer.toSchema()] })] }),
      cert.serialNumber,
    ],
  });
  // ESSCertIDv2 with the default hash algorithm (SHA-256) omitted
  const essCertId = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: hash }), issuerSerial] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertId] })] });
}

/**
 * A CMS SignedData over `content`, one SignerInfo per signer with the CAdES-BES signed
 * attributes; the content encapsulated (attached) or, with `detached`, left out (PAdES).
 */
async function signedData(content: Uint8Array, signers: readonly TestSigner[], signingTime: Date, detached: boolean): Promise<Uint8Array> {
  const digest = await crypto.subtle.digest('SHA-256', new Uint8Array(content));
  const certificates = new Map<string, pkijs.Certificate>();
  const signerInfos: pkijs.SignerInfo[] = [];
  for (const signer of signers) {
    const cert = parseCertificate(signer.certificate);
    certificates.set(Buffer.from(signer.certificate).toString('hex'), cert);
    certificates.set(Buffer.from(signer.ca.certificate).toString('hex'), parseCertificate(signer.ca.certificate));
    signerInfos.push(new pkijs.SignerInfo({
      version: 1,
      sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
      signedAttrs: new pkijs.SignedAndUnsignedAttributes({
        type: 0,
        attributes: [
          new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
          new pkijs.Attribute({ type: OID.signingTime, values: [new asn1js.UTCTime({ valueDate: signingTime })] }),
          new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: digest })] }),
          new pkijs.Attribute({ type: OID.signingCertificateV2, values: [await signingCertificateV2(signer.certificate, cert)] }),
        ],
      }),
    }));
  }
  const encapContentInfo = new pkijs.EncapsulatedContentInfo({ eContentType: OID.data });
  // a primitive OCTET STRING (pkijs's constructor would chunk it into a constructed one: BER, not DER)
  if (!detached) encapContentInfo.eContent = new asn1js.OctetString({ valueHex: content });
  const cms = new pkijs.SignedData({
    version: 1,
    encapContentInfo,
    signerInfos,
    certificates: [...certificates.values()],
  });
  for (const [i, signer] of signers.entries()) await cms.sign(signer.keys.privateKey, i, 'SHA-256');
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: cms.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER());
}

/** CAdES-BES attached (.p7m): `content` encapsulated, one SignerInfo per signer. */
export async function signCades(content: Uint8Array, signers: readonly TestSigner[], opts: { signingTime?: Date } = {}): Promise<Uint8Array> {
  if (signers.length === 0) throw new Error('signCades needs at least one signer');
  return signedData(content, signers, opts.signingTime ?? new Date(), false);
}

// --- PAdES ---------------------------------------------------------------------------------

const CONTENTS_BYTES = 8192; // room for the CMS in /Contents (hex: twice as many characters)
const BYTE_RANGE_PLACEHOLDER = '/ByteRange [0 0000000000 0000000000 0000000000]';

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** PDF date string: D:YYYYMMDDHHmmSS+00'00'. */
function pdfDate(date: Date): string {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:mm:ss.sssZ
  return `D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}+00'00'`;
}

/** The last cross-reference section: where it is, whether it is a stream, and the trailer's /Size. */
function lastXref(text: string): { offset: number; isStream: boolean; size: number } {
  const at = text.lastIndexOf('startxref');
  const offset = Number(/startxref\s+(\d+)/.exec(text.slice(at))?.[1]);
  if (at < 0 || !Number.isInteger(offset)) throw new Error('PDF without startxref');
  const isStream = !text.startsWith('xref', offset);
  // the trailer dictionary (classic) or the xref stream dictionary, up to `stream`/startxref
  const tail = text.slice(offset, isStream ? text.indexOf('stream', offset) : at);
  const size = Number(/\/Size\s+(\d+)/.exec(tail)?.[1]);
  if (!Number.isInteger(size)) throw new Error('PDF trailer without /Size');
  return { offset, isStream, size };
}

/** The entries of an array that may be given directly or by reference. */
function arrayItems(doc: PDFDocument, value: PDFObject | undefined): PDFObject[] {
  const array = value instanceof PDFRef ? doc.context.lookup(value) : value;
  return array instanceof PDFArray ? array.asArray() : [];
}

/**
 * PAdES: appends an incremental update to `pdf` (earlier bytes untouched) with a signature
 * dictionary, an invisible signature field widget on the first page, the AcroForm listing it
 * (new versions of the catalog, the AcroForm and the page), and a cross-reference section of
 * the same kind as the previous one (a stream after pdf-lib's xref streams) with /Prev.
 */
export async function signPades(pdf: Uint8Array, signer: TestSigner, opts: { signingTime?: Date } = {}): Promise<Uint8Array> {
  const signingTime = opts.signingTime ?? new Date();
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const text = latin1(pdf);
  const prev = lastXref(text);
  let next = Math.max(prev.size, doc.context.largestObjectNumber + 1);
  const sigNumber = next++;
  const widgetNumber = next++;
  const catalogRef = doc.context.trailerInfo.Root as PDFRef;
  const catalog = doc.catalog;
  const page = doc.getPages()[0]!;

  // the AcroForm: a new version of the existing one (or a new object), with the field added
  const acroFormValue = catalog.get(PDFName.of('AcroForm'));
  const acroFormRef = acroFormValue instanceof PDFRef ? acroFormValue : PDFRef.of(next++);
  const acroFormOld = acroFormValue instanceof PDFRef ? doc.context.lookup(acroFormValue) : acroFormValue;
  const acroForm = acroFormOld instanceof PDFDict ? acroFormOld.clone(doc.context) : doc.context.obj({});
  const fields = arrayItems(doc, acroForm.get(PDFName.of('Fields')));
  acroForm.set(PDFName.of('Fields'), doc.context.obj([...fields, PDFRef.of(widgetNumber)]));
  acroForm.set(PDFName.of('SigFlags'), doc.context.obj(3));
  catalog.set(PDFName.of('AcroForm'), acroFormRef);
  const annots = arrayItems(doc, page.node.get(PDFName.of('Annots')));
  page.node.set(PDFName.of('Annots'), doc.context.obj([...annots, PDFRef.of(widgetNumber)]));

  const fieldName = `Firma${fields.length + 1}`;
  const placeholder = `<${'0'.repeat(CONTENTS_BYTES * 2)}>`;
  const objects: [number, string][] = [
    [sigNumber, `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached ${BYTE_RANGE_PLACEHOLDER} /Contents ${placeholder} /M (${pdfDate(signingTime)}) /Name (${signer.name.replace(/[()\\]/g, '')}) >>`],
    [widgetNumber, `<< /Type /Annot /Subtype /Widget /FT /Sig /T (${fieldName}) /V ${sigNumber} 0 R /F 132 /Rect [0 0 0 0] /P ${page.ref.toString()} >>`],
    [acroFormRef.objectNumber, acroForm.toString()],
    [catalogRef.objectNumber, catalog.toString()],
    [page.ref.objectNumber, page.node.toString()],
  ];

  // the update's body, remembering where each object starts (offsets in the whole file)
  let update = '\n';
  const offsets = new Map<number, number>();
  for (const [number, body] of objects) {
    offsets.set(number, pdf.length + update.length);
    update += `${number} 0 obj\n${body}\nendobj\n`;
  }
  const xrefOffset = pdf.length + update.length;
  const trailer = [`/Size ${next + (prev.isStream ? 1 : 0)}`, `/Root ${catalogRef.toString()}`, `/Prev ${prev.offset}`];
  if (doc.context.trailerInfo.Info) trailer.push(`/Info ${doc.context.trailerInfo.Info.toString()}`);
  if (doc.context.trailerInfo.ID) trailer.push(`/ID ${doc.context.trailerInfo.ID.toString()}`);
  if (prev.isStream) update += xrefStream(next, xrefOffset, offsets, trailer);
  else update += xrefTable(offsets, trailer);
  update += `startxref\n${xrefOffset}\n%%EOF\n`;

  // the byte range: everything but the /Contents hex string (its `<` and `>` included in the hole)
  const file = new Uint8Array(Buffer.concat([pdf, Buffer.from(update, 'latin1')]));
  const whole = latin1(file);
  const holeStart = whole.indexOf(placeholder, pdf.length);
  const holeEnd = holeStart + placeholder.length;
  const byteRange = `/ByteRange [0 ${holeStart} ${holeEnd} ${file.length - holeEnd}]`;
  file.set(Buffer.from(byteRange.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' '), 'latin1'), whole.indexOf(BYTE_RANGE_PLACEHOLDER, pdf.length));
  const signed = Buffer.concat([file.subarray(0, holeStart), file.subarray(holeEnd)]);
  const cms = await signedData(new Uint8Array(signed), [signer], signingTime, true);
  if (cms.length > CONTENTS_BYTES) throw new Error('CMS larger than the /Contents placeholder');
  file.set(Buffer.from(Buffer.from(cms).toString('hex').toUpperCase().padEnd(CONTENTS_BYTES * 2, '0'), 'latin1'), holeStart + 1);
  return file;
}

/** Classic cross-reference table (one subsection per object) and trailer. */
function xrefTable(offsets: Map<number, number>, trailer: string[]): string {
  let xref = 'xref\n0 1\n0000000000 65535 f\r\n';
  for (const [number, offset] of [...offsets].sort((a, b) => a[0] - b[0])) {
    xref += `${number} 1\n${String(offset).padStart(10, '0')} 00000 n\r\n`;
  }
  return `${xref}trailer\n<< ${trailer.join(' ')} >>\n`;
}

/** Uncompressed cross-reference stream (object `number`, at `offset`, listing itself too). */
function xrefStream(number: number, offset: number, offsets: Map<number, number>, trailer: string[]): string {
  const entries = [...offsets, [number, offset] as [number, number]].sort((a, b) => a[0] - b[0]);
  // /W [1 4 2]: type 1 (in use), 4-byte offset, 2-byte generation
  const data = Buffer.alloc(entries.length * 7);
  entries.forEach(([, at], i) => {
    data.writeUInt8(1, i * 7);
    data.writeUInt32BE(at, i * 7 + 1);
    data.writeUInt16BE(0, i * 7 + 5);
  });
  const index = entries.map(([n]) => `${n} 1`).join(' ');
  const dict = `<< /Type /XRef ${trailer.join(' ')} /Index [${index}] /W [1 4 2] /Length ${data.length} >>`;
  return `${number} 0 obj\n${dict}\nstream\n${data.toString('latin1')}\nendstream\nendobj\n`;
}
