/**
 * The agent marketplace through the API: the request state machine (every transition and
 * every refused one), two simultaneous requests of one agent (50 runs, figures printed),
 * the admin's decisions, the payment that assigns the option atomically (the others rejected
 * and mailed), the Stripe webhook (signature, replay, base64 body), Checkout against a local
 * stand-in of Stripe, pending agents refused, and who may see an option's photos.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { resetConfig } from '../../functions/lib/config';
import { keys } from '../../functions/model/keys';
import { markRequestPaid } from '../../functions/model/agent-payment';
import { transitionOption } from '../../functions/model/option';
import { ConflictError } from '../../functions/lib/errors';
import { SYSTEM_ACTOR } from '../../functions/domain/activity';
import { addDays, todayInRome } from '../../functions/domain/availability';
import {
  AGENT_MESSAGES,
  type AdminAgentRequest,
  type AdminAgentRequestList,
  type AgentOptionList,
  type AgentOptionMedia,
  type AgentRequestList,
  type CreateAgentRequestResult,
} from '../../functions/domain/agent-requests';
import type { PurchaseOption } from '../../functions/domain/requests';
import { freePort } from '../../infra/local/emulators';
import { startGateway, type Gateway } from '../../infra/local/gateway';
import { api, edge, sentMail, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { checkoutCompleted, freshAgent, listedOption, pendingAgent, signedDelivery, type TestAgent } from '../support/agent';

type Answer<T> = T & { message?: string; error?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
let admin: string;

const request = (agent: TestAgent, propertyId: string, commissionPercentage: unknown) =>
  api<Answer<CreateAgentRequestResult>>('POST', `/agent/options/${propertyId}/requests`, { token: agent.token, body: { commissionPercentage } });
const myRequests = (agent: TestAgent) => api<Answer<AgentRequestList>>('GET', '/agent/requests', { token: agent.token });
const available = (agent: TestAgent) => api<Answer<AgentOptionList>>('GET', '/agent/options', { token: agent.token });
const assigned = (agent: TestAgent) => api<Answer<AgentOptionList>>('GET', '/agent/options/assigned', { token: agent.token });
const media = (agent: TestAgent | string, propertyId: string) =>
  api<Answer<AgentOptionMedia>>('GET', `/agent/options/${propertyId}/media`, { token: typeof agent === 'string' ? agent : agent.token });
const decide = (requestId: string, action: 'approve' | 'reject' | 'paid', token = admin) =>
  api<Answer<AdminAgentRequest>>('POST', `/admin/agent-requests/${requestId}/${action}`, { token });
const adminList = (status: string) => api<Answer<AdminAgentRequestList>>('GET', `/admin/agent-requests?status=${status}`, { token: admin });
const webhook = (delivery: { body: string; signature?: string }, contentType = 'application/json') =>
  api<Answer<{ received: boolean; outcome: string }>>('POST', '/payments/stripe/webhook', {
    body: delivery.body,
    headers: { 'content-type': contentType, ...(delivery.signature !== undefined ? { 'stripe-signature': delivery.signature } : {}) },
  });

const requestItem = async (propertyId: string, agentId: string) =>
  (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.agentRequest(propertyId, agentId), ConsistentRead: true }))).Item;
const optionItem = async (propertyId: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(propertyId), ConsistentRead: true }))).Item!;
const requestsOf = async (propertyId: string) =>
  (
    await ddb().send(
      new QueryCommand({
        TableName: TABLE(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': keys.agentRequestsOfOption(propertyId).pk, ':p': keys.agentRequestsOfOption(propertyId).skPrefix },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];
const mailsTo = async (email: string) => (await sentMail()).filter((m) => m.destination.to.includes(email));

/** A request in payment_pending: asked at `pct`, approved by the admin. */
async function approvedRequest(agent: TestAgent, option: PurchaseOption, pct = 3): Promise<string> {
  const created = await request(agent, option.propertyId, pct);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const approved = await decide(created.body.request.id, 'approve');
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return created.body.request.id;
}

beforeAll(async () => {
  useStackEnv();
  admin = await tokenForRole('admin');
});

