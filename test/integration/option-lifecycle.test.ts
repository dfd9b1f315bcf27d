/**
 * The option's lifecycle (issue 19 section 2) through the product's routes: created -> sent
 * (notification) -> signed (the seller's signed copy; without keys the availability link is
 * e-mailed at once) -> published (admin) -> assigned (the agent's payment) -> exercised; the
 * refusals of every action in a state that does not allow it (409, nothing written); withdraw
 * and cancel closing the agents' open requests; the daily expiry; options stored before the
 * lifecycle; and the activity history of all of it, on the request and in the admins' feed.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { migrateLegacyOptionStates } from '../../functions/model/option';
import { handler as expireOptionsHandler } from '../../functions/options/expire-options';
import { OPTION_LIFECYCLE_MESSAGES } from '../../functions/domain/option-lifecycle';
import type { ActivityEntry, ActivityPage } from '../../functions/domain/activity';
import type { CreateAgentRequestResult, AdminAgentRequest } from '../../functions/domain/agent-requests';
import type { PurchaseOption, RequestDossier } from '../../functions/domain/requests';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { api, sentMail, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { postToBucket } from '../support/submission';
import { freshSeller, ownedProperty, type Seller } from '../support/seller';
import { freshAgent, listedOption, type TestAgent } from '../support/agent';

type Answer<T = Record<string, unknown>> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
const DELEGATOR = { fullName: 'Mario Rossi', fiscalCode: 'RSSMRA85T10A562S', documentType: 'carta_identita', documentNumber: 'CA12345AB' };

let admin: string;
let owner: Seller;

beforeAll(async () => {
  useStackEnv();
  admin = await tokenForRole('admin');
  owner = await freshSeller();
});

const optionItem = async (id: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id), ConsistentRead: true }))).Item!;
const propertyItem = async (id: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;
const act = (id: string, body: unknown, token = admin) => api<Answer<{ status: string; closedRequests: number }>>('POST', `/admin/options/${id}/transitions`, { token, body });
const dossierOf = async (id: string) => (await api<RequestDossier>('GET', `/admin/properties/${id}`, { token: admin })).body;
const activityOf = async (id: string): Promise<ActivityEntry[]> => (await dossierOf(id)).activity;
const kinds = async (id: string) => (await activityOf(id)).map((e) => e.kind);
const agentRequest = (agent: TestAgent, propertyId: string, commissionPercentage = 3) =>
  api<Answer<CreateAgentRequestResult>>('POST', `/agent/options/${propertyId}/requests`, { token: agent.token, body: { commissionPercentage } });
const decide = (requestId: string, action: 'approve' | 'reject' | 'paid') => api<Answer<AdminAgentRequest>>('POST', `/admin/agent-requests/${requestId}/${action}`, { token: admin });

async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 14 });
  return Buffer.from(await doc.save());
}

/** A property of `owner` ready for the option: identity verified, the catasto delegation signed, no co-owners. */
async function readyProperty(): Promise<string> {
  const id = await ownedProperty(owner.userId);
  const at = new Date().toISOString();
  await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', documentNumber: 'CA12345AB', confidence: 92, reason: 'Identità verificata', verifiedAt: at, checkedAt: at } }));
  const gen = await api('PUT', `/seller/properties/${id}/delegations`, { token: owner.token, body: { province: 'MI', municipality: 'Milano', types: ['catasto'], delegator: DELEGATOR } });
  expect(gen.status, JSON.stringify(gen.body)).toBe(200);
  const signed = await pdf('Delega catasto firmata');
  const form = await api<Answer<PresignedUpload>>('POST', `/seller/properties/${id}/delegations/catasto/uploads`, { token: owner.token, body: { fileName: 'delega.pdf', contentType: 'application/pdf', size: signed.length } });
  expect((await postToBucket(form.body, signed, 'delega.pdf')).status).toBeLessThan(300);
  expect((await api('POST', `/seller/properties/${id}/delegations/catasto/signed`, { token: owner.token, body: { key: form.body.key } })).status).toBe(200);
  expect((await api('POST', `/seller/properties/${id}/co-owners/skip`, { token: owner.token, body: {} })).status).toBe(200);
  return id;
}

