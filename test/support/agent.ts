/**
 * The agent marketplace in tests: fresh agent accounts (approved through the admin's route,
 * or left pending), purchase options listed to agents (a submitted property, optionally with
 * room photos and a video, its seller side marked complete, the option created through the
 * admin's route), and Stripe webhook deliveries signed as Stripe signs them.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { markSigned } from './option';
import Stripe from 'stripe';
import { expect } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import type { PurchaseOption } from '../../functions/domain/requests';
import { api, idTokenFor, signUp, stack, tokenForRole, uniqueEmail } from './helpers';
import { apiFrom, fullBody, mp4Bytes, newClientIp, newId, pngBytes, upload } from './submission';

export { markSigned };

export const AGENT_PASSWORD = 'segreta1';

export interface TestAgent {
  userId: string;
  email: string;
  name: string;
  token: string;
}

/** A self-registered agente_immobiliare, not approved: no `agent` group. */
export async function pendingAgent(name = `Agente ${newId().slice(0, 6)}`): Promise<TestAgent> {
  const email = uniqueEmail('agente');
  const res = await signUp({ email, password: AGENT_PASSWORD, name, userType: 'agente_immobiliare' });
  return { userId: res.UserSub!, email, name, token: await idTokenFor(email, AGENT_PASSWORD) };
}

/** A self-registered agent approved by the admin (POST /users/{id}/agent-approval), signed in after it. */
export async function freshAgent(name = `Agente ${newId().slice(0, 6)}`): Promise<TestAgent> {
  const email = uniqueEmail('agente');
  const res = await signUp({ email, password: AGENT_PASSWORD, name, userType: 'agente_immobiliare' });
  const decided = await api('POST', `/users/${res.UserSub}/agent-approval`, { token: await tokenForRole('admin'), body: { decision: 'approve' } });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  return { userId: res.UserSub!, email, name, token: await idTokenFor(email, AGENT_PASSWORD) };
}

/** The option's terms: value 300.000 for 8 months (option amount 3.000: 1.000 per 100.000), commission 2..5%. */
export const OPTION_TERMS = {
  propertyValue: 300_000,
  optionDuration: 8 as const,
  hasKeys: false,
  agentCommissionPercentage: 5,
  minAgentCommissionPercentage: 2,
  salePricePercentage: 10,
  minMonthlySlots: 4,
};

/**
 * A submitted property with its option signed and published to agents (no agent). `media`: a
 * living room with a photo and a bedroom with a photo and an MP4 video, uploaded as the
 * wizard uploads them.
 */
export async function listedOption(
  opts: { property?: Record<string, unknown>; terms?: Partial<typeof OPTION_TERMS>; media?: boolean } = {},
): Promise<PurchaseOption> {
  const id = newId();
  const ip = newClientIp();
  let rooms: unknown[] = [];
  if (opts.media) {
    const living = newId();
    const bedroom = newId();
    const photo = await upload(ip, id, living, 'soggiorno.png', 'image/png', pngBytes(8, 6, [200, 170, 120]));
    const bedPhoto = await upload(ip, id, bedroom, 'camera.png', 'image/png', pngBytes(8, 6, [120, 150, 200]));
    const video = await upload(ip, id, bedroom, 'giro camera.mp4', 'video/mp4', mp4Bytes());
    rooms = [
      { id: living, type: 'soggiorno', media: [{ key: photo.key }] },
      { id: bedroom, type: 'camera_da_letto', media: [{ key: bedPhoto.key }, { key: video.key }] },
    ];
  }
  const sub = await apiFrom(ip, 'POST', '/properties', { ...fullBody(id, rooms), email: uniqueEmail('venditore'), ...opts.property });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  const at = new Date().toISOString();
  const TABLE = stack().env.TABLE_NAME!;
  await ddb().send(new PutCommand({ TableName: TABLE, Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', verifiedAt: at } }));
  await ddb().send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...keys.delegation(id, 'catasto'), entity: 'delegation', propertyId: id, type: 'catasto', province: 'MI', municipality: 'Milano', documentKey: `${id}/documents/delega-catasto.pdf`, signedAt: at },
    }),
  );
  const admin = await tokenForRole('admin');
  const res = await api<PurchaseOption>('POST', `/admin/properties/${id}/option`, { token: admin, body: { ...OPTION_TERMS, ...opts.terms } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await markSigned(id, at);
  const published = await api('POST', `/admin/options/${id}/transitions`, { token: admin, body: { action: 'publish' } });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return { ...res.body, status: 'published', signedAt: at, publishedAt: new Date().toISOString() };
}


/** A Stripe event delivery: the exact body and its Stripe-Signature header (`secret`: the local one by default). */
export function signedDelivery(event: Record<string, unknown>, secret = stack().env.STRIPE_WEBHOOK_SECRET!): { body: string; signature: string } {
  const body = JSON.stringify(event, null, 2);
  return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) };
}

/** checkout.session.completed for a request, as Stripe sends it (the fields the product reads). */
export function checkoutCompleted(r: { requestId: string; propertyId: string; agentId: string; amountCents: number }, sessionId = `cs_test_${newId().replace(/-/g, '')}`) {
  return {
    id: `evt_${newId().replace(/-/g, '')}`,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: Math.floor(Date.now() / 1000),
    type: 'checkout.session.completed',
    livemode: false,
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        amount_total: r.amountCents,
        currency: 'eur',
        client_reference_id: r.requestId,
        metadata: { requestId: r.requestId, propertyId: r.propertyId, agentId: r.agentId },
      },
    },
  };
}
