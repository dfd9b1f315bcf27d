/**
 * The authorization matrix, generated from the route manifest: every route x every caller
 * (anonymous, a forged token, the seller who owns the resource, another seller, an agent
 * awaiting approval, the approved agent who holds the resource, another approved agent, an
 * admin), against real resources (test/support/security.ts). A refused call gets its exact
 * status (401 without a valid token, 403 without the role, the handler's own 404/409 for a
 * resource of someone else), an Italian message, and changes nothing: the items it could touch,
 * the table's item count and, for routes that may write files, the files are the same after.
 * A caller let through never gets 401/403 nor the ownership refusal, never a 5xx, and its
 * errors are Italian. The link tokens (invitation, co-owner, availability) and Stripe's
 * signature are tried valid, expired and another property's.
 */
import Stripe from 'stripe';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { routes, type RouteDef } from '../../functions/routes';
import { AVAILABILITY_MESSAGES } from '../../functions/domain/availability';
import { AGENT_MESSAGES } from '../../functions/domain/agent-requests';
import { KYC_MESSAGES } from '../../functions/domain/onboarding/kyc';
import { newToken } from '../../functions/model/tokens';
import { api, stack, useOwnStack } from '../support/helpers';
import {
  buildWorld,
  CALLERS,
  dayAhead,
  expectationFor,
  expectItalianError,
  manifestAllows,
  pathOf,
  pkOf,
  queryString,
  ROLES,
  RULES,
  snapshot,
  writesMedia,
  type CallerName,
  type World,
} from '../support/security';

type Answer = { message?: string; error?: string; fields?: Record<string, string>; [k: string]: unknown };
const manifest = routes as readonly RouteDef[];
const TABLE = () => stack().env.TABLE_NAME!;
/** What a handler may answer a caller it let through (besides a 2xx): a clear refusal of the input or the state. */
const LET_THROUGH_ANSWERS = [400, 404, 409, 410, 429];

let w: World;

let stopOwnStack: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // its own table: every item is counted
  stopOwnStack = await useOwnStack();
  w = await buildWorld();
}, 180_000);

afterAll(async () => {
  await stopOwnStack?.();
}, 60_000);

describe('the rule table and the manifest', () => {
  it('has a rule for every route of the manifest and none for a route that does not exist', () => {
    const missing = manifest.filter((r) => !(r.id in RULES)).map((r) => r.id);
    expect(missing, 'routes without a rule in test/support/security.ts').toEqual([]);
    const stale = Object.keys(RULES).filter((id) => !manifest.some((r) => r.id === id));
    expect(stale, 'rules naming no route').toEqual([]);
  });

  it("agrees with the manifest's access on every role (a changed access rule fails here)", () => {
    const drift = manifest.flatMap((r) =>
      ROLES.filter((role) => RULES[r.id] && RULES[r.id]!.allowed.includes(role) !== manifestAllows(r, role)).map((role) => `${r.id}: ${role}`),
    );
    expect(drift).toEqual([]);
  });

  it('names path parameters for every route that has them, and a body only for routes that take one', () => {
    for (const r of manifest) {
      const rule = RULES[r.id];
      if (!rule) continue;
      const names = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(Object.keys(rule.params?.({ ...w }) ?? {}).sort(), r.id).toEqual(names.sort());
      if (r.method === 'GET') expect(rule.body, `${r.id}: GET with a body`).toBeUndefined();
    }
  });
});