async function createOption(id: string, hasKeys = false): Promise<PurchaseOption> {
  const res = await api<Answer<PurchaseOption>>('POST', `/admin/properties/${id}/option`, {
    token: admin,
    body: { propertyValue: 250_000, optionDuration: 6, hasKeys, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** The seller signs through their own routes: the signed copy uploaded with the form, then confirmed. */
async function sellerSigns(id: string) {
  const signed = await pdf('Opzione firmata');
  const form = await api<Answer<PresignedUpload>>('POST', `/seller/properties/${id}/option/uploads`, { token: owner.token, body: { fileName: 'opzione-firmata.pdf', contentType: 'application/pdf', size: signed.length } });
  expect(form.status, JSON.stringify(form.body)).toBe(200);
  expect((await postToBucket(form.body, signed, 'opzione-firmata.pdf')).status).toBeLessThan(300);
  return api<Answer>('POST', `/seller/properties/${id}/option/signed`, { token: owner.token, body: { key: form.body.key } });
}

describe('the option moves through its states only by its use cases', () => {
  it('created -> sent -> signed (availability mail at once) -> published -> assigned -> exercised, each recorded', async () => {
    const id = await readyProperty();
    const created = await createOption(id);
    expect(created.status).toBe('created');
    expect((await propertyItem(id)).optionState).toBe('created');

    // not signed yet: publishing is refused and writes nothing
    const early = await act(id, { action: 'publish' });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(OPTION_LIFECYCLE_MESSAGES.publish);
    expect((await optionItem(id)).status).toBe('created');

    expect((await api('POST', `/admin/properties/${id}/option/notification`, { token: admin })).status).toBe(200);
    expect((await optionItem(id)).status).toBe('sent');

    const signed = await sellerSigns(id);
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const option = await optionItem(id);
    expect(option).toMatchObject({ status: 'signed', signatureType: 'fisica' });
    expect(option.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // without keys: the availability link exists and its mail went out with the signature
    expect(option.availabilityLinkSentAt).toBe(option.signedAt);
    const link = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.availabilityToken(String(option.availabilityToken)) }))).Item;
    expect(link).toMatchObject({ propertyId: id });
    const sellerEmail = String((await propertyItem(id)).email);
    const mail = (await sentMail()).filter((m) => m.destination.to.includes(sellerEmail));
    const availabilityMail = mail.find((m) => m.subject.startsWith('Indica le tue disponibilità per le visite'));
    expect(availabilityMail, JSON.stringify(mail.map((m) => m.subject))).toBeDefined();
    expect(availabilityMail!.body.html).toContain(String(option.availabilityToken));
    // signing twice: the upload form is refused (409)
    expect((await api('POST', `/seller/properties/${id}/option/uploads`, { token: owner.token, body: { fileName: 'altra.pdf', contentType: 'application/pdf', size: 100 } })).status).toBe(409);
    // notifying after the signature is refused
    const late = await api<Answer>('POST', `/admin/properties/${id}/option/notification`, { token: admin });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(OPTION_LIFECYCLE_MESSAGES.notify);

    // published: agents see it and can ask for it
    expect((await act(id, { action: 'publish' })).body).toMatchObject({ status: 'published', closedRequests: 0 });
    expect((await act(id, { action: 'publish' })).status).toBe(409);
    const agent = await freshAgent('Bruno Lifecycle');
    const listed = await api<{ items: { propertyId: string }[] }>('GET', '/agent/options', { token: agent.token });
    expect(listed.body.items.some((o) => o.propertyId === id)).toBe(true);
    const req = await agentRequest(agent, id);
    expect(req.status, JSON.stringify(req.body)).toBe(201);
    expect((await decide(req.body.request.id, 'approve')).status).toBe(200);
    expect((await decide(req.body.request.id, 'paid')).status).toBe(200);
    expect(await optionItem(id)).toMatchObject({ status: 'assigned', assignedAgentId: agent.userId });
    expect((await propertyItem(id)).optionState).toBe('assigned');

    // assigned: the terms are no longer edited, withdrawing is refused, the status is never edited by PATCH
    const edit = await api<Answer>('PATCH', `/admin/options/${id}`, { token: admin, body: { salePricePercentage: 12 } });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe(OPTION_LIFECYCLE_MESSAGES.editClosed);
    const bypass = await api<Answer>('PATCH', `/admin/options/${id}`, { token: admin, body: { status: 'published' } });
    expect(bypass.status).toBe(400);
    expect((await act(id, { action: 'withdraw' })).status).toBe(409);
    expect((await optionItem(id)).status).toBe('assigned');

    expect((await act(id, { action: 'exercise' })).body.status).toBe('exercised');
    const closed = await act(id, { action: 'cancel', reason: 'Ripensamento del venditore' });
    expect(closed.status).toBe(409);
    expect(closed.body.message).toBe(OPTION_LIFECYCLE_MESSAGES.cancel);

    const entries = await activityOf(id);
    expect(entries.map((e) => e.kind)).toEqual(
      expect.arrayContaining(['option.created', 'option.notify', 'option.sign', 'option.publish', 'agent-request.approved', 'payment.paid', 'option.assign', 'option.exercise']),
    );
    // refusals leave no trace; each entry says who, and the states before and after
    expect(entries.filter((e) => e.kind === 'option.publish')).toHaveLength(1);
    expect(entries.find((e) => e.kind === 'option.sign')).toMatchObject({ actor: { role: 'seller', id: owner.userId }, before: 'sent', after: 'signed' });
    expect(entries.find((e) => e.kind === 'option.assign')).toMatchObject({ actor: { role: 'admin' }, before: 'published', after: 'assigned', userId: agent.userId });
    expect(entries.find((e) => e.kind === 'option.exercise')).toMatchObject({ before: 'assigned', after: 'exercised' });
  });

  it('cancel needs a reason (400, nothing written) and an unknown action is 400', async () => {
    const id = await readyProperty();
    await createOption(id, true);
    const none = await act(id, { action: 'cancel' });
    expect(none.status).toBe(400);
    expect(none.body.fields?.reason).toBe(OPTION_LIFECYCLE_MESSAGES.reasonRequired);
    const bad = await act(id, { action: 'sign' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields?.action).toBe(OPTION_LIFECYCLE_MESSAGES.actionInvalid);
    expect((await optionItem(id)).status).toBe('created');
    const missing = await act('00000000-0000-0000-0000-000000000000', { action: 'exercise' });
    expect(missing.status).toBe(404);

    const ok = await act(id, { action: 'cancel', reason: 'Il venditore ha venduto da sé' });
    expect(ok.body.status).toBe('cancelled');
    const option = await optionItem(id);
    expect(option).toMatchObject({ status: 'cancelled', cancelReason: 'Il venditore ha venduto da sé' });
    expect((await dossierOf(id)).option?.cancelReason).toBe('Il venditore ha venduto da sé');
    expect((await activityOf(id)).at(-1)).toMatchObject({ kind: 'option.cancel', before: 'created', after: 'cancelled', note: 'Il venditore ha venduto da sé' });
  });
});

describe('withdrawing or cancelling closes the agents open requests', () => {
  it('withdraw: pending and approved requests rejected, their agents e-mailed, no new request accepted', async () => {
    const option = await listedOption();
    const a = await freshAgent('Anna Ritiro');
    const b = await freshAgent('Bea Ritiro');
    const ra = await agentRequest(a, option.propertyId);
    const rb = await agentRequest(b, option.propertyId);
    expect((await decide(rb.body.request.id, 'approve')).status).toBe(200);
    const res = await act(option.propertyId, { action: 'withdraw' });
    expect(res.body).toMatchObject({ status: 'signed', closedRequests: 2 });
    for (const [agent, r] of [[a, ra], [b, rb]] as const) {
      const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.agentRequest(option.propertyId, agent.userId), ConsistentRead: true }))).Item!;
      expect(item).toMatchObject({ id: r.body.request.id, status: 'rejected', rejectedReason: 'withdrawn' });
    }
    const mails = (await sentMail()).filter((m) => [a.email, b.email].includes(m.destination.to[0]!) && m.subject === 'Opzione non più disponibile');
    expect(mails.map((m) => m.destination.to[0]).sort()).toEqual([a.email, b.email].sort());
    expect(mails.find((m) => m.destination.to.includes(b.email))!.body.html).toContain('Non effettuare il pagamento');
    // no longer offered: a new request and the approval of an old one are refused
    const c = await freshAgent('Carlo Ritiro');
    expect((await agentRequest(c, option.propertyId)).status).toBe(409);
    expect((await api<{ items: { propertyId: string }[] }>('GET', '/agent/options', { token: c.token })).body.items.some((o) => o.propertyId === option.propertyId)).toBe(false);
    // published again: offered again
    expect((await act(option.propertyId, { action: 'publish' })).body.status).toBe('published');
    expect((await agentRequest(c, option.propertyId)).status).toBe(201);
  });
});

