/**
 * Demo data of `npm start` for the seller's availability page (docs/availability.md): the demo
 * seller's request (the first of demo-data.ts) gets a purchase option without keys, signed by
 * the seller, and the admin's "Invio Link Disponibilità", so the local mail page has the
 * e-mail and the console prints the link to try /availability/{token} as the demo seller.
 * Through the product's own routes: the option created by the demo admin, the signed copy
 * uploaded (presigned POST) and confirmed by the demo seller, the link sent by the admin.
 * One shortcut, marked as such: the seller side (identity verified, a delegation signed) is
 * written directly, since it needs a face photo and signed PDFs.
 * Idempotent: each step runs only when its data is missing; a link that is still valid is
 * printed again, an expired one is replaced.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { isExpired } from '../../functions/model/tokens';
import type { LocalStack } from './stack';

type Call = <T>(method: string, route: string, body?: unknown, token?: string) => Promise<{ status: number; body: T }>;

/** The demo seller's request of demo-data.ts. */
export const DEMO_SELLER_PROPERTY_ID = '0d3e7b52-5a4f-4c1e-9d7a-6f1c2b3a4d01';

/** A one-page PDF: the "signed copy" the demo seller uploads. */
const SIGNED_PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

export async function seedDemoAvailability(stack: LocalStack, call: Call, adminToken: string, sellerToken: () => Promise<string>, log: (line: string) => void): Promise<void> {
  const T = stack.env.TABLE_NAME;
  const id = DEMO_SELLER_PROPERTY_ID;
  const get = async (key: Record<string, string>) => (await ddb().send(new GetCommand({ TableName: T, Key: key, ConsistentRead: true }))).Item;
  const property = await get(keys.property(id));
  if (!property?.userId) return; // no demo seller (or not theirs): nothing to show
  let option = await get(keys.option(id));

  if (!option) {
    // shortcut: the onboarding's result, as the identity check and a signed delegation leave it
    const at = new Date().toISOString();
    if (!(await get(keys.identity(id)))) {
      await ddb().send(
        new PutCommand({
          TableName: T,
          Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', fullName: `${property.firstName ?? ''} ${property.lastName ?? ''}`.trim(), verifiedAt: at },
        }),
      );
    }
    if (!(await get(keys.delegation(id, 'catasto')))) {
      await ddb().send(
        new PutCommand({
          TableName: T,
          Item: { ...keys.delegation(id, 'catasto'), entity: 'delegation', propertyId: id, type: 'catasto', province: 'MI', municipality: 'Milano', documentKey: `${id}/documents/delega-catasto.pdf`, signedAt: at },
        }),
      );
    }
    const created = await call('POST', `/admin/properties/${id}/option`, { propertyValue: 400_000, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 }, adminToken);
    if (created.status !== 201) throw new Error(`opzione demo: ${created.status} ${JSON.stringify(created.body)}`);
    option = await get(keys.option(id));
  }
  if (!option || option.hasKeys !== false) return;

  if (!option.signedAt) {
    const seller = await sellerToken();
    const form = await call<PresignedUpload>('POST', `/seller/properties/${id}/option/uploads`, { fileName: 'opzione-firmata.pdf', contentType: 'application/pdf', size: SIGNED_PDF.length }, seller);
    if (form.status !== 200) throw new Error(`opzione firmata demo: ${form.status} ${JSON.stringify(form.body)}`);
    const body = new FormData();
    for (const [k, v] of Object.entries(form.body.fields)) body.append(k, v);
    body.append('file', new Blob([SIGNED_PDF], { type: 'application/pdf' }), 'opzione-firmata.pdf');
    const posted = await fetch(form.body.url, { method: 'POST', body });
    await posted.text();
    if (posted.status >= 300) throw new Error(`opzione firmata demo (S3): ${posted.status}`);
    const signed = await call('POST', `/seller/properties/${id}/option/signed`, { key: form.body.key }, seller);
    if (signed.status !== 200) throw new Error(`firma demo: ${signed.status} ${JSON.stringify(signed.body)}`);
    // the signature e-mailed the availability link already
    option = (await get(keys.option(id))) ?? option;
  }

  let token = typeof option.availabilityToken === 'string' ? option.availabilityToken : '';
  const link = token ? await get(keys.availabilityToken(token)) : undefined;
  if (!link || isExpired(link.expiresAt as number | undefined)) {
    const sent = await call('POST', `/admin/properties/${id}/option/availability-link`, {}, adminToken);
    if (sent.status !== 200) throw new Error(`link disponibilità demo: ${sent.status} ${JSON.stringify(sent.body)}`);
    token = String((await get(keys.option(id)))?.availabilityToken ?? '');
  }
  log(`dati demo: disponibilità del venditore demo (anche nella posta locale): ${stack.env.APP_URL}/availability/${token}`);
}
