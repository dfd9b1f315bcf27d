/**
 * Firma digitale through the API: a delegation and the purchase option signed with real CAdES
 * (.p7m) and PAdES files made with generated keys and certificates (infra/local/digital-signing.ts),
 * under a test CA registered in the trust store as the trusted list's CAs are in AWS. Every
 * refusal (wrong signer, edited content, expired or untrusted certificate, a co-owner's
 * missing signature, a .p7m sent as paper) is a 400 with its Italian reason and changes nothing.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys } from '../../functions/model/keys';
import { addTrustAnchor } from '../../functions/lib/trust-store';
import { fiscalCodeCheckChar, COMPLETION_MESSAGES } from '../../functions/domain/onboarding/rules';
import { DIGITAL_SIGNATURE_MESSAGES as M } from '../../functions/domain/onboarding/digital-signature';
import type { OptionSignedResult, SellerKycState } from '../../functions/domain/onboarding/kyc';
import type { SellerDelegation } from '../../functions/domain/onboarding/schemas';
import type { OptionPoll } from '../../functions/domain/review/schemas';
import type { RequestDossier } from '../../functions/domain/requests';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { createTestCa, issueSignerCertificate, signCades, signPades, type TestSigner } from '../../infra/local/digital-signing';
import { api, stack, tokenForRole, uniqueEmail, useStackEnv } from '../support/helpers';
import { dossier, postToBucket } from '../support/submission';
import { freshSeller, ownedProperty, type Seller } from '../support/seller';

type Answer<T = object> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
const cf = (first15: string) => first15 + fiscalCodeCheckChar(first15);
const SELLER_CF = 'RSSMRA85T10A562S';
const CO_OWNER_CF = cf('BNCNNA80A41F205');
const STRANGER_CF = cf('VRDLCU70C12H501');
const DELEGATOR = { fullName: 'Mario Rossi', fiscalCode: SELLER_CF, documentType: 'carta_identita', documentNumber: 'CA12345AB' };

let owner: Seller;
let admin: string;
let seller: TestSigner;
let coOwner: TestSigner;
let stranger: TestSigner;
let expired: TestSigner;
let untrusted: TestSigner;

beforeAll(async () => {
  useStackEnv();
  const day = 86_400_000;
  const ca = await createTestCa({ name: 'Test CA firma digitale (integrazione)' });
  const otherCa = await createTestCa({ name: 'CA non accreditata' });
  [seller, coOwner, stranger, expired, untrusted] = await Promise.all([
    issueSignerCertificate(ca, { givenName: 'Mario', surname: 'Rossi', fiscalCode: SELLER_CF }),
    issueSignerCertificate(ca, { givenName: 'Anna', surname: 'Bianchi', fiscalCode: CO_OWNER_CF }),
    issueSignerCertificate(ca, { givenName: 'Luca', surname: 'Verdi', fiscalCode: STRANGER_CF }),
    issueSignerCertificate(ca, { givenName: 'Mario', surname: 'Rossi', fiscalCode: SELLER_CF, notBefore: new Date(Date.now() - 400 * day), notAfter: new Date(Date.now() - day) }),
    issueSignerCertificate(otherCa, { givenName: 'Mario', surname: 'Rossi', fiscalCode: SELLER_CF }),
  ]);
  // as the daily refresh stores the trusted list's CAs in AWS
  await addTrustAnchor(ca.certificate);
  [owner, admin] = await Promise.all([freshSeller(), tokenForRole('admin')]);
});

const base = (id: string) => `/seller/properties/${id}`;
const bytesOf = async (key: string) =>
  Buffer.from(await (await s3().send(new GetObjectCommand({ Bucket: stack().env.MEDIA_BUCKET!, Key: key }))).Body!.transformToByteArray());
const item = async (key: Record<string, string>) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: key, ConsistentRead: true }))).Item!;
const evidence = async (id: string) => (await dossier(id)).filter((i) => typeof i.documentKey === 'string' && String(i.documentKey).includes('/evidence/'));

/** Upload through the presigned POST of `uploads`, then POST `signed` with `body`. */
async function submit<T>(uploads: string, signed: string, file: Buffer, fileName: string, body: Record<string, unknown> = {}) {
  const contentType = fileName.endsWith('.p7m') ? 'application/pkcs7-mime' : 'application/pdf';
  const form = await api<Answer<PresignedUpload>>('POST', uploads, { token: owner.token, body: { fileName, contentType, size: file.length } });
  expect(form.status, JSON.stringify(form.body)).toBe(200);
  const posted = await postToBucket(form.body, file, fileName);
  expect(posted.status, posted.text).toBeLessThan(300);
  return api<Answer<T>>('POST', signed, { token: owner.token, body: { key: form.body.key, ...body } });
}