describe('the daily job', () => {
  it('expires running options past their expiry day (as of Europe/Rome), once, and leaves the others', async () => {
    const past = await listedOption();
    const future = await listedOption();
    const agent = await freshAgent('Dora Scadenza');
    const open = await agentRequest(agent, past.propertyId);
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.option(past.propertyId), UpdateExpression: 'SET expiresAt = :d', ExpressionAttributeValues: { ':d': '2026-01-01' } }));
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.option(future.propertyId), UpdateExpression: 'SET expiresAt = :d', ExpressionAttributeValues: { ':d': '2026-01-02' } }));
    // 2 January 2026, 00:30 in Rome (23:30 UTC the day before): 1 January is past, 2 January is today (dates no other test's option has)
    const run = await expireOptionsHandler({ detail: { now: '2026-01-01T23:30:00.000Z' } });
    expect(run.failed).toBe(0);
    expect(run.expired).toBeGreaterThanOrEqual(1);
    expect(await optionItem(past.propertyId)).toMatchObject({ status: 'expired' });
    expect((await optionItem(future.propertyId)).status).toBe('published');
    const req = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.agentRequest(past.propertyId, agent.userId), ConsistentRead: true }))).Item!;
    expect(req).toMatchObject({ id: open.body.request.id, status: 'rejected', rejectedReason: 'expired' });
    expect((await activityOf(past.propertyId)).find((e) => e.kind === 'option.expire')).toMatchObject({ kind: 'option.expire', actor: { role: 'system', id: null }, before: 'published', after: 'expired' });
    // a second run changes nothing
    const again = await expireOptionsHandler({ detail: { now: '2026-01-01T23:30:00.000Z' } });
    expect(again.failed).toBe(0);
    expect((await kinds(past.propertyId)).filter((k) => k === 'option.expire')).toHaveLength(1);
  });

  it('gives options stored before the lifecycle the state their facts say', async () => {
    const id = await readyProperty();
    await createOption(id, true);
    const at = new Date().toISOString();
    await ddb().send(
      new UpdateCommand({ TableName: TABLE(), Key: keys.option(id), UpdateExpression: 'SET #s = :pending, signedAt = :at', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':pending': 'pending', ':at': at } }),
    );
    expect((await dossierOf(id)).option?.status).toBe('signed');
    expect(await migrateLegacyOptionStates()).toBeGreaterThanOrEqual(1);
    expect(await optionItem(id)).toMatchObject({ status: 'signed', legacyStatus: 'pending' });
    await migrateLegacyOptionStates();
    expect(await optionItem(id)).toMatchObject({ status: 'signed', legacyStatus: 'pending' });
  });
});

