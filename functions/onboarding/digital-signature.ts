/**
 * A digitally signed copy of a generated document (the purchase option or a delegation):
 * verified before anything links it. The signed content must be byte for byte the PDF the
 * product generated (read back from the bucket), every signature must verify, each
 * certificate must have been valid when it signed and chain to a trusted CA (the trust store,
 * lib/trust-store.ts: the Italian trusted list in AWS, a test CA locally), and every required
 * person (by codice fiscale) must be among the signers. Any failure is a 400 with its Italian
 * reason; nothing is written.
 */
import { ValidationError } from '../lib/errors';
import { logger } from '../lib/logger';
import { verifySignedDocument, type VerifyResult } from '../lib/digital-signature';
import { readMediaBytes } from '../lib/media-storage';
import { loadTrustAnchors } from '../lib/trust-store';
import {
  DIGITAL_SIGNATURE_MESSAGES as M,
  missingSignerMessage,
  signatureRefusalMessage,
  type DigitalSignature,
  type RequiredSigner,
} from '../domain/onboarding/digital-signature';

export interface DigitalCopyCheck {
  /** the uploaded file's bytes (the sealed evidence copy's) */
  bytes: Uint8Array;
  /** the generated PDF the signers had to sign */
  generatedKey: string;
  /** when it was generated: no signature can predate it */
  generatedAt: string | null;
  required: readonly RequiredSigner[];
  /** the body field named by a refusal */
  field: string;
  now: Date;
}

async function verifyWith(check: DigitalCopyCheck, expected: Uint8Array, fresh: boolean): Promise<VerifyResult> {
  const trustAnchors = await loadTrustAnchors({ fresh });
  return verifySignedDocument({
    file: check.bytes,
    expected,
    trustAnchors,
    now: check.now,
    ...(check.generatedAt ? { notBefore: new Date(check.generatedAt) } : {}),
  });
}

/** The verified signature, or a 400 (ValidationError) with the reason in Italian. */
export async function requireDigitalSignature(check: DigitalCopyCheck): Promise<DigitalSignature> {
  const refuse = (message: string): never => {
    throw new ValidationError(message, { [check.field]: message });
  };
  const expected = await readMediaBytes(check.generatedKey);
  if (!expected) {
    logger.error('Generated document missing for a digital signature check', { key: check.generatedKey });
    return refuse(M['content-mismatch']);
  }
  let result = await verifyWith(check, expected, false);
  // a CA added to the store a moment ago (the daily refresh, a local test CA): read it again once
  if (!result.ok && result.refusal.code === 'untrusted') result = await verifyWith(check, expected, true);
  if (!result.ok) {
    logger.warn('Digital signature refused', { code: result.refusal.code });
    return refuse(signatureRefusalMessage(result.refusal));
  }
  const missing = missingSignerMessage(check.required, result.signers);
  if (missing) return refuse(missing);
  return {
    format: result.format,
    signers: result.signers,
    verifiedAt: check.now.toISOString(),
  };
}