/** A property with the seller's verified identity, one co-owner and the catasto delegation generated. */
async function onboarded(): Promise<string> {
  const id = await ownedProperty(owner.userId);
  const at = new Date().toISOString();
  await ddb().send(
    new PutCommand({
      TableName: TABLE(),
      Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', confidence: 92.5, reason: 'Identità verificata', verifiedAt: at, checkedAt: at },
    }),
  );
  const coOwners = await api<Answer>('PUT', `${base(id)}/co-owners`, {
    token: owner.token,
    body: { sellerShare: 50, coOwners: [{ email: uniqueEmail('anna'), fullName: 'Anna Bianchi', share: 50 }] },
  });
  expect(coOwners.status, JSON.stringify(coOwners.body)).toBe(200);
  const generated = await api<Answer>('PUT', `${base(id)}/delegations`, {
    token: owner.token,
    body: { province: 'MI', municipality: 'Milano', types: ['catasto'], delegator: DELEGATOR },
  });
  expect(generated.status, JSON.stringify(generated.body)).toBe(200);
  return id;
}

describe('a delegation signed with a firma digitale', () => {
  it('refuses a wrong signer, edited content, an expired or untrusted certificate and a .p7m sent as paper; accepts the delegator’s PAdES', async () => {
    const id = await onboarded();
    const d = await item(keys.delegation(id, 'catasto'));
    const generated = await bytesOf(d.generatedKey as string);
    const uploads = `${base(id)}/delegations/catasto/uploads`;
    const signed = `${base(id)}/delegations/catasto/signed`;
    const edited = Buffer.concat([generated, Buffer.from('\n% modificato\n')]);

    const refusals: [string, Buffer, string, Record<string, unknown>][] = [
      [M.missingSigner('Mario Rossi', SELLER_CF), Buffer.from(await signCades(generated, [stranger])), 'delega.pdf.p7m', {}],
      [M['content-mismatch'], Buffer.from(await signCades(edited, [seller])), 'delega.pdf.p7m', {}],
      [M['certificate-expired']('Mario Rossi'), Buffer.from(await signCades(generated, [expired])), 'delega.pdf.p7m', {}],
      [M.untrusted('Mario Rossi'), Buffer.from(await signCades(generated, [untrusted])), 'delega.pdf.p7m', {}],
      [M.p7mIsDigital, Buffer.from(await signCades(generated, [seller])), 'delega.pdf.p7m', { signature: 'fisica' }],
      // a signed PDF with bytes added after the signature
      [M['bad-signature'], Buffer.concat([Buffer.from(await signPades(generated, seller)), Buffer.from('\n%%EOF\n')]), 'delega-firmata.pdf', { signature: 'digitale' }],
      // the generated PDF itself, unsigned, sent as digitally signed
      [M['not-signed'], generated, 'delega.pdf', { signature: 'digitale' }],
    ];
    for (const [message, file, name, body] of refusals) {
      const res = await submit(uploads, signed, file, name, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toBe(message);
      expect(res.body.fields).toEqual({ key: message });
    }
    // nothing signed, no evidence kept
    expect(await item(keys.delegation(id, 'catasto'))).toMatchObject({ documentKey: null, signedAt: null });
    expect(await evidence(id)).toEqual([]);

    const ok = await submit<SellerDelegation>(uploads, signed, Buffer.from(await signPades(generated, seller)), 'delega-firmata.pdf', { signature: 'digitale' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const signer = { name: 'Mario Rossi', fiscalCode: SELLER_CF, issuer: 'Test CA firma digitale (integrazione)', signingTime: expect.any(String) };
    expect(ok.body).toMatchObject({ signatureType: 'digitale', signers: [signer], signedAt: expect.any(String) });
    expect(await item(keys.delegation(id, 'catasto'))).toMatchObject({ signatureType: 'digitale', digitalSignature: { format: 'PAdES', signers: [signer] } });

    // the seller's page and the admin's dossier show the signer
    const state = await api<SellerKycState>('GET', `${base(id)}/onboarding`, { token: owner.token });
    expect(state.body.delegations[0]).toMatchObject({ signed: true, signatureType: 'digitale', signers: [signer] });
    const adminView = await api<RequestDossier>('GET', `/admin/properties/${id}`, { token: admin });
    expect(adminView.status).toBe(200);
    expect(adminView.body.delegations?.[0]).toMatchObject({ signatureType: 'digitale', signers: [signer] });
  });
});

describe('the purchase option signed with a firma digitale', () => {
  it("needs the seller's and every co-owner's signature on the generated document, then records the signers", async () => {
    const id = await onboarded();
    const d = await item(keys.delegation(id, 'catasto'));
    const delegation = Buffer.from(await signCades(await bytesOf(d.generatedKey as string), [seller]));
    expect((await submit(`${base(id)}/delegations/catasto/uploads`, `${base(id)}/delegations/catasto/signed`, delegation, 'delega.pdf.p7m')).status).toBe(200);
    const created = await api<Answer<{ id: string }>>('POST', `/admin/properties/${id}/option`, {
      token: admin,
      body: { propertyValue: 250_000, optionDuration: 6, hasKeys: true, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 2 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const option = await item(keys.option(id));
    const document = await bytesOf(option.documentKey as string);
    const uploads = `${base(id)}/option/uploads`;
    const signed = `${base(id)}/option/signed`;
    const coOwnerId = (await dossier(id)).find((i) => i.entity === 'coOwner')!.id as string;
    const codes = { coOwnerFiscalCodes: [{ coOwnerId, fiscalCode: CO_OWNER_CF.toLowerCase() }] };

    const sellerOnly = Buffer.from(await signCades(document, [seller]));
    const noCode = await submit(uploads, signed, sellerOnly, 'opzione.pdf.p7m');
    expect(noCode.status).toBe(400);
    expect(noCode.body.message).toBe(M.coOwnerFiscalCode('Anna Bianchi'));
    // the seller's own code, or a third person's, given for the co-owner: the seller alone, or
    // with that person, would count for her
    for (const fiscalCode of [SELLER_CF, ` ${SELLER_CF.toLowerCase()}`, cf('VRDGLI82D45F205')]) {
      const other = await submit(uploads, signed, sellerOnly, 'opzione.pdf.p7m', { coOwnerFiscalCodes: [{ coOwnerId, fiscalCode }] });
      expect(other.status).toBe(400);
      expect(other.body.message).toBe(M.fiscalCodeNotOfName('Anna Bianchi'));
    }
    const missing = await submit(uploads, signed, sellerOnly, 'opzione.pdf.p7m', codes);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(M.missingSigner('Anna Bianchi', CO_OWNER_CF));
    const otherDocument = Buffer.from(await signCades(await bytesOf(d.generatedKey as string), [seller, coOwner]));
    const wrongDocument = await submit(uploads, signed, otherDocument, 'opzione.pdf.p7m', codes);
    expect(wrongDocument.status).toBe(400);
    expect(wrongDocument.body.message).toBe(M['content-mismatch']);
    expect((await item(keys.option(id))).signedAt ?? null).toBeNull();

    const ok = await submit<OptionSignedResult>(uploads, signed, Buffer.from(await signCades(document, [seller, coOwner])), 'opzione.pdf.p7m', codes);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const signers = [
      { name: 'Mario Rossi', fiscalCode: SELLER_CF, issuer: 'Test CA firma digitale (integrazione)', signingTime: expect.any(String) },
      { name: 'Anna Bianchi', fiscalCode: CO_OWNER_CF, issuer: 'Test CA firma digitale (integrazione)', signingTime: expect.any(String) },
    ];
    expect(ok.body.option).toMatchObject({ signatureType: 'digitale', signers, signedAt: expect.any(String), expiresAt: expect.any(String) });

    const poll = await api<OptionPoll>('GET', `/admin/properties/${id}/option`, { token: admin });
    expect(poll.body.option).toMatchObject({ signatureType: 'digitale', signatureData: { format: 'CAdES', signers, signedDocumentKey: expect.stringMatching(new RegExp(`^${id}/evidence/option/`)) } });
    const state = await api<SellerKycState>('GET', `${base(id)}/onboarding`, { token: owner.token });
    expect(state.body).toMatchObject({ complete: true, completionMessage: COMPLETION_MESSAGES.optionSignedDigitally });
    // the sealed copy is the uploaded .p7m, byte for byte
    expect((await bytesOf(poll.body.option!.signatureData!.signedDocumentKey)).subarray(0, 1)[0]).toBe(0x30);
  });
});