describe('the request state machine', () => {
  it('new -> pending; refused while open; admin reject; asked again; approve; paid by bank transfer', async () => {
    const option = await listedOption();
    const agent = await freshAgent('Carla Neri');

    // the option is offered, without the seller's personal data
    const offered = (await available(agent)).body.items.find((o) => o.propertyId === option.propertyId);
    expect(offered).toMatchObject({ optionId: option.id, address: 'Via Giuseppe Verdi 12', city: 'Milano', province: 'MI', optionAmount: 3000, minAgentCommissionPercentage: 2, agentCommissionPercentage: 5, myRequest: null, assignedToMe: false });
    // the seller's phone as written ('347 765 4321') or as digits: a bare 347 could be part of a random id
    expect(JSON.stringify(offered)).not.toMatch(/Giulia|Bianchi|@example|347 ?765 ?4321/);

    // commission outside the option's slider: refused, nothing written
    for (const [pct, message] of [
      [1, 'La provvigione deve essere tra 2% e 5%'],
      [6, 'La provvigione deve essere tra 2% e 5%'],
      [2.5, AGENT_MESSAGES.commissionStep],
      ['3', AGENT_MESSAGES.commissionRequired],
      [null, AGENT_MESSAGES.commissionRequired],
    ] as const) {
      const res = await request(agent, option.propertyId, pct);
      expect(res.status, `${pct}`).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await requestItem(option.propertyId, agent.userId)).toBeUndefined();

    // (none) -> pending
    const created = await request(agent, option.propertyId, 3);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ outcome: 'created', request: { status: 'pending', requestedCommissionPercentage: 3, commissionAmount: 90, optionAmount: 3000, propertyValue: 300_000, propertyAddress: 'Via Giuseppe Verdi 12' } });
    const id = created.body.request.id;
    expect(created.body.request.reference).toBe(`OPZ-${id.slice(0, 8)}`);
    expect(await requestItem(option.propertyId, agent.userId)).toMatchObject({ id, status: 'pending', agentId: agent.userId, agentName: 'Carla Neri', agentEmail: agent.email, optionId: option.id });
    expect((await myRequests(agent)).body.items[0]).toMatchObject({ id, status: 'pending' });
    expect((await available(agent)).body.items.find((o) => o.propertyId === option.propertyId)?.myRequest).toEqual({ id, status: 'pending', requestedCommissionPercentage: 3 });
    expect((await adminList('pending')).body.items.find((r) => r.id === id)).toMatchObject({ agentName: 'Carla Neri', agentEmail: agent.email, propertyCity: 'Milano', requestedCommissionPercentage: 3 });

    // pending: another request is refused with its status
    const again = await request(agent, option.propertyId, 4);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'REQUEST_EXISTS', message: 'Hai già una richiesta in stato: In Attesa' });

    // a request not awaiting payment cannot be paid
    expect((await decide(id, 'paid')).body.message).toBe(AGENT_MESSAGES.notAwaitingPayment('In Attesa'));

    // pending -> rejected (mail), then nothing more to decide
    const rejected = await decide(id, 'reject');
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.status).toBe('rejected');
    await expect.poll(async () => (await mailsTo(agent.email)).map((m) => m.subject)).toContain('Richiesta di assegnazione non approvata');
    for (const action of ['reject', 'approve'] as const) {
      const twice = await decide(id, action);
      expect(twice.status).toBe(409);
      expect(twice.body.message).toBe(AGENT_MESSAGES.notPending('Rifiutata'));
    }
    expect((await adminList('pending')).body.items.some((r) => r.id === id)).toBe(false);

    // rejected -> pending again, with the new commission, same request
    const reasked = await request(agent, option.propertyId, 4);
    expect(reasked.status, JSON.stringify(reasked.body)).toBe(201);
    expect(reasked.body).toMatchObject({ outcome: 'updated', request: { id, status: 'pending', requestedCommissionPercentage: 4, commissionAmount: 120 } });
    expect(await requestItem(option.propertyId, agent.userId)).not.toHaveProperty('rejectedAt');

    // pending -> payment_pending (mail with the payment link and the reference)
    const approved = await decide(id, 'approve');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ status: 'payment_pending' });
    await expect.poll(async () => (await mailsTo(agent.email)).find((m) => m.subject.startsWith('Richiesta approvata'))?.body.text).toContain(`OPZ-${id.slice(0, 8)}`);
    const approvedMail = (await mailsTo(agent.email)).find((m) => m.subject.startsWith('Richiesta approvata'))!;
    expect(approvedMail.body.text).toContain('120,00 €');
    expect(approvedMail.body.text).toContain('/agent-area/purchase-options?tab=requests');
    expect((await adminList('payment_pending')).body.items.find((r) => r.id === id)?.status).toBe('payment_pending');
    expect((await adminList('pending')).body.items.some((r) => r.id === id)).toBe(false);
    for (const action of ['approve', 'reject'] as const) expect((await decide(id, action)).body.message).toBe(AGENT_MESSAGES.notPending('Attesa Pagamento'));
    expect((await request(agent, option.propertyId, 2)).body.message).toBe('Hai già una richiesta in stato: Attesa Pagamento');

    // no Stripe key on this stack: the card is not configured, the bank transfer remains
    const card = await api<Answer<object>>('POST', `/agent/requests/${id}/payment`, { token: agent.token });
    expect(card.status).toBe(409);
    expect(card.body).toMatchObject({ error: 'CARD_NOT_CONFIGURED', message: AGENT_MESSAGES.cardNotConfigured });

    // payment_pending -> paid (bank transfer received): the option is the agent's
    const paid = await decide(id, 'paid');
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', paidVia: 'bonifico' });
    expect(await requestItem(option.propertyId, agent.userId)).toMatchObject({ status: 'paid', paidVia: 'bonifico' });
    expect(await optionItem(option.propertyId)).toMatchObject({ assignedAgentId: agent.userId, gsi3pk: `AGENTOPTIONS#${agent.userId}` });
    for (const action of ['paid', 'approve', 'reject'] as const) expect((await decide(id, action)).status).toBe(409);
    expect((await request(agent, option.propertyId, 3)).status).toBe(409);
    expect((await myRequests(agent)).body.items.find((r) => r.id === id)).toMatchObject({ status: 'paid', paidVia: 'bonifico' });

    // no longer offered; in the agent's charge
    expect((await available(agent)).body.items.some((o) => o.propertyId === option.propertyId)).toBe(false);
    await expect.poll(async () => (await assigned(agent)).body.items.find((o) => o.propertyId === option.propertyId)?.assignedToMe).toBe(true);
    expect((await assigned(agent)).body.items.find((o) => o.propertyId === option.propertyId)?.myRequest).toMatchObject({ status: 'paid', requestedCommissionPercentage: 4 });
  });

  it('refuses requests on options not offered to agents and unknown ids', async () => {
    const agent = await freshAgent();
    const option = await listedOption();
    await api('POST', `/admin/options/${option.propertyId}/transitions`, { token: admin, body: { action: 'withdraw' } });
    const res = await request(agent, option.propertyId, 3);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(AGENT_MESSAGES.optionUnavailable);
    expect((await available(agent)).body.items.some((o) => o.propertyId === option.propertyId)).toBe(false);
    expect((await request(agent, '00000000-0000-4000-8000-000000000000', 3)).status).toBe(404);
    expect((await request(agent, 'PROPERTY#x', 3)).status).toBe(404);
    for (const action of ['approve', 'reject', 'paid'] as const) {
      const unknown = await decide('00000000-0000-4000-8000-000000000000', action);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(AGENT_MESSAGES.requestNotFound);
    }
    expect((await adminList('paid')).status).toBe(400);
    expect((await adminList('paid')).body.message).toBe(AGENT_MESSAGES.statusInvalid);
  });

  it('an agent pays only their own request', async () => {
    const option = await listedOption();
    const [owner, other] = [await freshAgent(), await freshAgent()];
    const id = await approvedRequest(owner, option);
    const res = await api<Answer<object>>('POST', `/agent/requests/${id}/payment`, { token: other.token });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(AGENT_MESSAGES.requestNotFound);
  });
});