/** Calls with a token a link token or Stripe's signature decides: valid, expired, another property's. */
describe('link tokens and the Stripe signature', () => {
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const expire = (Key: Record<string, string>, expiresAt: number) =>
    ddb().send(new UpdateCommand({ TableName: TABLE(), Key, UpdateExpression: 'SET expiresAt = :e', ExpressionAttributeValues: { ':e': expiresAt } }));

  /** Runs `fn` with the token item expired a minute ago, then restores it. */
  async function whileExpired(Key: Record<string, string>, fn: () => Promise<void>) {
    await expire(Key, nowSeconds() - 60);
    try {
      await fn();
    } finally {
      await expire(Key, nowSeconds() + 86_400);
    }
  }

  async function refusedUnchanged(touches: string[], call: () => Promise<{ status: number; body: Answer }>, status: number, message: string) {
    const before = await snapshot(touches, false);
    const res = await call();
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.message).toBe(message);
    expectItalianError(res);
    expect(await snapshot(touches, false)).toEqual(before);
  }

  it('invitation token (GET /seller/kyc, POST /invitations/claim): valid opens, expired and another seller\'s are refused', async () => {
    const touches = [pkOf.property(w.P.id), pkOf.property(w.Q.id)];
    const kyc = (token: string) => api<Answer>('GET', `/seller/kyc${queryString({ token })}`, { token: w.owner.token });
    const claim = (token: string) => api<Answer>('POST', '/invitations/claim', { token: w.owner.token, body: { token } });

    const valid = await kyc(w.P.inviteToken);
    expect(valid.status, JSON.stringify(valid.body)).toBe(200);
    expect(valid.body).toMatchObject({ role: 'owner', property: { id: w.P.id } });
    expect((await claim(w.P.inviteToken)).status).toBe(200);

    await whileExpired(keys.invitation(w.P.inviteToken), async () => {
      await refusedUnchanged(touches, () => kyc(w.P.inviteToken), 404, KYC_MESSAGES.tokenNotFound);
      await refusedUnchanged(touches, () => claim(w.P.inviteToken), 404, KYC_MESSAGES.tokenNotFound);
    });
    await refusedUnchanged(touches, () => kyc(w.Q.inviteToken), 404, KYC_MESSAGES.tokenNotFound);
    await refusedUnchanged(touches, () => claim(w.Q.inviteToken), 404, KYC_MESSAGES.tokenNotFound);
    await refusedUnchanged(touches, () => kyc(newToken()), 404, KYC_MESSAGES.tokenNotFound);
  });

  it("co-owner token: the invited e-mail opens it; expired, another property's and another person's are refused", async () => {
    const touches = [pkOf.property(w.P.id), pkOf.property(w.Q.id)];
    const form = { kind: 'face', fileName: 'volto.jpg', contentType: 'image/jpeg', size: 1000 };
    const upload = (token: string, caller = w.owner.token) =>
      api<Answer>('POST', `/seller/kyc/identity/uploads${queryString({ token })}`, { token: caller, body: form });
    const verify = (token: string) =>
      api<Answer>('POST', `/seller/kyc/identity${queryString({ token })}`, {
        token: w.owner.token,
        body: { documentNumber: 'CA12345ZZ', faceKey: `${w.Q.id}/identity/x.jpg`, documentFrontKey: `${w.Q.id}/identity/y.jpg` },
      });

    const state = await api<Answer>('GET', `/seller/kyc${queryString({ token: w.Q.coToken })}`, { token: w.owner.token });
    expect(state.status, JSON.stringify(state.body)).toBe(200);
    expect(state.body.role).toBe('coOwner');
    const ok = await upload(w.Q.coToken);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.key).toMatch(new RegExp(`^${w.Q.id}/identity/coowner-${w.Q.coOwnerId}-face-\\d+-[0-9a-f]{24}\\.jpg$`));

    await whileExpired(keys.coOwnerInvitation(w.Q.coToken), async () => {
      await refusedUnchanged(touches, () => upload(w.Q.coToken), 404, KYC_MESSAGES.tokenNotFound);
      await refusedUnchanged(touches, () => verify(w.Q.coToken), 404, KYC_MESSAGES.tokenNotFound);
    });
    // a valid co-owner link of another property, inviting another person
    const otherToken = newToken();
    await ddb().send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: keys.coOwnerInvitation(otherToken),
        UpdateExpression: 'SET entity = :e, propertyId = :p, coOwnerId = :c, email = :m, expiresAt = :x',
        ExpressionAttributeValues: { ':e': 'coOwnerInvitation', ':p': w.P.id, ':c': 'nessuno', ':m': w.otherSeller.email, ':x': nowSeconds() + 86_400 },
      }),
    );
    await refusedUnchanged(touches, () => upload(otherToken), 404, KYC_MESSAGES.tokenNotFound);
    await refusedUnchanged(touches, () => verify(otherToken), 404, KYC_MESSAGES.tokenNotFound);
    // the right link opened by another account (even the property's owner)
    await refusedUnchanged(touches, () => upload(w.Q.coToken, w.otherSeller.token), 404, KYC_MESSAGES.tokenNotFound);
  });

  it("availability link: valid opens, expired and another seller's are refused; the owner's page by id stays open", async () => {
    const touches = [pkOf.property(w.P.id), pkOf.property(w.Q.id)];
    const days = [{ date: dayAhead(2, 12), slots: [{ start: '10:00', end: '11:00' }] }];
    const read = (token: string) => api<Answer>('GET', `/seller/availability/${encodeURIComponent(token)}`, { token: w.owner.token });
    const own = (propertyId: string, as = w.owner.token) => api<Answer>('GET', `/seller/properties/${propertyId}/availability`, { token: as });
    const save = (propertyId: string, as = w.owner.token) => api<Answer>('PUT', `/seller/properties/${propertyId}/availability`, { token: as, body: { days } });

    expect((await read(w.P.availToken)).status).toBe(200);
    await whileExpired(keys.availabilityToken(w.P.availToken), async () => {
      await refusedUnchanged(touches, () => read(w.P.availToken), 404, AVAILABILITY_MESSAGES.invalidLink);
      // the owner is never locked out: by id, the page still opens
      expect((await own(w.P.id)).status).toBe(200);
    });
    await refusedUnchanged(touches, () => read(w.Q.availToken), 404, AVAILABILITY_MESSAGES.invalidLink);
    await refusedUnchanged(touches, () => own(w.Q.id), 404, AVAILABILITY_MESSAGES.propertyNotFound);
    await refusedUnchanged(touches, () => save(w.Q.id), 404, AVAILABILITY_MESSAGES.propertyNotFound);
    await refusedUnchanged(touches, () => save(w.P.id, w.otherSeller.token), 404, AVAILABILITY_MESSAGES.propertyNotFound);
  });

  it('GET /links/{token} answers only the kind: valid, expired (unknown), another property\'s', async () => {
    const kind = async (token: string) => {
      const res = await api<Answer>('GET', `/links/${encodeURIComponent(token)}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['kind']);
      return res.body.kind;
    };
    expect(await kind(w.P.availToken)).toBe('availability');
    expect(await kind(w.Q.inviteToken)).toBe('invitation');
    await whileExpired(keys.availabilityToken(w.P.availToken), async () => {
      expect(await kind(w.P.availToken)).toBe('unknown');
    });
  });

  it('Stripe webhook: a valid signature is applied; an expired one or another secret is a 400 that changes nothing', async () => {
    const touches = [pkOf.property(w.P.id)];
    const event = {
      id: 'evt_matrice',
      object: 'event',
      type: 'checkout.session.completed',
      created: nowSeconds(),
      data: {
        object: {
          id: 'cs_test_matrice',
          object: 'checkout.session',
          mode: 'payment',
          status: 'complete',
          payment_status: 'paid',
          amount_total: 9000,
          currency: 'eur',
          client_reference_id: w.agentRequestId,
          metadata: { requestId: w.agentRequestId, propertyId: w.P.id, agentId: w.agent.userId },
        },
      },
    };
    const deliver = (payload: object, secret: string, timestamp?: number) => {
      const body = JSON.stringify(payload);
      const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, ...(timestamp ? { timestamp } : {}) });
      return api<Answer>('POST', '/payments/stripe/webhook', { body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
    };
    const secret = stack().env.STRIPE_WEBHOOK_SECRET!;
    await refusedUnchanged(touches, () => deliver(event, secret, nowSeconds() - 3600), 400, AGENT_MESSAGES.signatureInvalid);
    await refusedUnchanged(touches, () => deliver(event, 'whsec_di_un_altro_account'), 400, AGENT_MESSAGES.signatureInvalid);
    const ignored = await deliver({ ...event, id: 'evt_ignorato', type: 'customer.created' }, secret);
    expect(ignored.status, JSON.stringify(ignored.body)).toBe(200);
    expect(ignored.body).toEqual({ received: true, outcome: 'ignored' });
  });
});

describe('ids named like the members of Object.prototype', () => {
  // found by the fuzzer: DELETE /users/__proto__ answered 204 (the local Cognito found a login named so)
  it.each(['__proto__', 'constructor', 'valueOf', 'hasOwnProperty', 'toString'])('%s is an unknown id: 404, nothing changed', async (id) => {
    const calls: [string, string, unknown][] = [
      ['DELETE', `/users/${id}`, undefined],
      ['PUT', `/users/${id}/role`, { role: 'admin' }],
      ['POST', `/users/${id}/agent-approval`, { decision: 'approve' }],
      ['DELETE', `/sources/${id}`, undefined],
      ['GET', `/admin/properties/${id}`, undefined],
      ['DELETE', `/admin/properties/${id}`, { confirm: 'elimina' }],
      ['POST', `/admin/agent-requests/${id}/paid`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const before = await snapshot([], true);
      const res = await api<Answer>(method, path, { token: w.admin, body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body ?? null)}`).toBe(404);
      expectItalianError(res);
      expect(await snapshot([], true), `${method} ${path}`).toEqual(before);
    }
  });
});

