/**
 * Verification of the signed documents (functions/lib/digital-signature.ts): CAdES .p7m (one
 * and two signers, nested envelopes, base64) and PAdES (one and two signatures) over a real
 * product PDF, and every refusal with its exact code. The CA, the signers and the documents
 * are made once (infra/local/digital-signing.ts, ECDSA P-256).
 */
import { X509Certificate } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRef } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifySignedDocument, type VerifyResult } from '../../functions/lib/digital-signature';
import { changesBeyondSignatures } from '../../functions/lib/pdf-revisions';
import { renderDocumentPdf } from '../../functions/lib/pdf';
import { fileTypeRefusal, sniffFileType } from '../../functions/domain/file-type';
import {
  DIGITAL_SIGNATURE_MESSAGES,
  fiscalCodeOfSerialNumber,
  missingSignerMessage,
  signatureModeOf,
  signatureRefusalMessage,
} from '../../functions/domain/onboarding/digital-signature';
import {
  createTestCa, issueSignerCertificate, signCades, signPades, type TestCa, type TestSigner,
} from '../../infra/local/digital-signing';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const NOW = new Date('2025-06-02T10:00:00Z');
/** when the product generated the document */
const GENERATED = new Date(NOW.getTime() - 2 * DAY);
/** when the signers signed it */
const SIGNED = new Date(NOW.getTime() - DAY);

let ca: TestCa;
let otherCa: TestCa;
let mario: TestSigner;
let anna: TestSigner;
let expired: TestSigner;
let stranger: TestSigner;
let noRepudiation: TestSigner;
let pdf: Uint8Array;
let modifiedPdf: Uint8Array;

function verify(file: Uint8Array, expected = pdf, opts: { anchors?: Uint8Array[]; notBefore?: Date } = {}): Promise<VerifyResult> {
  return verifySignedDocument({ file, expected, trustAnchors: opts.anchors ?? [ca.certificate], now: NOW, notBefore: opts.notBefore ?? GENERATED });
}