describe('rules that hold in the write, not only in a read before it', () => {
  /** `n` open requests of agents that only exist in the table (the count is what is tested). */
  async function seedOpenRequests(propertyId: string, n: number): Promise<string[]> {
    const agentIds = Array.from({ length: n }, () => `seed-${randomUUID()}`);
    for (const agentId of agentIds) {
      await ddb().send(
        new PutCommand({
          TableName: TABLE(),
          Item: { ...keys.agentRequest(propertyId, agentId), entity: 'agentRequest', id: randomUUID(), propertyId, agentId, status: 'pending', agentEmail: `${agentId}@example.it` },
        }),
      );
    }
    return agentIds;
  }

  it('a rejected request asked again counts toward the 40 open requests of an option', async () => {
    const option = await listedOption();
    const agent = await freshAgent();
    const first = await request(agent, option.propertyId, 3);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((await decide(first.body.request.id, 'reject')).status).toBe(200);
    const seeded = await seedOpenRequests(option.propertyId, 40);
    const again = await request(agent, option.propertyId, 4);
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body).toMatchObject({ error: 'TOO_MANY_REQUESTS', message: AGENT_MESSAGES.tooManyOpen });
    expect((await requestItem(option.propertyId, agent.userId))!.status).toBe('rejected');
    // one closed: the agent may ask again
    await ddb().send(new DeleteCommand({ TableName: TABLE(), Key: keys.agentRequest(option.propertyId, seeded[0]!) }));
    expect((await request(agent, option.propertyId, 4)).status).toBe(201);
  });

  it('a request saved after a payment read the open ones makes the payment start again, and it is closed too', async () => {
    const option = await listedOption();
    const [a, late] = [await freshAgent('Agente A'), await freshAgent('Agente tardivo')];
    const idA = await approvedRequest(a, option, 3);
    // the payment's read: the option (its requests version) and no other open request
    const read = await optionItem(option.propertyId);
    const target = (await requestItem(option.propertyId, a.userId))!;
    // another agent's request is saved before the payment's write
    expect((await request(late, option.propertyId, 4)).status).toBe(201);
    const stale = await markRequestPaid({
      target,
      via: 'bonifico',
      paymentRef: 'test',
      at: new Date().toISOString(),
      closing: [],
      requestsVersion: Number(read.requestsVersion ?? 0),
      actor: SYSTEM_ACTOR,
    });
    expect(stale.outcome).toBe('option_moved');
    expect(await optionItem(option.propertyId)).toMatchObject({ status: 'published', assignedAgentId: null });
    expect((await requestItem(option.propertyId, a.userId))!.status).toBe('payment_pending');
    // the use case reads again: paid, and the late request closed with its mail
    const paid = await decide(idA, 'paid');
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await requestItem(option.propertyId, late.userId)).toMatchObject({ status: 'rejected', rejectedReason: 'assigned' });
    await expect.poll(async () => (await mailsTo(late.email)).length).toBeGreaterThan(0);
  });

  it('a request saved after a withdrawal read the open ones makes it start again, and it is closed too', async () => {
    const option = await listedOption();
    const late = await freshAgent();
    const read = await optionItem(option.propertyId);
    expect((await request(late, option.propertyId, 3)).status).toBe(201);
    // the write at the version read before the request: refused
    await expect(
      transitionOption({ propertyId: option.propertyId, action: 'withdraw', actor: SYSTEM_ACTOR, at: new Date().toISOString(), option: read, requestsVersion: Number(read.requestsVersion ?? 0) }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect((await optionItem(option.propertyId)).status).toBe('published');
    // the admin's withdrawal reads again and closes it
    const withdrawn = await api<Answer<{ status: string; closedRequests: number }>>('POST', `/admin/options/${option.propertyId}/transitions`, { token: admin, body: { action: 'withdraw' } });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(withdrawn.body).toMatchObject({ status: 'signed', closedRequests: 1 });
    expect(await requestItem(option.propertyId, late.userId)).toMatchObject({ status: 'rejected', rejectedReason: 'withdrawn' });
  });

  it('marking an option exercised closes its open requests and tells their agents; none can pay', async () => {
    const option = await listedOption();
    const [waiting, approved] = [await freshAgent('Agente in attesa'), await freshAgent('Agente approvato')];
    expect((await request(waiting, option.propertyId, 3)).status).toBe(201);
    const idApproved = await approvedRequest(approved, option, 4);
    const exercised = await api<Answer<{ status: string; closedRequests: number }>>('POST', `/admin/options/${option.propertyId}/transitions`, { token: admin, body: { action: 'exercise' } });
    expect(exercised.status, JSON.stringify(exercised.body)).toBe(200);
    expect(exercised.body).toMatchObject({ status: 'exercised', closedRequests: 2 });
    for (const agent of [waiting, approved]) {
      expect(await requestItem(option.propertyId, agent.userId)).toMatchObject({ status: 'rejected', rejectedReason: 'exercised' });
      await expect.poll(async () => (await mailsTo(agent.email)).some((m) => (m.body.text ?? m.body.html ?? '').includes('è stata esercitata'))).toBe(true);
    }
    const pay = await api<Answer<object>>('POST', `/agent/requests/${idApproved}/payment`, { token: approved.token });
    expect(pay.status).toBe(409);
    expect((await adminList('payment_pending')).body.items.some((r) => r.id === idApproved)).toBe(false);
  });

  it('an option past its expiry day takes no request, approval, payment or publication before the daily job expires it', async () => {
    const option = await listedOption();
    const [payer, waiting, newcomer] = [await freshAgent(), await freshAgent(), await freshAgent()];
    const idPayer = await approvedRequest(payer, option, 3);
    const created = await request(waiting, option.propertyId, 3);
    expect(created.status).toBe(201);
    const yesterday = addDays(todayInRome(), -1);
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.option(option.propertyId), UpdateExpression: 'SET expiresAt = :d', ExpressionAttributeValues: { ':d': yesterday } }));

    const asked = await request(newcomer, option.propertyId, 3);
    expect(asked.status).toBe(409);
    expect(asked.body.message).toBe(AGENT_MESSAGES.optionUnavailable);
    expect((await available(newcomer)).body.items.some((o) => o.propertyId === option.propertyId)).toBe(false);
    expect((await decide(created.body.request.id, 'approve')).status).toBe(409);
    const paid = await decide(idPayer, 'paid');
    expect(paid.status).toBe(409);
    expect(paid.body).toMatchObject({ error: 'OPTION_UNAVAILABLE' });
    expect(await optionItem(option.propertyId)).toMatchObject({ status: 'published', assignedAgentId: null });
    expect((await requestItem(option.propertyId, payer.userId))!.status).toBe('payment_pending');
    expect((await media(newcomer, option.propertyId)).status).toBe(404);

    // withdrawn, it cannot be published again
    expect((await api('POST', `/admin/options/${option.propertyId}/transitions`, { token: admin, body: { action: 'withdraw' } })).status).toBe(200);
    const published = await api<Answer<object>>('POST', `/admin/options/${option.propertyId}/transitions`, { token: admin, body: { action: 'publish' } });
    expect(published.status).toBe(409);
    expect(published.body.message).toBe("L'opzione è scaduta: non si può più pubblicare agli agenti");
    expect((await optionItem(option.propertyId)).status).toBe('signed');
  });

  it('an option cancelled after its assignment leaves the agent\'s options in charge', async () => {
    const option = await listedOption();
    const agent = await freshAgent();
    const id = await approvedRequest(agent, option, 3);
    expect((await decide(id, 'paid')).status).toBe(200);
    await expect.poll(async () => (await assigned(agent)).body.items.some((o) => o.propertyId === option.propertyId)).toBe(true);
    const cancelled = await api('POST', `/admin/options/${option.propertyId}/transitions`, { token: admin, body: { action: 'cancel', reason: 'Venditore deceduto' } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await assigned(agent)).body.items.some((o) => o.propertyId === option.propertyId)).toBe(false);
    expect((await media(agent, option.propertyId)).status).toBe(404);
  });
});

