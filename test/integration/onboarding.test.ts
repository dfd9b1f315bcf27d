/**
 * Seller onboarding through the API: co-owners (replace, invite by e-mail, single-owner skip)
 * and delegations (generate with PDFs, download, signed upload, confirm), owner only.
 */
import { inflateSync } from 'node:zlib';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PDFArray, PDFDocument, PDFName, type PDFRawStream } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import type { RequestDossier } from '../../functions/domain/requests';
import type { SellerCoOwner, SellerDelegation } from '../../functions/domain/onboarding/schemas';
import { ONBOARDING_MESSAGES } from '../../functions/domain/onboarding/rules';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { api, sentMail, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { dossier, postToBucket } from '../support/submission';
import { freshSeller, ownedProperty } from '../support/seller';

type Answer<T> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
const CF = 'RSSMRA85T10A562S';

const base = (id: string) => `/seller/properties/${id}`;
const items = async (id: string, entity: string) => (await dossier(id)).filter((i) => i.entity === entity);
const DELEGATOR = {
  fullName: 'Mario Rossi',
  fiscalCode: CF.toLowerCase(),
  documentType: 'carta_identita',
  documentNumber: 'ca 12345ab',
  birthDate: '1985-12-10',
  birthPlace: 'Roma',
  address: 'Via Giuseppe Verdi 12, Milano',
};
const propertyItem = async (id: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;

/** The text lines a PDF shows (pdf-lib writes each line as `<hex> Tj`, WinAnsi). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  const out: string[] = [];
  for (const page of doc.getPages()) {
    const contents = page.node.Contents()!;
    const streams = (contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents]) as PDFRawStream[];
    for (const stream of streams) {
      const data = stream.dict.get(PDFName.of('Filter')) ? inflateSync(stream.contents) : stream.contents;
      for (const m of Buffer.from(data).toString('latin1').matchAll(/<([0-9A-Fa-f]*)> Tj/g)) out.push(Buffer.from(m[1]!, 'hex').toString('latin1'));
    }
  }
  return out.join('\n');
}

let owner: { token: string; userId: string; email: string };
let other: { token: string; userId: string };
let propertyId: string;

beforeAll(async () => {
  useStackEnv();
  owner = await freshSeller();
  other = await freshSeller();
  propertyId = await ownedProperty(owner.userId);
});

describe('co-owners', () => {
  it('refuses shares that do not total 100 with the spec warning, and writes nothing', async () => {
    const res = await api<Answer<object>>('PUT', `${base(propertyId)}/co-owners`, {
      token: owner.token,
      body: { sellerShare: 20, coOwners: [{ email: 'anna@example.it', fullName: 'Anna Rossi', share: 50 }, { email: 'luca@example.it', fullName: 'Luca Verdi', share: 10 }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('La somma delle quote è 80% (dovrebbe essere 100%)');
    const bad = await api<Answer<object>>('PUT', `${base(propertyId)}/co-owners`, {
      token: owner.token,
      body: { sellerShare: 50, coOwners: [{ email: 'non-email', fullName: '', share: 0 }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^[A-Z][a-zà-ù]/);
    expect(await items(propertyId, 'coOwner')).toEqual([]);
  });

  it("counts the seller's own share: a 50/50 couple is 50 + 50, the spouse alone at 100 is refused", async () => {
    const spouse = { email: 'anna@example.it', fullName: 'Anna Rossi' };
    const put = (body: object) => api<Answer<{ sellerShare: number; coOwners: SellerCoOwner[] }>>('PUT', `${base(propertyId)}/co-owners`, { token: owner.token, body });
    // what the form used to ask: the spouse at 100 leaves the seller nothing (150 with the seller's 50)
    const overfull = await put({ sellerShare: 50, coOwners: [{ ...spouse, share: 100 }] });
    expect(overfull.status).toBe(400);
    expect(overfull.body.message).toBe('La somma delle quote è 150% (dovrebbe essere 100%)');
    // the seller's share is required, > 0 and < 100: an old client, the whole property, a text, a negative
    for (const sellerShare of [undefined, 0, 100, '50', -50]) {
      const refused = await put({ sellerShare, coOwners: [{ ...spouse, share: 100 - Number(sellerShare ?? 0) }] });
      expect(refused.status, String(sellerShare)).toBe(400);
      expect(refused.body.message).toBe('Indica la tua quota: maggiore di 0 e minore di 100');
    }
    // a negative seller share cannot "make room" for co-owners beyond 100 either
    expect((await put({ sellerShare: -50, coOwners: [{ ...spouse, share: 100 }, { email: 'luca@example.it', fullName: 'Luca Verdi', share: 50 }] })).status).toBe(400);
    expect(await items(propertyId, 'coOwner')).toEqual([]);
    expect((await propertyItem(propertyId)).sellerShare).toBeUndefined();

    const couple = await put({ sellerShare: 50, coOwners: [{ ...spouse, share: 50 }] });
    expect(couple.status, JSON.stringify(couple.body)).toBe(200);
    expect(couple.body.sellerShare).toBe(50);
    expect((await propertyItem(propertyId)).sellerShare).toBe(50);
    expect((await items(propertyId, 'coOwner')).map((c) => [c.email, c.share])).toEqual([['anna@example.it', 50]]);
  });

  it('another seller, an admin and an agent cannot touch the property', async () => {
    const body = { sellerShare: 50, coOwners: [{ email: 'anna@example.it', fullName: 'Anna Rossi', share: 50 }] };
    const notMine = await api<Answer<object>>('PUT', `${base(propertyId)}/co-owners`, { token: other.token, body });
    expect(notMine.status).toBe(404);
    expect(notMine.body.message).toBe('Immobile non trovato');
    expect((await api('POST', `${base(propertyId)}/co-owners/skip`, { token: other.token, body: {} })).status).toBe(404);
    expect((await api('PUT', `${base(propertyId)}/co-owners`, { token: await tokenForRole('admin'), body })).status).toBe(403);
    expect((await api('PUT', `${base(propertyId)}/co-owners`, { token: await tokenForRole('agent'), body })).status).toBe(403);
    expect(await items(propertyId, 'coOwner')).toMatchObject([{ email: 'anna@example.it', share: 50 }]);
  });

  it('replaces the list, keeping a co-owner that stays', async () => {
    const first = await api<Answer<{ coOwners: SellerCoOwner[] }>>('PUT', `${base(propertyId)}/co-owners`, {
      token: owner.token,
      body: { sellerShare: 40, coOwners: [{ email: 'Anna@Example.it', fullName: 'Anna Rossi', share: 30 }, { email: 'luca@example.it', fullName: 'Luca Verdi', share: 30 }] },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const anna = first.body.coOwners.find((c) => c.email === 'anna@example.it')!;
    const second = await api<Answer<{ coOwners: SellerCoOwner[] }>>('PUT', `${base(propertyId)}/co-owners`, {
      token: owner.token,
      body: { sellerShare: 50, coOwners: [{ email: 'anna@example.it', fullName: 'Anna Rossi', share: 25 }, { email: 'sara@example.it', fullName: 'Sara Neri', share: 25 }] },
    });
    expect(second.status).toBe(200);
    const stored = await items(propertyId, 'coOwner');
    expect(stored.map((c) => c.email).sort()).toEqual(['anna@example.it', 'sara@example.it']);
    expect(stored.find((c) => c.email === 'anna@example.it')).toMatchObject({ id: anna.id, share: 25, invitedAt: null, verifiedAt: null });
    expect((await propertyItem(propertyId)).sellerShare).toBe(50);
  });

  it('invites each co-owner by e-mail with a link to their identity step, once', async () => {
    // invitations need the seller's own identity verified (co-owner-invitations.test.ts)
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(propertyId), entity: 'identity', propertyId, status: 'verified', documentType: 'carta_identita' } }));
    const res = await api<Answer<{ invited: number; coOwners: SellerCoOwner[] }>>('POST', `${base(propertyId)}/co-owners/invitations`, { token: owner.token, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.invited).toBe(2);
    const stored = await items(propertyId, 'coOwner');
    expect(stored.every((c) => typeof c.invitedAt === 'string')).toBe(true);
    const mail = (await sentMail()).filter((m) => m.destination.to.includes('sara@example.it'));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('Invito a verificare la tua identità di comproprietario');
    // her own share, not the rest of the property
    expect(mail[0]!.body.text).toMatch(/Quota di proprietà\W+25%/);
    const link = /\/seller-kyc\?token=([A-Za-z0-9_-]+)/.exec(mail[0]!.body.text ?? '');
    expect(link).not.toBeNull();
    const invite = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.coOwnerInvitation(link![1]!), ConsistentRead: true }))).Item;
    expect(invite).toMatchObject({ propertyId, email: 'sara@example.it' });
    expect(invite!.expiresAt as number).toBeGreaterThan(Date.now() / 1000);
    // nobody left to invite
    const again = await api<Answer<object>>('POST', `${base(propertyId)}/co-owners/invitations`, { token: owner.token, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Nessun comproprietario da invitare');
    // the admin dossier reads the same fields
    const dossierRes = await api<RequestDossier>('GET', `/admin/properties/${propertyId}`, { token: await tokenForRole('admin') });
    expect(dossierRes.body.coOwners.map((c) => [c.email, c.share, Boolean(c.invitedAt)]).sort()).toEqual([
      ['anna@example.it', 25, true],
      ['sara@example.it', 25, true],
    ]);
  });

  it('a property being deleted answers 404 and is not edited', async () => {
    const id = await ownedProperty(owner.userId);
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.property(id), UpdateExpression: 'SET deletingAt = :at', ExpressionAttributeValues: { ':at': new Date().toISOString() } }));
    const res = await api<Answer<object>>('PUT', `${base(id)}/co-owners`, { token: owner.token, body: { sellerShare: 50, coOwners: [{ email: 'anna@example.it', fullName: 'Anna Rossi', share: 50 }] } });
    expect(res.status).toBe(404);
    expect((await api('POST', `${base(id)}/co-owners/skip`, { token: owner.token, body: {} })).status).toBe(404);
    expect(await items(id, 'coOwner')).toEqual([]);
  });

  it("'Salta (Proprietà Singola)' marks single ownership", async () => {
    const id = await ownedProperty(owner.userId);
    const res = await api('POST', `${base(id)}/co-owners/skip`, { token: owner.token, body: {} });
    expect(res.status).toBe(200);
    const p = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;
    expect(p.singleOwner).toBe(true);
  });

  it("'Salta (Proprietà Singola)' after saving co-owners removes them and the seller's share: no co-owner beside single ownership", async () => {
    const id = await ownedProperty(owner.userId);
    const saved = await api('PUT', `${base(id)}/co-owners`, { token: owner.token, body: { sellerShare: 50, coOwners: [{ email: 'anna@example.it', fullName: 'Anna Rossi', share: 50 }] } });
    expect(saved.status).toBe(200);
    expect(await items(id, 'coOwner')).toHaveLength(1);
    expect((await api('POST', `${base(id)}/co-owners/skip`, { token: owner.token, body: {} })).status).toBe(200);
    expect(await items(id, 'coOwner')).toEqual([]);
    const p = await propertyItem(id);
    expect(p.singleOwner).toBe(true);
    expect(p.sellerShare).toBeUndefined();
  });

  it("refuses a co-owner at the seller's own address (the account's or the request's), and writes nothing", async () => {
    const id = await ownedProperty(owner.userId);
    const contact = String((await propertyItem(id)).email);
    for (const email of [owner.email, contact.toUpperCase()]) {
      const res = await api<Answer<object>>('PUT', `${base(id)}/co-owners`, {
        token: owner.token,
        body: { sellerShare: 50, coOwners: [{ email: 'luca@example.it', fullName: 'Luca Verdi', share: 25 }, { email, fullName: 'Maria Rossi', share: 25 }] },
      });
      expect(res.status, email).toBe(400);
      expect(res.body).toMatchObject({ message: ONBOARDING_MESSAGES.coOwnerIsSeller, fields: { 'coOwners.1.email': ONBOARDING_MESSAGES.coOwnerIsSeller } });
    }
    expect(await items(id, 'coOwner')).toEqual([]);
  });
});

describe('delegations', () => {
  const generate = (body: Record<string, unknown>, token = owner.token, id = propertyId) =>
    api<Answer<{ delegations: SellerDelegation[] }>>('PUT', `${base(id)}/delegations`, { token, body });

  it('refuses bad input in Italian and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ province: 'MI', municipality: 'Roma', types: ['catasto'], delegator: DELEGATOR }, 'Il comune non appartiene alla provincia selezionata'],
      [{ province: 'MI', municipality: 'Milano', types: [], delegator: DELEGATOR }, 'Seleziona provincia, comune e almeno un tipo di delega'],
      [{ province: 'MI', municipality: 'Milano', types: ['catasto'], delegator: { ...DELEGATOR, fiscalCode: 'RSSMRA85T10A562T' } }, 'Codice fiscale non valido'],
      // the delegator's identity document (spec 000: delegator_id_type, delegator_id_number)
      [{ province: 'MI', municipality: 'Milano', types: ['catasto'], delegator: { ...DELEGATOR, documentType: undefined } }, 'Tipo di documento non valido'],
      [{ province: 'MI', municipality: 'Milano', types: ['catasto'], delegator: { ...DELEGATOR, documentType: 'tessera' } }, 'Tipo di documento non valido'],
      [{ province: 'MI', municipality: 'Milano', types: ['catasto'], delegator: { ...DELEGATOR, documentNumber: undefined } }, 'Il numero del documento è obbligatorio'],
      [{ province: 'MI', municipality: 'Milano', types: ['catasto'], delegator: { ...DELEGATOR, documentNumber: ' ' } }, 'Il numero del documento è obbligatorio'],
      [{ province: 'MI', municipality: 'Milano', types: ['catasto'], delegator: { ...DELEGATOR, documentNumber: 'CA1\nTj' } }, 'Il numero del documento può contenere solo lettere, cifre e trattini'],
    ];
    for (const [body, message] of cases) {
      const res = await generate(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await items(propertyId, 'delegation')).toEqual([]);
    expect((await generate({ province: 'MI', municipality: 'Milano', types: ['catasto'], delegator: DELEGATOR }, other.token)).status).toBe(404);
    expect(await items(propertyId, 'delegation')).toEqual([]);
  });

  it('generates one delegation per type with a filled PDF, then removes unselected types', async () => {
    const res = await generate({ province: 'mi', municipality: 'milano', types: ['catasto', 'urbanistica', 'anagrafe'], delegator: DELEGATOR });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.delegations.map((d) => d.type)).toEqual(['catasto', 'urbanistica', 'anagrafe']);
    expect(res.body.delegations[0]).toMatchObject({ label: 'Atti Catastali', province: 'MI', municipality: 'Milano', signedAt: null, documentKey: null });
    const stored = await items(propertyId, 'delegation');
    expect(stored).toHaveLength(3);
    for (const d of stored) {
      expect(d.generatedKey).toMatch(new RegExp(`^${propertyId}/delegations/${d.type as string}-\\d+\\.pdf$`));
      expect(d).toMatchObject({ delegatorFiscalCode: CF, delegatorName: 'Mario Rossi', delegateeOrganization: 'Opzione Casa S.r.l.' });
      expect(d).toMatchObject({ delegatorIdType: 'carta_identita', delegatorIdNumber: 'CA12345AB' });
    }

    const doc = await api<Answer<{ url: string; fileName: string }>>('GET', `${base(propertyId)}/delegations/catasto/document`, { token: owner.token });
    expect(doc.status).toBe(200);
    const pdf = Buffer.from(await (await fetch(doc.body.url)).arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // its page count is recorded: a copy photographed page by page must have as many
    expect(stored.find((d) => d.type === 'catasto')!.documentPages).toBe((await PDFDocument.load(pdf)).getPageCount());
    const text = await pdfText(pdf);
    expect(text).toContain(`Codice fiscale: ${CF}`);
    expect(text).toContain("Documento di identità: Carta d'identità n. CA12345AB");
    expect((await api('GET', `${base(propertyId)}/delegations/catasto/document`, { token: other.token })).status).toBe(404);
    expect((await api('GET', `${base(propertyId)}/delegations/ipotecario/document`, { token: owner.token })).status).toBe(404);

    const regenerated = await generate({ province: 'MI', municipality: 'Milano', types: ['catasto', 'ipotecario'], delegator: DELEGATOR });
    expect(regenerated.status).toBe(200);
    const after = await items(propertyId, 'delegation');
    expect(after.map((d) => d.type).sort()).toEqual(['catasto', 'ipotecario']);
    // unchanged content keeps the same generated document
    expect(after.find((d) => d.type === 'catasto')!.generatedKey).toBe(stored.find((d) => d.type === 'catasto')!.generatedKey);
    // another document is another delegation: a new PDF that prints it
    const passport = await generate({ province: 'MI', municipality: 'Milano', types: ['catasto', 'ipotecario'], delegator: { ...DELEGATOR, documentType: 'passaporto', documentNumber: 'YA1234567' } });
    expect(passport.status).toBe(200);
    const renewed = (await items(propertyId, 'delegation')).find((d) => d.type === 'catasto')!;
    expect(renewed.generatedKey).not.toBe(stored.find((d) => d.type === 'catasto')!.generatedKey);
    expect(renewed).toMatchObject({ delegatorIdType: 'passaporto', delegatorIdNumber: 'YA1234567' });
    const renewedDoc = await api<Answer<{ url: string }>>('GET', `${base(propertyId)}/delegations/catasto/document`, { token: owner.token });
    expect(await pdfText(Buffer.from(await (await fetch(renewedDoc.body.url)).arrayBuffer()))).toContain('Documento di identità: Passaporto n. YA1234567');
  });

  it('uploads the signed copy, confirms it, and the admin dossier shows it signed', async () => {
    const badType = await api<Answer<object>>('POST', `${base(propertyId)}/delegations/catasto/uploads`, {
      token: owner.token,
      body: { fileName: 'firmata.exe', contentType: 'application/octet-stream', size: 100 },
    });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toContain('Formato non ammesso');
    const tooBig = await api('POST', `${base(propertyId)}/delegations/catasto/uploads`, {
      token: owner.token,
      body: { fileName: 'firmata.pdf', contentType: 'application/pdf', size: 21 * 1024 * 1024 },
    });
    expect(tooBig.status).toBe(400);

    const bytes = Buffer.from('%PDF-1.4\n% delega firmata\n%%EOF\n');
    const form = await api<Answer<PresignedUpload>>('POST', `${base(propertyId)}/delegations/catasto/uploads`, {
      token: owner.token,
      body: { fileName: 'delega firmata.pdf', contentType: 'application/pdf', size: bytes.length },
    });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    expect(form.body.key).toMatch(new RegExp(`^${propertyId}/delegations/signed-catasto-\\d+-[0-9a-f]{24}\\.pdf$`));

    // not uploaded yet: refused, nothing signed
    const early = await api('POST', `${base(propertyId)}/delegations/catasto/signed`, { token: owner.token, body: { key: form.body.key } });
    expect(early.status).toBe(400);
    const posted = await postToBucket(form.body, bytes, 'delega firmata.pdf');
    expect(posted.status, posted.text).toBeLessThan(300);

    const foreign = await api('POST', `${base(propertyId)}/delegations/catasto/signed`, { token: owner.token, body: { key: `altro/delegations/signed-catasto-1.pdf` } });
    expect(foreign.status).toBe(400);
    expect((await api('POST', `${base(propertyId)}/delegations/catasto/signed`, { token: other.token, body: { key: form.body.key } })).status).toBe(404);

    const signed = await api<Answer<SellerDelegation>>('POST', `${base(propertyId)}/delegations/catasto/signed`, { token: owner.token, body: { key: form.body.key } });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    // the sealed copy under the property's evidence/ prefix (test/integration/evidence.test.ts)
    const sealed = expect.stringMatching(new RegExp(`^${propertyId}/evidence/delegations/signed-catasto-`));
    expect(signed.body).toMatchObject({ type: 'catasto', documentKey: sealed });
    expect(signed.body.signedAt).toBeTruthy();

    const dossierRes = await api<RequestDossier>('GET', `/admin/properties/${propertyId}`, { token: await tokenForRole('admin') });
    expect(dossierRes.status).toBe(200);
    const catasto = dossierRes.body.delegations.find((d) => d.type === 'catasto')!;
    expect(catasto).toMatchObject({ province: 'MI', municipality: 'Milano', documentKey: sealed });
    expect(catasto.signedAt).toBeTruthy();
    expect(catasto.file?.url).toBeTruthy();
    expect(dossierRes.body.delegations.find((d) => d.type === 'ipotecario')).toMatchObject({ documentKey: null, signedAt: null });
  });
});