describe('every route x every caller', () => {
  for (const route of manifest) {
    describe(`${route.method} ${route.path} (${route.id})`, () => {
      for (const caller of CALLERS) {
        it(caller, async () => {
          const rule = RULES[route.id];
          expect(rule, `no rule for ${route.id} in test/support/security.ts`).toBeDefined();
          await check(route, caller);
        });
      }
    });
  }
});

async function check(route: RouteDef, caller: CallerName) {
  const rule = RULES[route.id]!;
  const expected = expectationFor(rule, caller);
  const path = pathOf(route, rule.params?.(w) ?? {}) + queryString(rule.query?.(w));
  const body = route.method === 'GET' ? undefined : ((rule.probe ?? rule.body)?.(w) ?? {});
  const touches = rule.touches(w);
  const before = expected.refused ? await snapshot(touches, writesMedia(route)) : undefined;
  const res = await api<Answer>(route.method, path, { token: w.tokens[caller], body });
  const seen = `${res.status} ${JSON.stringify(res.body ?? null).slice(0, 400)}`;

  if (expected.refused) {
    expect(res.status, seen).toBe(expected.status);
    if (expected.message) expect(res.body.message, seen).toBe(expected.message);
    expectItalianError(res);
    expect(await snapshot(touches, writesMedia(route)), 'a refused call changed something').toEqual(before);
  } else {
    expect(res.status < 300 || LET_THROUGH_ANSWERS.includes(res.status), seen).toBe(true);
    if (rule.owner) expect(res.status === rule.owner.status && res.body.message === rule.owner.message, `the holder was refused: ${seen}`).toBe(false);
    if (res.status >= 400) expectItalianError(res);
  }
  // the owner's contact data reach only the owner and the admins
  if (caller !== 'owner' && caller !== 'admin') expect(JSON.stringify(res.body ?? '')).not.toContain(w.P.contactEmail);
}