describe('two simultaneous requests of the same agent on one option', () => {
  it('exactly one succeeds, 50 runs (and 20 runs of asking again a rejected request)', async () => {
    const option = await listedOption();
    const agent = await freshAgent();
    const runs = 50;
    const figures = { runs, conditionalWriteLost: 0, readSawTheOther: 0 };
    for (let run = 0; run < runs; run++) {
      await ddb().send(new DeleteCommand({ TableName: TABLE(), Key: keys.agentRequest(option.propertyId, agent.userId) }));
      const [a, b] = await Promise.all([request(agent, option.propertyId, 2), request(agent, option.propertyId, 3)]);
      const won = [a, b].filter((r) => r.status === 201);
      const lost = [a, b].filter((r) => r.status !== 201);
      expect(won.length, `run ${run}: ${a.status} ${b.status} ${JSON.stringify([a.body, b.body])}`).toBe(1);
      expect(lost[0]!.status).toBe(409);
      if (lost[0]!.body.error === 'DUPLICATE_REQUEST') {
        expect(lost[0]!.body.message).toBe('Hai già richiesto questa opzione. Ricarica la pagina.');
        figures.conditionalWriteLost++;
      } else {
        expect(lost[0]!.body).toMatchObject({ error: 'REQUEST_EXISTS', message: 'Hai già una richiesta in stato: In Attesa' });
        figures.readSawTheOther++;
      }
      const items = await requestsOf(option.propertyId);
      expect(items).toHaveLength(1);
      expect(items[0]!.requestedCommissionPercentage).toBe(won[0]!.body.request.requestedCommissionPercentage);
    }

    // a rejected request asked again twice at once: one update wins
    const again = { runs: 20, conditionalWriteLost: 0, readSawTheOther: 0 };
    for (let run = 0; run < again.runs; run++) {
      await ddb().send(
        new UpdateCommand({
          TableName: TABLE(),
          Key: keys.agentRequest(option.propertyId, agent.userId),
          UpdateExpression: 'SET #s = :r REMOVE gsi2pk, gsi2sk',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':r': 'rejected' },
        }),
      );
      const [a, b] = await Promise.all([request(agent, option.propertyId, 4), request(agent, option.propertyId, 5)]);
      expect([a, b].filter((r) => r.status === 201)).toHaveLength(1);
      const lost = [a, b].find((r) => r.status !== 201)!;
      expect(lost.status).toBe(409);
      if (lost.body.error === 'DUPLICATE_REQUEST') again.conditionalWriteLost++;
      else again.readSawTheOther++;
      expect((await requestItem(option.propertyId, agent.userId))!.status).toBe('pending');
    }
    console.log(`[agent-requests] simultaneous new requests: ${JSON.stringify(figures)}; simultaneous re-requests: ${JSON.stringify(again)}`);
    // the race was really run: at least once both requests passed the read and the condition decided
    expect(figures.conditionalWriteLost + again.conditionalWriteLost).toBeGreaterThan(0);
  });
});

