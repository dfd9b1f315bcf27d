/**
 * Firma digitale (issue: sign from a phone): the purchase option and every delegation may be
 * signed with a qualified or digital signature (CAD art. 21 c. 2-bis) instead of on paper. The
 * seller uploads the CAdES `.p7m` or the PAdES-signed PDF; the server (functions/lib/
 * digital-signature.ts) verifies the content, the cryptography, the certificates and their
 * chain to a trusted CA, and this module holds what is pure about it: the signer as recorded,
 * the refusals in Italian, and which owners must have signed (by codice fiscale).
 */
import * as z from 'zod';
import { isValidFiscalCode } from './rules';

export type SignatureType = 'fisica' | 'digitale';
export type SignatureFormat = 'CAdES' | 'PAdES';

/** One verified signature, as the option or the delegation records it and the admin sees it. */
export interface DigitalSigner {
  /** the certificate's holder (given name and surname) */
  name: string;
  /** from the certificate's serialNumber (TINIT-...); null when the certificate has none */
  fiscalCode: string | null;
  /** the certification authority that issued the certificate */
  issuer: string;
  /** ISO instant, when the signature says it was made (null: not stated) */
  signingTime: string | null;
  /** the certificate's serial number (hex): with the issuer, which certificate signed */
  certificateSerial: string | null;
}

/** The verified signature of a document. */
export interface DigitalSignature {
  format: SignatureFormat;
  signers: DigitalSigner[];
  /** ISO instant of the server's verification */
  verifiedAt: string;
}

/** Why the server refused a signed file (lib/digital-signature.ts); when several rules fail, the first in this order. */
export type SignatureRefusal =
  | { code: 'not-signed' } // not a CMS SignedData, a PDF without a signature dictionary, unreadable
  | { code: 'content-mismatch' } // the signed content is not byte for byte the expected document
  | { code: 'pdf-changed' } // (PAdES) an update the signature covers changes the document beyond adding a signature
  | { code: 'bad-signature' } // digest or signature does not verify; (PAdES) a malformed byte range or bytes after the last signature
  | { code: 'not-signing-certificate'; signer: string } // keyUsage without nonRepudiation (contentCommitment)
  | { code: 'certificate-expired'; signer: string } // certificate not valid at the signing time
  | { code: 'untrusted'; signer: string } // no chain to a trust anchor (through CA certificates embedded in the CMS)
  | { code: 'signing-time'; signer: string }; // after `now` or before `notBefore` (5 minutes of skew)

export const DIGITAL_SIGNATURE_MESSAGES = {
  'not-signed': 'Il file non contiene una firma digitale leggibile: carica il file .p7m o il PDF firmato digitalmente',
  'content-mismatch': 'Il documento firmato non è quello generato per questo immobile: firma il documento scaricato senza modificarlo',
  'pdf-changed': 'Il PDF firmato contiene modifiche al documento oltre alla firma: firma il documento scaricato senza modificarlo, oppure carica il file .p7m',
  'bad-signature': 'La firma digitale non è valida: il file è stato modificato dopo la firma',
  'not-signing-certificate': (signer: string) => `Il certificato di ${signer} non è un certificato di firma digitale`,
  'certificate-expired': (signer: string) => `Il certificato di ${signer} non era valido al momento della firma`,
  untrusted: (signer: string) => `Il certificato di ${signer} non è stato emesso da un certificatore qualificato riconosciuto`,
  'signing-time': (signer: string) => `La data della firma di ${signer} non è valida`,
  missingSigner: (name: string, fiscalCode: string) => `Manca la firma di ${name} (codice fiscale ${fiscalCode})`,
  /** the option: the seller's codice fiscale is the delegations' (step 3) */
  sellerFiscalCodeUnknown: 'Genera prima le deleghe: il codice fiscale del venditore è quello indicato nelle deleghe',
  coOwnerFiscalCode: (name: string) => `Inserisci un codice fiscale valido per ${name}`,
  fiscalCodeNotOfName: (name: string) => `Il codice fiscale indicato per ${name} non corrisponde al suo nome e cognome`,
  fiscalCodeTwice: (name: string) => `Il codice fiscale indicato per ${name} è già di un altro firmatario: ognuno firma con il proprio`,
  /** a .p7m is a digital signature: it cannot be a paper copy */
  p7mIsDigital: 'Il file .p7m è una firma digitale: scegli «Firma digitale»',
  digitalFileType: 'Per la firma digitale carica il file .p7m o il PDF firmato digitalmente',
  signedOk: 'Firma digitale verificata',
} as const;