function refusal(result: VerifyResult) {
  return result.ok ? undefined : result.refusal;
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

beforeAll(async () => {
  const caValidity = { notBefore: new Date(NOW.getTime() - 365 * DAY), notAfter: new Date(NOW.getTime() + 5 * 365 * DAY) };
  ca = await createTestCa({ name: 'Test Qualified CA', ...caValidity });
  otherCa = await createTestCa({ name: 'Altra CA', ...caValidity });
  const validity = { notBefore: new Date(NOW.getTime() - 30 * DAY), notAfter: new Date(NOW.getTime() + 365 * DAY) };
  [mario, anna, expired, stranger, noRepudiation] = await Promise.all([
    issueSignerCertificate(ca, { givenName: 'Mario', surname: 'Rossi', fiscalCode: 'RSSMRA80A01H501U', ...validity }),
    issueSignerCertificate(ca, { givenName: 'Anna', surname: 'Bianchi', fiscalCode: 'BNCNNA85M41F205X', ...validity }),
    issueSignerCertificate(ca, {
      givenName: 'Luca', surname: 'Verdi', fiscalCode: 'VRDLCU70C15L219K',
      notBefore: new Date(NOW.getTime() - 400 * DAY), notAfter: new Date(NOW.getTime() - 10 * DAY),
    }),
    issueSignerCertificate(otherCa, { givenName: 'Paolo', surname: 'Neri', fiscalCode: 'NREPLA75D10A944Z', ...validity }),
    issueSignerCertificate(ca, { givenName: 'Sara', surname: 'Gialli', fiscalCode: 'GLLSRA90E50L736P', nonRepudiation: false, ...validity }),
  ]);
  const content = (title: string) => ({
    title,
    subtitle: 'Documento generato per la firma digitale',
    sections: Array.from({ length: 6 }, (_, i) => ({
      title: `Articolo ${i + 1}`,
      lines: Array.from({ length: 6 }, () => 'Il venditore concede in opzione l\'immobile alle condizioni qui descritte, valide per il periodo indicato.'),
    })),
  });
  pdf = await renderDocumentPdf(content('Opzione di vendita'));
  modifiedPdf = await renderDocumentPdf(content('Opzione di vendita (modificata)'));
});

describe('the test PDF', () => {
  it('has two pages', async () => {
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(2);
  });
});

describe('CAdES (.p7m)', () => {
  it('accepts one signer and returns who signed, when, with which certificate', async () => {
    const result = await verify(await signCades(pdf, [mario], { signingTime: SIGNED }));
    expect(result).toEqual({
      ok: true,
      format: 'CAdES',
      signers: [{
        name: 'Mario Rossi',
        fiscalCode: 'RSSMRA80A01H501U',
        issuer: 'Test Qualified CA',
        signingTime: SIGNED.toISOString(),
        certificateSerial: new X509Certificate(mario.certificate).serialNumber.toLowerCase(),
      }],
    });
  });

  it('accepts two signers in one SignedData', async () => {
    const result = await verify(await signCades(pdf, [mario, anna], { signingTime: SIGNED }));
    expect(result.ok && result.signers.map((s) => s.name)).toEqual(['Mario Rossi', 'Anna Bianchi']);
  });

  it('accepts nested envelopes (a p7m of a p7m), signers in signing order', async () => {
    const inner = await signCades(pdf, [mario], { signingTime: SIGNED });
    const outer = await signCades(inner, [anna], { signingTime: new Date(SIGNED.getTime() + HOUR) });
    const result = await verify(outer);
    expect(result.ok && result.format).toBe('CAdES');
    expect(result.ok && result.signers.map((s) => [s.name, s.fiscalCode])).toEqual([
      ['Mario Rossi', 'RSSMRA80A01H501U'], ['Anna Bianchi', 'BNCNNA85M41F205X'],
    ]);
  });

  it('accepts the base64 of the DER, as some tools write it', async () => {
    const der = await signCades(pdf, [mario], { signingTime: SIGNED });
    const base64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\r\n');
    expect((await verify(new Uint8Array(Buffer.from(base64, 'latin1')))).ok).toBe(true);
  });

  it('refuses a signed document other than the expected one (content-mismatch)', async () => {
    expect(refusal(await verify(await signCades(modifiedPdf, [mario], { signingTime: SIGNED })))).toEqual({ code: 'content-mismatch' });
    // nested: the innermost content decides
    const nested = await signCades(await signCades(modifiedPdf, [mario], { signingTime: SIGNED }), [anna], { signingTime: SIGNED });
    expect(refusal(await verify(nested))).toEqual({ code: 'content-mismatch' });
  });

  it('refuses a tampered signature value (bad-signature)', async () => {
    const p7m = await signCades(pdf, [mario], { signingTime: SIGNED });
    // the file ends with the last SignerInfo's signature (ECDSA's s): change its last byte
    const tampered = p7m.slice();
    tampered[tampered.length - 1]! ^= 0x01;
    expect(refusal(await verify(tampered))).toEqual({ code: 'bad-signature' });
  });

  it('refuses tampered signed attributes (bad-signature)', async () => {
    const p7m = await signCades(pdf, [mario], { signingTime: SIGNED });
    // the signingTime attribute's UTCTime (YYMMDDHHMMSSZ): one second later
    const text = latin1(p7m);
    const utc = SIGNED.toISOString().replace(/\D/g, '').slice(2, 14) + 'Z';
    const at = text.indexOf(utc);
    expect(at).toBeGreaterThan(0);
    const tampered = p7m.slice();
    tampered[at + 11] = tampered[at + 11]! + 1;
    expect(refusal(await verify(tampered))).toEqual({ code: 'bad-signature' });
  });

  it('refuses a certificate without nonRepudiation (not-signing-certificate)', async () => {
    const result = await verify(await signCades(pdf, [mario, noRepudiation], { signingTime: SIGNED }));
    expect(refusal(result)).toEqual({ code: 'not-signing-certificate', signer: 'Sara Gialli' });
  });

  it('refuses a certificate expired at the signing time (certificate-expired)', async () => {
    expect(refusal(await verify(await signCades(pdf, [expired], { signingTime: SIGNED })))).toEqual({ code: 'certificate-expired', signer: 'Luca Verdi' });
  });

  it('refuses a signing time before the document existed or in the future (signing-time)', async () => {
    const early = await signCades(pdf, [mario], { signingTime: new Date(GENERATED.getTime() - HOUR) });
    expect(refusal(await verify(early))).toEqual({ code: 'signing-time', signer: 'Mario Rossi' });
    const future = await signCades(pdf, [mario], { signingTime: new Date(NOW.getTime() + HOUR) });
    expect(refusal(await verify(future))).toEqual({ code: 'signing-time', signer: 'Mario Rossi' });
    // within the 5 minutes of clock skew
    const skewed = await signCades(pdf, [mario], { signingTime: new Date(NOW.getTime() + 2 * 60 * 1000) });
    expect((await verify(skewed)).ok).toBe(true);
  });

  it('refuses a certificate from a CA that is not trusted (untrusted)', async () => {
    expect(refusal(await verify(await signCades(pdf, [stranger], { signingTime: SIGNED })))).toEqual({ code: 'untrusted', signer: 'Paolo Neri' });
    // trusted once its CA is an anchor
    expect((await verify(await signCades(pdf, [stranger], { signingTime: SIGNED }), pdf, { anchors: [ca.certificate, otherCa.certificate] })).ok).toBe(true);
  });

  it('refuses by the first failing rule, whatever the signer order', async () => {
    // expired (certificate-expired) beats untrusted, whichever signer comes first
    const p7m = await signCades(pdf, [stranger, expired], { signingTime: SIGNED });
    expect(refusal(await verify(p7m))).toEqual({ code: 'certificate-expired', signer: 'Luca Verdi' });
  });
});

describe('PAdES (signed PDF)', () => {
  it('accepts one signature, and pdf-lib still opens the file', async () => {
    const signed = await signPades(pdf, mario, { signingTime: SIGNED });
    expect(startsWithBytes(signed, pdf)).toBe(true);
    const result = await verify(signed);
    expect(result).toEqual({
      ok: true,
      format: 'PAdES',
      signers: [expect.objectContaining({ name: 'Mario Rossi', fiscalCode: 'RSSMRA80A01H501U', issuer: 'Test Qualified CA', signingTime: SIGNED.toISOString() })],
    });
    const reopened = await PDFDocument.load(signed);
    expect(reopened.getPageCount()).toBe(2);
    expect(reopened.getForm().getFields().map((f) => f.getName())).toEqual(['Firma1']);
  });

  it('accepts two signatures (signed twice), in signing order', async () => {
    const once = await signPades(pdf, mario, { signingTime: SIGNED });
    const twice = await signPades(once, anna, { signingTime: new Date(SIGNED.getTime() + HOUR) });
    const result = await verify(twice);
    expect(result.ok && result.signers.map((s) => s.name)).toEqual(['Mario Rossi', 'Anna Bianchi']);
    const reopened = await PDFDocument.load(twice);
    expect(reopened.getForm().getFields().map((f) => f.getName())).toEqual(['Firma1', 'Firma2']);
  });

  it('refuses a signed PDF whose signed prefix is not the expected document (content-mismatch)', async () => {
    expect(refusal(await verify(await signPades(modifiedPdf, mario, { signingTime: SIGNED })))).toEqual({ code: 'content-mismatch' });
  });

  it('refuses bytes appended after the last signature (bad-signature)', async () => {
    const signed = await signPades(pdf, mario, { signingTime: SIGNED });
    const appended = new Uint8Array(Buffer.concat([signed, Buffer.from('\n% aggiunto dopo la firma\n', 'latin1')]));
    expect(refusal(await verify(appended))).toEqual({ code: 'bad-signature' });
  });

  it('refuses a tampered signed byte (bad-signature)', async () => {
    const signed = await signPades(pdf, mario, { signingTime: SIGNED });
    // the signature field's name, inside the signed range
    const at = latin1(signed).lastIndexOf('(Firma1)');
    const tampered = signed.slice();
    tampered[at + 6] = '9'.charCodeAt(0);
    expect(refusal(await verify(tampered))).toEqual({ code: 'bad-signature' });
  });

  it('refuses a byte range that does not match the /Contents hole (bad-signature)', async () => {
    const signed = await signPades(pdf, mario, { signingTime: SIGNED });
    const text = latin1(signed);
    const m = /\/ByteRange \[0 (\d+) (\d+) (\d+)\]/.exec(text)!;
    const [b, c, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    // the same total length, the hole moved one byte: the `>` uncovered
    const moved = `/ByteRange [0 ${b} ${c - 1} ${d + 1}]`.padEnd(m[0].length, ' ');
    const tampered = new Uint8Array(Buffer.from(text.replace(m[0], moved), 'latin1'));
    expect(refusal(await verify(tampered))).toEqual({ code: 'bad-signature' });
  });

  it('refuses the same rules as CAdES on the signer', async () => {
    expect(refusal(await verify(await signPades(pdf, noRepudiation, { signingTime: SIGNED })))).toEqual({ code: 'not-signing-certificate', signer: 'Sara Gialli' });
    expect(refusal(await verify(await signPades(pdf, expired, { signingTime: SIGNED })))).toEqual({ code: 'certificate-expired', signer: 'Luca Verdi' });
    expect(refusal(await verify(await signPades(pdf, mario, { signingTime: new Date(NOW.getTime() + HOUR) })))).toEqual({ code: 'signing-time', signer: 'Mario Rossi' });
    expect(refusal(await verify(await signPades(pdf, stranger, { signingTime: SIGNED })))).toEqual({ code: 'untrusted', signer: 'Paolo Neri' });
  });
});

/**
 * An incremental update appended to `pdf` before it is signed, as any PDF tool writes one: the
 * objects, a classic cross-reference section and a trailer with /Prev (the signature then covers it).
 */
async function withUpdate(base: Uint8Array, objects: (doc: PDFDocument, fresh: () => number) => [number, string][]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(base, { updateMetadata: false });
  const text = latin1(base);
  const prev = Number(/startxref\s+(\d+)\s*%%EOF\s*$/.exec(text)![1]);
  // new object numbers from the trailer's /Size (pdf-lib does not count its object and xref streams)
  let next = Math.max(Number(/\/Size\s+(\d+)/.exec(text.slice(text.lastIndexOf('/Size') - 1))![1]), doc.context.largestObjectNumber + 1);
  const fresh = () => next++;
  let update = '\n';
  const offsets: [number, number][] = [];
  for (const [number, body] of objects(doc, fresh)) {
    offsets.push([number, base.length + update.length]);
    update += `${number} 0 obj\n${body}\nendobj\n`;
  }
  const xrefAt = base.length + update.length;
  update += `xref\n0 1\n0000000000 65535 f\r\n${offsets.map(([n, o]) => `${n} 1\n${String(o).padStart(10, '0')} 00000 n\r\n`).join('')}`;
  const size = Math.max(doc.context.largestObjectNumber, ...offsets.map(([n]) => n)) + 1;
  update += `trailer\n<< /Size ${size} /Root ${doc.context.trailerInfo.Root!.toString()} /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.concat([base, Buffer.from(update, 'latin1')]));
}

const firstPage = (doc: PDFDocument) => doc.getPages()[0]!;
const stream = (content: string) => `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
const FAKE_TERMS = 'BT /F1 24 Tf 72 700 Td (Premio: 1 euro) Tj ET';

describe('PAdES: what the signed updates may change (functions/lib/pdf-revisions.ts)', () => {
  it("refuses an update that rewrites a page's content stream, even signed by everyone (pdf-changed)", async () => {
    const changed = await withUpdate(pdf, (doc) => {
      const contents = firstPage(doc).node.get(PDFName.of('Contents'));
      const ref = contents instanceof PDFRef ? contents : (doc.context.lookup(contents) as unknown as { get: (i: number) => PDFRef }).get(0);
      return [[ref.objectNumber, stream(FAKE_TERMS)]];
    });
    const signed = await signPades(await signPades(changed, mario, { signingTime: SIGNED }), anna, { signingTime: new Date(SIGNED.getTime() + HOUR) });
    expect(refusal(await verify(signed))).toEqual({ code: 'pdf-changed' });
    expect(changesBeyondSignatures(signed, pdf.length)).toMatch(/\(senza tipo\) ridefinito/);
  });

  it('refuses a page pointed at new content, a page added, an annotation over the text (pdf-changed)', async () => {
    const cases: ((doc: PDFDocument, fresh: () => number) => [number, string][])[] = [
      // the page's /Contents replaced by a new stream
      (doc, fresh) => {
        const page = firstPage(doc);
        const node = page.node.clone(doc.context);
        const content = fresh();
        node.set(PDFName.of('Contents'), PDFRef.of(content));
        return [[content, stream(FAKE_TERMS)], [page.ref.objectNumber, node.toString()]];
      },
      // a free-text annotation on the page
      (doc, fresh) => {
        const page = firstPage(doc);
        const node = page.node.clone(doc.context);
        const annot = fresh();
        node.set(PDFName.of('Annots'), doc.context.obj([PDFRef.of(annot)]));
        return [[annot, '<< /Type /Annot /Subtype /FreeText /Rect [50 600 550 760] /Contents (Premio: 1 euro) /DA (/Helv 24 Tf 0 g) >>'], [page.ref.objectNumber, node.toString()]];
      },
      // the same annotation written inside the page's /Annots
      (doc) => {
        const page = firstPage(doc);
        return [[page.ref.objectNumber, page.node.toString().replace(/>>\s*$/, '/Annots [<< /Subtype /FreeText /Rect [50 600 550 760] /Contents (Premio: 1 euro) >>] >>')]];
      },
      // a third page: the page tree changed
      (doc, fresh) => {
        const pages = doc.catalog.get(PDFName.of('Pages')) as PDFRef;
        const tree = (doc.context.lookup(pages) as unknown as { clone: (c: unknown) => { set: (k: PDFName, v: unknown) => void; toString: () => string } }).clone(doc.context);
        const page = fresh();
        tree.set(PDFName.of('Kids'), doc.context.obj([...doc.getPages().map((p) => p.ref), PDFRef.of(page)]));
        tree.set(PDFName.of('Count'), doc.context.obj(3));
        return [[page, `<< /Type /Page /Parent ${pages.toString()} /MediaBox [0 0 595 842] >>`], [pages.objectNumber, tree.toString()]];
      },
    ];
    const reasons = [/\(\/Page\): \/Contents cambiato/, /annotazione \/FreeText/, /\/Annots non fatto di riferimenti/, /\/Page nuovo|\(\/Pages\) ridefinito/];
    for (const [i, objects] of cases.entries()) {
      const signed = await signPades(await withUpdate(pdf, objects), mario, { signingTime: SIGNED });
      expect(refusal(await verify(signed)), `case ${i}`).toEqual({ code: 'pdf-changed' });
      // refused for what the case changed
      expect(changesBeyondSignatures(signed, pdf.length), `case ${i}`).toMatch(reasons[i]!);
    }
  });

  it('reads a page redefined inside a compressed object stream (pdf-changed), and refuses one it cannot read', async () => {
    const inStream = (doc: PDFDocument, fresh: () => number, filter: string, encode: (b: Buffer) => Buffer) => {
      const page = firstPage(doc);
      const node = page.node.clone(doc.context);
      node.set(PDFName.of('MediaBox'), doc.context.obj([0, 0, 300, 300]));
      const body = node.toString();
      const header = `${page.ref.objectNumber} 0 `;
      const data = encode(Buffer.from(header + body, 'latin1'));
      const number = fresh();
      return [[number, `<< /Type /ObjStm /N 1 /First ${header.length} /Filter ${filter} /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream`]] as [number, string][];
    };
    const flate = await signPades(await withUpdate(pdf, (doc, fresh) => inStream(doc, fresh, '/FlateDecode', (b) => deflateSync(b))), mario, { signingTime: SIGNED });
    expect(refusal(await verify(flate))).toEqual({ code: 'pdf-changed' });
    expect(changesBeyondSignatures(flate, pdf.length)).toMatch(/\(\/Page\): \/MediaBox cambiato/);
    const unknown = await signPades(await withUpdate(pdf, (doc, fresh) => inStream(doc, fresh, '/LZWDecode', (b) => b)), mario, { signingTime: SIGNED });
    expect(refusal(await verify(unknown))).toEqual({ code: 'pdf-changed' });
    expect(changesBeyondSignatures(unknown, pdf.length)).toBe('flusso di oggetti non leggibile');
  });

  it('accepts what signing tools add besides the signature: the document information and a visible signature appearance', async () => {
    const updated = await withUpdate(pdf, (doc, fresh) => {
      const info = doc.context.trailerInfo.Info as PDFRef;
      const n = fresh();
      return [
        [info.objectNumber, '<< /Producer (Firma digitale) /ModDate (D:20250601100000Z) >>'],
        [n, `<< /Type /XObject /Subtype /Form /BBox [0 0 200 50] /Length ${'BT ET'.length} >>\nstream\nBT ET\nendstream`],
      ];
    });
    const result = await verify(await signPades(updated, mario, { signingTime: SIGNED }));
    expect(result.ok, JSON.stringify(result)).toBe(true);
  });

  it('names the refusal in Italian', () => {
    expect(signatureRefusalMessage({ code: 'pdf-changed' })).toBe(
      'Il PDF firmato contiene modifiche al documento oltre alla firma: firma il documento scaricato senza modificarlo, oppure carica il file .p7m',
    );
  });
});

describe('not signed', () => {
  it('refuses random bytes, an unsigned PDF, an empty file, a truncated p7m (not-signed)', async () => {
    const random = globalThis.crypto.getRandomValues(new Uint8Array(4096));
    expect(refusal(await verify(random))).toEqual({ code: 'not-signed' });
    random[0] = 0x30; // looks like a DER SEQUENCE
    expect(refusal(await verify(random))).toEqual({ code: 'not-signed' });
    expect(refusal(await verify(pdf))).toEqual({ code: 'not-signed' });
    expect(refusal(await verify(new Uint8Array(0)))).toEqual({ code: 'not-signed' });
    const p7m = await signCades(pdf, [mario], { signingTime: SIGNED });
    expect(refusal(await verify(p7m.subarray(0, 200)))).toEqual({ code: 'not-signed' });
    expect(refusal(await verify(new Uint8Array(Buffer.from('%PDF-1.7\n/ByteRange [0 1 2 3]\n', 'latin1'))))).toEqual({ code: 'not-signed' });
  });
});

function startsWithBytes(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, prefix.length)).equals(Buffer.from(prefix));
}

describe('the rules around a verified signature (domain/onboarding/digital-signature.ts)', () => {
  it('names the first required owner whose codice fiscale no signer carries; other signers are allowed', () => {
    const required = [
      { name: 'Mario Rossi', fiscalCode: 'rssmra80a01h501u' },
      { name: 'Anna Bianchi', fiscalCode: 'BNCNNA85M41F205X' },
    ];
    expect(missingSignerMessage(required, [{ fiscalCode: 'RSSMRA80A01H501U' }, { fiscalCode: 'BNCNNA85M41F205X' }, { fiscalCode: null }])).toBeNull();
    expect(missingSignerMessage(required, [{ fiscalCode: 'RSSMRA80A01H501U' }])).toBe('Manca la firma di Anna Bianchi (codice fiscale BNCNNA85M41F205X)');
    expect(missingSignerMessage(required, [])).toBe('Manca la firma di Mario Rossi (codice fiscale RSSMRA80A01H501U)');
  });

  it('reads the codice fiscale of a certificate serialNumber, in both Italian forms only', () => {
    expect(fiscalCodeOfSerialNumber('TINIT-RSSMRA80A01H501U')).toBe('RSSMRA80A01H501U');
    expect(fiscalCodeOfSerialNumber('IT:rssmra80a01h501u')).toBe('RSSMRA80A01H501U');
    for (const other of ['RSSMRA80A01H501U', 'TINIT-RSSMRA80A01H501', 'PASIT-AB1234567', '', null, undefined]) expect(fiscalCodeOfSerialNumber(other)).toBeNull();
  });

  it('a .p7m is always digital, a PDF as chosen, an image only on paper', () => {
    expect(signatureModeOf('p7m', undefined)).toEqual({ mode: 'digitale' });
    expect(signatureModeOf('p7m', 'digitale')).toEqual({ mode: 'digitale' });
    expect(signatureModeOf('p7m', 'fisica')).toEqual({ refusal: DIGITAL_SIGNATURE_MESSAGES.p7mIsDigital });
    expect(signatureModeOf('pdf', undefined)).toEqual({ mode: 'fisica' });
    expect(signatureModeOf('pdf', 'digitale')).toEqual({ mode: 'digitale' });
    expect(signatureModeOf('jpg', 'digitale')).toEqual({ refusal: DIGITAL_SIGNATURE_MESSAGES.digitalFileType });
    expect(signatureModeOf('jpg', undefined)).toEqual({ mode: 'fisica' });
  });

  it('maps every refusal to its Italian reason, naming the signer', () => {
    expect(signatureRefusalMessage({ code: 'untrusted', signer: 'Paolo Neri' })).toBe(
      'Il certificato di Paolo Neri non è stato emesso da un certificatore qualificato riconosciuto',
    );
    expect(signatureRefusalMessage({ code: 'content-mismatch' })).toBe(DIGITAL_SIGNATURE_MESSAGES['content-mismatch']);
  });

  it('the file-type sniffer knows a .p7m (DER and base64) and refuses anything else declared as one', async () => {
    const p7m = await signCades(pdf, [mario]);
    expect(await sniffFileType(p7m)).toEqual({ mime: 'application/pkcs7-mime', kind: 'cms' });
    expect(await sniffFileType(new Uint8Array(Buffer.from(Buffer.from(p7m).toString('base64'))))).toEqual({ mime: 'application/pkcs7-mime', kind: 'cms' });
    expect(await fileTypeRefusal({ name: 'opzione.pdf.p7m', declared: 'application/pkcs7-mime', head: p7m.subarray(0, 4100) })).toBeUndefined();
    expect(await fileTypeRefusal({ name: 'opzione.pdf.p7m', declared: 'application/pkcs7-mime', head: pdf.subarray(0, 4100) })).toBe(
      'Il file «opzione.pdf.p7m» non è un file firmato digitalmente (.p7m) valido',
    );
    // a .p7m is never a PDF
    expect(await fileTypeRefusal({ name: 'opzione.pdf', declared: 'application/pdf', head: p7m.subarray(0, 4100) })).toBeDefined();
  });
});