describe('paying assigns the option in one transaction', () => {
  it('webhook: bad signatures change nothing; paid; the others rejected and mailed; a replay changes nothing', async () => {
    const option = await listedOption();
    const [a, b, c, d] = [await freshAgent('Agente A'), await freshAgent('Agente B'), await freshAgent('Agente C'), await freshAgent('Agente D')];
    const idA = await approvedRequest(a, option, 3);
    const idB = await approvedRequest(b, option, 5);
    const idC = (await request(c, option.propertyId, 2)).body.request.id;
    const idD = (await request(d, option.propertyId, 2)).body.request.id;
    expect((await decide(idD, 'reject')).status).toBe(200);
    const event = checkoutCompleted({ requestId: idA, propertyId: option.propertyId, agentId: a.userId, amountCents: 9000 });
    const good = signedDelivery(event);
    const before = await requestsOf(option.propertyId);

    // refused: no signature, another secret, a body changed after signing, an old timestamp
    const tampered = { body: good.body.replace('"amount_total": 9000', '"amount_total": 9001'), signature: good.signature };
    const stale = { body: good.body, signature: good.signature.replace(/t=\d+/, `t=${Math.floor(Date.now() / 1000) - 3600}`) };
    for (const delivery of [{ body: good.body }, signedDelivery(event, 'whsec_altro'), tampered, stale, { body: good.body, signature: 'garbage' }]) {
      const res = await webhook(delivery);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(AGENT_MESSAGES.signatureInvalid);
    }
    expect(await requestsOf(option.propertyId)).toEqual(before);
    expect((await optionItem(option.propertyId)).assignedAgentId).toBeNull();

    // paid: one transaction
    const ours = async () => (await sentMail()).filter((m) => [a, b, c, d].some((x) => m.destination.to.includes(x.email))).length;
    const mailsBefore = await ours();
    const res = await webhook(good);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'paid' });
    expect(await requestItem(option.propertyId, a.userId)).toMatchObject({ id: idA, status: 'paid', paidVia: 'carta', paymentRef: event.data.object.id });
    expect(await optionItem(option.propertyId)).toMatchObject({ assignedAgentId: a.userId });
    expect(await requestItem(option.propertyId, b.userId)).toMatchObject({ id: idB, status: 'rejected', rejectedReason: 'assigned' });
    expect(await requestItem(option.propertyId, c.userId)).toMatchObject({ id: idC, status: 'rejected', rejectedReason: 'assigned' });
    expect(await requestItem(option.propertyId, d.userId)).toMatchObject({ id: idD, status: 'rejected', rejectedReason: 'admin' });
    for (const agent of [b, c]) {
      await expect.poll(async () => (await mailsTo(agent.email)).map((m) => m.subject)).toContain('Opzione assegnata a un altro agente');
    }
    const toB = (await mailsTo(b.email)).find((m) => m.subject === 'Opzione assegnata a un altro agente')!;
    expect(toB.body.text).toContain('Non effettuare il pagamento');
    expect((await mailsTo(d.email)).map((m) => m.subject)).not.toContain('Opzione assegnata a un altro agente');
    expect((await ours()) - mailsBefore).toBe(2);
    expect((await adminList('payment_pending')).body.items.some((r) => r.id === idB)).toBe(false);

    // the same delivery again (Stripe retries): nothing changes, no mail
    const after = await requestsOf(option.propertyId);
    const optionAfter = await optionItem(option.propertyId);
    const replay = await webhook(good);
    expect(replay.status).toBe(200);
    expect(replay.body.outcome).toBe('already_paid');
    expect(await requestsOf(option.propertyId)).toEqual(after);
    expect(await optionItem(option.propertyId)).toEqual(optionAfter);
    await new Promise((r) => setTimeout(r, 300));
    expect((await ours()) - mailsBefore).toBe(2);

    // a payment for B, whose request was closed: acknowledged, nothing changes (an operator refunds it)
    const late = await webhook(signedDelivery(checkoutCompleted({ requestId: idB, propertyId: option.propertyId, agentId: b.userId, amountCents: 15000 })));
    expect(late.body.outcome).toBe('ignored');
    expect(await requestsOf(option.propertyId)).toEqual(after);
    // the others can no longer ask
    expect((await request(d, option.propertyId, 3)).body.message).toBe(AGENT_MESSAGES.optionUnavailable);
    expect((await decide(idB, 'paid')).status).toBe(409);
  });

  it('webhook: a base64 body (as API Gateway passes a non-text one), an amount that does not match, an unpaid session', async () => {
    const option = await listedOption();
    const agent = await freshAgent();
    const id = await approvedRequest(agent, option, 4);
    const wrongAmount = await webhook(signedDelivery(checkoutCompleted({ requestId: id, propertyId: option.propertyId, agentId: agent.userId, amountCents: 100 })));
    expect(wrongAmount.body.outcome).toBe('ignored');
    const unpaid = checkoutCompleted({ requestId: id, propertyId: option.propertyId, agentId: agent.userId, amountCents: 12000 });
    unpaid.data.object.payment_status = 'unpaid';
    expect((await webhook(signedDelivery(unpaid))).body.outcome).toBe('ignored');
    const other = signedDelivery({ ...unpaid, type: 'payment_intent.created' });
    expect((await webhook(other)).body.outcome).toBe('ignored');
    expect((await requestItem(option.propertyId, agent.userId))!.status).toBe('payment_pending');

    const res = await webhook(signedDelivery(checkoutCompleted({ requestId: id, propertyId: option.propertyId, agentId: agent.userId, amountCents: 12000 })), 'application/octet-stream');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.outcome).toBe('paid');
    expect(await optionItem(option.propertyId)).toMatchObject({ assignedAgentId: agent.userId });
  });

  it('two payments on one option at once: exactly one agent gets it, the other request is closed', async () => {
    const runs = 5;
    for (let run = 0; run < runs; run++) {
      const option = await listedOption();
      const [a, b] = [await freshAgent(), await freshAgent()];
      const [idA, idB] = [await approvedRequest(a, option, 2), await approvedRequest(b, option, 3)];
      const [ra, rb] = await Promise.all([
        decide(idA, 'paid'),
        webhook(signedDelivery(checkoutCompleted({ requestId: idB, propertyId: option.propertyId, agentId: b.userId, amountCents: 9000 }))),
      ]);
      const aWon = ra.status === 200;
      const bWon = rb.status === 200 && rb.body.outcome === 'paid';
      expect(aWon !== bWon, `run ${run}: ${ra.status} ${JSON.stringify(rb.body)}`).toBe(true);
      const winner = aWon ? a : b;
      const loser = aWon ? b : a;
      expect((await optionItem(option.propertyId)).assignedAgentId).toBe(winner.userId);
      expect((await requestItem(option.propertyId, winner.userId))!.status).toBe('paid');
      expect((await requestItem(option.propertyId, loser.userId))!.status).toBe('rejected');
      if (!aWon) expect(ra.status).toBe(409);
    }
  });
});