/** The Italian reason for a refusal (the signer named where the rule is about one). */
export function signatureRefusalMessage(refusal: SignatureRefusal): string {
  const m = DIGITAL_SIGNATURE_MESSAGES[refusal.code];
  return typeof m === 'function' ? m('signer' in refusal ? refusal.signer : 'un firmatario') : m;
}

/** Someone whose signature the document needs. */
export interface RequiredSigner {
  name: string;
  fiscalCode: string;
}

const normalise = (cf: string) => cf.trim().toUpperCase();

/**
 * The first required person among `required` whose codice fiscale no signer's certificate
 * carries, as the refusal naming them; null when everyone signed. Other signers (e.g. the
 * provider's countersignature) are allowed and recorded.
 */
export function missingSignerMessage(required: readonly RequiredSigner[], signers: readonly Pick<DigitalSigner, 'fiscalCode'>[]): string | null {
  const signed = new Set(signers.map((s) => (s.fiscalCode ? normalise(s.fiscalCode) : '')).filter(Boolean));
  const missing = required.find((r) => !signed.has(normalise(r.fiscalCode)));
  return missing ? DIGITAL_SIGNATURE_MESSAGES.missingSigner(missing.name, normalise(missing.fiscalCode)) : null;
}

/** The codice fiscale of a certificate's serialNumber ('TINIT-RSSMRA80A01H501U', 'IT:RSSMRA...'), else null. */
export function fiscalCodeOfSerialNumber(serialNumber: string | null | undefined): string | null {
  const m = /^(?:TINIT-|IT:)([A-Za-z0-9]{16})$/.exec((serialNumber ?? '').trim());
  return m ? m[1]!.toUpperCase() : null;
}

/** How the uploaded copy was signed (the body's `signature`; absent: a `.p7m` is 'digitale', anything else 'fisica'). */
export const signatureChoiceSchema = z.enum(['fisica', 'digitale'], { error: 'Tipo di firma non valido' }).optional();

/** The extensions a digitally signed copy may have: CAdES (.p7m) or PAdES (a signed PDF). */
export const DIGITAL_EXTENSIONS: readonly string[] = ['p7m', 'pdf'];
export const P7M_TYPE = 'application/pkcs7-mime';
/** For <input accept> of a digitally signed copy. */
export const DIGITAL_FILE_ACCEPT = `.p7m,.pdf,${P7M_TYPE},application/pdf`;

/**
 * How the copy with extension `ext` is to be checked, or the refusal: a .p7m is always a
 * digital signature; a PDF is what the seller chose; an image or a Word file only on paper.
 */
export function signatureModeOf(ext: string, choice: SignatureType | undefined): { mode: SignatureType } | { refusal: string } {
  if (ext === 'p7m') return choice === 'fisica' ? { refusal: DIGITAL_SIGNATURE_MESSAGES.p7mIsDigital } : { mode: 'digitale' };
  if (choice === 'digitale' && !DIGITAL_EXTENSIONS.includes(ext)) return { refusal: DIGITAL_SIGNATURE_MESSAGES.digitalFileType };
  return { mode: choice ?? 'fisica' };
}

/** A co-owner's codice fiscale given with a digitally signed option. */
export const coOwnerFiscalCodeSchema = z.object({
  coOwnerId: z.string({ error: 'Comproprietario non valido' }).trim().min(1, 'Comproprietario non valido').max(100, 'Comproprietario non valido'),
  fiscalCode: z
    .string({ error: 'Codice fiscale non valido' })
    .trim()
    .toUpperCase()
    .refine(isValidFiscalCode, 'Codice fiscale non valido'),
});
export type CoOwnerFiscalCode = z.infer<typeof coOwnerFiscalCodeSchema>;

/** The stored signers of an item, as the API shows them (anything malformed is left out). */
export function toDigitalSigners(value: unknown): DigitalSigner[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => {
    const s = v as Record<string, unknown>;
    if (typeof s?.name !== 'string' || typeof s.issuer !== 'string') return [];
    return [
      {
        name: s.name,
        fiscalCode: typeof s.fiscalCode === 'string' ? s.fiscalCode : null,
        issuer: s.issuer,
        signingTime: typeof s.signingTime === 'string' ? s.signingTime : null,
        certificateSerial: typeof s.certificateSerial === 'string' ? s.certificateSerial : null,
      },
    ];
  });
}

export const toSignatureType = (v: unknown): SignatureType | null => (v === 'fisica' || v === 'digitale' ? v : null);
export const toSignatureFormat = (v: unknown): SignatureFormat | null => (v === 'CAdES' || v === 'PAdES' ? v : null);