describe('the admins activity feed', () => {
  it('lists entries newest first a page at a time; a forged cursor is 400; only admins', async () => {
    const id = await readyProperty();
    await createOption(id, true);
    await act(id, { action: 'cancel', reason: 'Prova del registro attività' });
    const first = await api<Answer<ActivityPage>>('GET', '/admin/activity', { token: admin });
    expect(first.status).toBe(200);
    const mine = first.body.items.filter((e) => e.propertyId === id).map((e) => e.kind);
    expect(mine.slice(0, 2)).toEqual(['option.cancel', 'option.created']);
    const ats = first.body.items.map((e) => e.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    if (first.body.nextCursor) {
      const next = await api<Answer<ActivityPage>>('GET', `/admin/activity?cursor=${first.body.nextCursor}`, { token: admin });
      expect(next.status).toBe(200);
      expect(next.body.items[0]!.at <= ats.at(-1)!).toBe(true);
    }
    const forged = Buffer.from(JSON.stringify({ pk: 'USER#x', sk: 'PROFILE', gsi2pk: 'ACTIVITY', gsi2sk: 'x' })).toString('base64url');
    expect((await api('GET', `/admin/activity?cursor=${forged}`, { token: admin })).status).toBe(400);
    expect((await api('GET', '/admin/activity', { token: owner.token })).status).toBe(403);
    // the entries live under the request (deleted with it) and in the feed index
    const q = keys.activityOfProperty(id);
    const items = await ddb().send(new QueryCommand({ TableName: TABLE(), KeyConditionExpression: 'pk = :pk AND begins_with(sk, :a)', ExpressionAttributeValues: { ':pk': q.pk, ':a': q.skPrefix } }));
    expect(items.Items?.every((i) => i.gsi2pk === 'ACTIVITY')).toBe(true);
  });
});