describe('Stripe Checkout (a local stand-in of the Stripe API)', () => {
  let stripe: http.Server;
  let calls: { path: string; form: URLSearchParams; auth: string; idempotency: string }[] = [];
  let gateway: Gateway;

  beforeAll(async () => {
    stripe = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        calls.push({ path: `${req.method} ${req.url}`, form, auth: String(req.headers.authorization), idempotency: String(req.headers['idempotency-key'] ?? '') });
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_local' });
        res.end(JSON.stringify({ id: 'cs_test_local123', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_test_local123', payment_status: 'unpaid' }));
      });
    });
    const stripePort = await freePort();
    await new Promise<void>((r) => stripe.listen(stripePort, '127.0.0.1', () => r()));
    // a second gateway in this process: the same handlers with a Stripe key and the stand-in's address
    Object.assign(process.env, { STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_API_URL: `http://127.0.0.1:${stripePort}` });
    resetConfig();
    gateway = await startGateway({ port: await freePort(), issuer: stack().urls.issuer, audience: stack().pool.userPoolClientId, corsOrigins: [] });
  });
  afterAll(async () => {
    await gateway?.stop();
    await new Promise((r) => stripe?.close(r));
    delete process.env.STRIPE_SECRET_KEY;
    delete process.env.STRIPE_API_URL;
    resetConfig();
  });

  it('creates the session with the amount in cents, the request in the metadata and the return pages', async () => {
    const option = await listedOption({ terms: { propertyValue: 257_500 } }); // option amount 2.575
    const agent = await freshAgent();
    const id = await approvedRequest(agent, option, 3); // 3% of 2.575 = 77,25
    calls = [];
    const res = await fetch(`${gateway.url}/api/agent/requests/${id}/payment`, { method: 'POST', headers: { ...edge(), authorization: `Bearer ${agent.token}` } });
    const body = (await res.json()) as { url: string };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.url).toBe('https://checkout.stripe.com/c/pay/cs_test_local123');
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.path).toBe('POST /v1/checkout/sessions');
    expect(call!.auth).toBe('Bearer sk_test_local');
    expect(call!.idempotency).toContain(id);
    const f = call!.form;
    expect(f.get('mode')).toBe('payment');
    expect(f.get('line_items[0][price_data][unit_amount]')).toBe('7725');
    expect(f.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(f.get('line_items[0][quantity]')).toBe('1');
    expect(f.get('line_items[0][price_data][product_data][description]')).toContain(`OPZ-${id.slice(0, 8)}`);
    expect(f.get('metadata[requestId]')).toBe(id);
    expect(f.get('metadata[propertyId]')).toBe(option.propertyId);
    expect(f.get('metadata[agentId]')).toBe(agent.userId);
    expect(f.get('payment_intent_data[metadata][requestId]')).toBe(id);
    expect(f.get('client_reference_id')).toBe(id);
    expect(f.get('customer_email')).toBe(agent.email);
    expect(f.get('success_url')).toBe('http://localhost:5173/agent-area/purchase-options?tab=requests&pagamento=completato');
    expect(f.get('cancel_url')).toBe('http://localhost:5173/agent-area/purchase-options?tab=requests&pagamento=annullato');
    expect(await requestItem(option.propertyId, agent.userId)).toMatchObject({ checkoutSessionId: 'cs_test_local123', paymentLinkUrl: body.url });

    // a request not approved yet: no call to Stripe
    const other = await listedOption();
    const pendingId = (await request(agent, other.propertyId, 2)).body.request.id;
    calls = [];
    const refused = await fetch(`${gateway.url}/api/agent/requests/${pendingId}/payment`, { method: 'POST', headers: { ...edge(), authorization: `Bearer ${agent.token}` } });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe(AGENT_MESSAGES.payOnlyApproved);
    expect(calls).toHaveLength(0);
  });
});

describe('who may use the agent routes', () => {
  it('an agent not approved (no agent group) is refused everywhere', async () => {
    const option = await listedOption();
    const pending = await pendingAgent();
    for (const [method, path, body] of [
      ['GET', '/agent/options', undefined],
      ['GET', '/agent/options/assigned', undefined],
      ['GET', `/agent/options/${option.propertyId}/media`, undefined],
      ['POST', `/agent/options/${option.propertyId}/requests`, { commissionPercentage: 3 }],
      ['GET', '/agent/requests', undefined],
      ['POST', '/agent/requests/00000000-0000-4000-8000-000000000000/payment', {}],
    ] as const) {
      const res = await api<Answer<object>>(method, path, { token: pending.token, body });
      expect(res.status, path).toBe(403);
    }
    expect(await requestItem(option.propertyId, pending.userId)).toBeUndefined();
  });

  it('photos and videos: only of an option offered to agents or in the caller\'s charge', async () => {
    const option = await listedOption({ media: true });
    const [owner, other] = [await freshAgent(), await freshAgent()];
    const res = await media(other, option.propertyId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.rooms.map((r) => [r.name, r.media.map((m) => m.fileName)])).toEqual([
      ['Soggiorno 1', [expect.stringMatching(/soggiorno\.png$/)]],
      ['Camera da letto 1', [expect.stringMatching(/camera\.png$/), expect.stringMatching(/giro_camera\.mp4$/)]],
    ]);
    const photo = await fetch(res.body.rooms[0]!.media[0]!.url);
    expect(photo.status).toBe(200);
    expect(Buffer.from(await photo.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');

    // assigned to `owner`: the other agent no longer sees it, the owner does
    const id = await approvedRequest(owner, option, 2);
    expect((await decide(id, 'paid')).status).toBe(200);
    const hidden = await media(other, option.propertyId);
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe(AGENT_MESSAGES.optionNotFound);
    expect((await media(owner, option.propertyId)).status).toBe(200);

    // an option the admin took off the market (status not pending) is not shown either
    const off = await listedOption({ media: true });
    await api('POST', `/admin/options/${off.propertyId}/transitions`, { token: admin, body: { action: 'cancel', reason: 'Tolta dal mercato' } });
    expect((await media(other, off.propertyId)).status).toBe(404);
    // nor are properties without an option
    expect((await media(other, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // admins and sellers have their own routes
    expect((await media(admin, option.propertyId)).status).toBe(403);
    expect((await media(await tokenForRole('seller'), option.propertyId)).status).toBe(403);
  });
});
