/**
 * Visits (issue 19 section 4) through the routes: the agent in charge sees the deal and the
 * seller's free slots, books one (one booking per slot, also under a race), moves or cancels
 * it up to the cut-off, records the outcome after it; the seller sees and declines visits;
 * seller, agent and back office get mails with a calendar invitation that parses in Europe/Rome;
 * the reminder the day before goes out once; nobody else reaches any of it.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as nodeIcal from 'node-ical';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { addDays, todayInRome } from '../../functions/domain/availability';
import { romeInstant, VISIT_MESSAGES, type AgentDeal, type Visit } from '../../functions/domain/visits';
import type { RequestDossier } from '../../functions/domain/requests';
import { cancelVisitAsAgent, recordVisitOutcome, remindTomorrowsVisits } from '../../functions/visits/visits';
import { api, sentMail, stack, tokenForRole, useStackEnv, type SentMail } from '../support/helpers';
import { freshAgent, listedOption, type TestAgent } from '../support/agent';
import { freshSeller, giveProperty, type Seller } from '../support/seller';

type Answer<T = Record<string, unknown>> = T & { message?: string; fields?: Record<string, string> };
const TABLE = () => stack().env.TABLE_NAME!;
let admin: string;

beforeAll(async () => {
  useStackEnv();
  admin = await tokenForRole('admin');
});

interface Deal {
  propertyId: string;
  agent: TestAgent;
  seller: Seller;
}

/** A published option given to a seller, assigned to a fresh agent through request, approval and bank transfer. */
async function assignedDeal(): Promise<Deal> {
  const option = await listedOption({ property: { phone: '+393471234567' } });
  const seller = await freshSeller('Sara Venditrice');
  await giveProperty(option.propertyId, seller.userId);
  const agent = await freshAgent(`Agente Visite ${randomUUID().slice(0, 4)}`);
  const req = await api<{ request: { id: string } }>('POST', `/agent/options/${option.propertyId}/requests`, { token: agent.token, body: { commissionPercentage: 3 } });
  expect(req.status, JSON.stringify(req.body)).toBe(201);
  for (const action of ['approve', 'paid']) expect((await api('POST', `/admin/agent-requests/${req.body.request.id}/${action}`, { token: admin })).status).toBe(200);
  return { propertyId: option.propertyId, agent, seller };
}

/** A free slot of the seller (written as the availability page saves one). */
async function slot(propertyId: string, date: string, start = '10:00', end = '11:00'): Promise<string> {
  const id = randomUUID();
  await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.slot(propertyId, date, id), entity: 'slot', id, propertyId, date, start, end, isBooked: false, createdAt: new Date().toISOString() } }));
  return id;
}

const deal = (d: Deal, token = d.agent.token) => api<Answer<AgentDeal>>('GET', `/agent/options/${d.propertyId}/deal`, { token });
const book = (d: Deal, slotId: string, token = d.agent.token) => api<Answer<Visit>>('POST', `/agent/options/${d.propertyId}/visits`, { token, body: { slotId } });
const slotItem = async (propertyId: string, date: string, id: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.slot(propertyId, date, id), ConsistentRead: true }))).Item!;
const mailsAbout = async (visitId: string, subjectStart: string): Promise<SentMail[]> =>
  (await sentMail()).filter((m) => m.subject.startsWith(subjectStart) && (m.attachments ?? []).some((a) => Buffer.from(a.content, 'base64').toString('utf8').includes(visitId)));

function parsedEvent(mail: SentMail) {
  const ics = Buffer.from(mail.attachments!.find((a) => a.contentType.startsWith('text/calendar'))!.content, 'base64').toString('utf8');
  const events = Object.values(nodeIcal.sync.parseICS(ics)).filter((e) => e?.type === 'VEVENT') as nodeIcal.VEvent[];
  expect(events).toHaveLength(1);
  return { ics, event: events[0]! };
}

describe('the agent in charge', () => {
  it('sees the deal: seller contact, sale price, keys and the free slots to come; nobody else does', async () => {
    const d = await assignedDeal();
    const future = addDays(todayInRome(), 10);
    const free = await slot(d.propertyId, future);
    const taken = await slot(d.propertyId, addDays(todayInRome(), 11));
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...(await slotItem(d.propertyId, addDays(todayInRome(), 11), taken)), isBooked: true } }));
    await slot(d.propertyId, addDays(todayInRome(), -1));
    const res = await deal(d);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ propertyId: d.propertyId, seller: { phone: '+393471234567' }, salePrice: 330_000, hasKeys: false });
    expect(res.body.seller.email).toMatch(/@/);
    expect(res.body.freeSlots.map((s) => s.id)).toEqual([free]);
    const other = await freshAgent('Altro Agente');
    const refused = await deal(d, other.token);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(VISIT_MESSAGES.optionNotFound);
    expect((await deal(d, d.seller.token)).status).toBe(403);
    expect((await book(d, free, other.token)).status).toBe(404);
    expect((await slotItem(d.propertyId, future, free)).isBooked).toBe(false);
  });

  it('books a slot: the slot is taken, three mails carry an invitation in Europe/Rome, the history records it', async () => {
    const d = await assignedDeal();
    const date = addDays(todayInRome(), 12);
    const id = await slot(d.propertyId, date, '17:30', '18:15');
    const res = await book(d, id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ slotId: id, date, start: '17:30', end: '18:15', status: 'booked', agentId: d.agent.userId });
    expect(await slotItem(d.propertyId, date, id)).toMatchObject({ isBooked: true, visitId: res.body.id });
    expect((await deal(d)).body.freeSlots.some((s) => s.id === id)).toBe(false);
    const again = await book(d, id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(VISIT_MESSAGES.slotTaken);

    const mails = await mailsAbout(res.body.id, 'Visita prenotata');
    expect(mails.map((m) => m.destination.to[0]).sort()).toEqual([d.agent.email, stack().env.BACKOFFICE_EMAIL ?? 'backoffice@opzionecasa.it', (await dossierOf(d.propertyId)).property.email].sort());
    for (const m of mails) {
      const { ics, event } = parsedEvent(m);
      expect(ics).toContain('DTSTART;TZID=Europe/Rome:');
      expect(ics).toContain('BEGIN:VTIMEZONE');
      expect(ics).toContain('METHOD:REQUEST');
      expect((event.start as Date & { tz?: string }).tz).toBe('Europe/Rome');
      expect((event.start as Date).toISOString()).toBe(new Date(romeInstant(date, '17:30').getTime()).toISOString());
      expect((event.end as Date).toISOString()).toBe(new Date(romeInstant(date, '18:15').getTime()).toISOString());
    }
    const dossier = await dossierOf(d.propertyId);
    expect(dossier.visits.map((v) => v.id)).toContain(res.body.id);
    expect(dossier.activity.some((e) => e.kind === 'visit.booked' && e.actor.role === 'agent')).toBe(true);
  });

  it('one booking per slot: 20 rounds of two tabs of the agent in charge and another agent at once, exactly one wins', async () => {
    const d = await assignedDeal();
    const other = await freshAgent('Agente Concorrente');
    for (let round = 0; round < 20; round++) {
      const date = addDays(todayInRome(), 20 + (round % 5));
      const id = await slot(d.propertyId, date, `${String(8 + Math.floor(round / 5)).padStart(2, '0')}:00`, `${String(8 + Math.floor(round / 5)).padStart(2, '0')}:30`);
      const answers = await Promise.all([book(d, id), book(d, id), book(d, id, other.token)]);
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201), JSON.stringify(statuses)).toHaveLength(1);
      expect(statuses[2]).toBe(404);
      const winner = answers.find((a) => a.status === 201)!.body.id;
      expect((await slotItem(d.propertyId, date, id)).visitId).toBe(winner);
    }
    expect((await dossierOf(d.propertyId)).visits).toHaveLength(20);
  });

  it('moves and cancels before the cut-off (the old slot freed, the invitation updated or cancelled), not after it', async () => {
    const d = await assignedDeal();
    const date = addDays(todayInRome(), 14);
    const a = await slot(d.propertyId, date, '09:00', '10:00');
    const b = await slot(d.propertyId, date, '11:00', '12:00');
    const visit = (await book(d, a)).body;
    const moved = await api<Answer<Visit>>('PUT', `/agent/options/${d.propertyId}/visits/${visit.id}`, { token: d.agent.token, body: { slotId: b } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ slotId: b, start: '11:00' });
    expect((await slotItem(d.propertyId, date, a)).isBooked).toBe(false);
    expect((await slotItem(d.propertyId, date, b)).visitId).toBe(visit.id);
    const movedMail = (await mailsAbout(visit.id, 'Visita spostata'))[0]!;
    expect(parsedEvent(movedMail).ics).toContain('SEQUENCE:1');
    expect(movedMail.body.text).toContain('era ');
    const cancelled = await api<Answer<Visit>>('DELETE', `/agent/options/${d.propertyId}/visits/${visit.id}`, { token: d.agent.token });
    expect(cancelled.body.status).toBe('cancelled');
    expect((await slotItem(d.propertyId, date, b)).isBooked).toBe(false);
    const cancelMail = (await mailsAbout(visit.id, 'Visita annullata'))[0]!;
    expect(parsedEvent(cancelMail).ics).toContain('METHOD:CANCEL');
    expect((await api('DELETE', `/agent/options/${d.propertyId}/visits/${visit.id}`, { token: d.agent.token })).status).toBe(409);

    // a slot in 3 hours: bookable (2 h lead) but inside the 24 h cut-off
    const soon = new Date(Date.now() + 3 * 3_600_000);
    const hhmm = (t: Date) => new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(t);
    const soonDate = todayInRome(soon);
    if (hhmm(soon) < '23:00') {
      const s = await slot(d.propertyId, soonDate, hhmm(soon), hhmm(new Date(soon.getTime() + 30 * 60_000)));
      const v = (await book(d, s)).body;
      const late = await api<Answer>('DELETE', `/agent/options/${d.propertyId}/visits/${v.id}`, { token: d.agent.token });
      expect(late.status).toBe(409);
      expect(late.body.message).toBe(VISIT_MESSAGES.pastCutoff);
    }
    // a slot starting within the lead time is refused
    const now = new Date(Date.now() + 30 * 60_000);
    if (hhmm(now) < '23:00' && todayInRome(now) === todayInRome()) {
      const s = await slot(d.propertyId, todayInRome(now), hhmm(now), '23:59');
      const tooSoon = await book(d, s);
      expect(tooSoon.status).toBe(409);
      expect(tooSoon.body.message).toBe(VISIT_MESSAGES.slotTooSoon);
    }
  });

  it("a slot after the option's expiry day is neither offered nor bookable, nor a visit moved to it", async () => {
    const d = await assignedDeal();
    const expiresAt = addDays(todayInRome(), 10);
    await ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.option(d.propertyId), UpdateExpression: 'SET expiresAt = :d', ExpressionAttributeValues: { ':d': expiresAt } }));
    const lastDay = await slot(d.propertyId, expiresAt, '10:00', '11:00');
    const after = await slot(d.propertyId, addDays(expiresAt, 1), '10:00', '11:00');
    const offered = (await deal(d)).body.freeSlots.map((f) => f.id);
    expect(offered).toContain(lastDay);
    expect(offered).not.toContain(after);
    const refused = await book(d, after);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(VISIT_MESSAGES.afterExpiry(expiresAt));
    expect((await slotItem(d.propertyId, addDays(expiresAt, 1), after)).isBooked).toBe(false);
    const visit = await book(d, lastDay);
    expect(visit.status, JSON.stringify(visit.body)).toBe(201);
    const moved = await api<Answer<Visit>>('PUT', `/agent/options/${d.propertyId}/visits/${visit.body.id}`, { token: d.agent.token, body: { slotId: after } });
    expect(moved.status).toBe(409);
    expect((await slotItem(d.propertyId, expiresAt, lastDay)).visitId).toBe(visit.body.id);
  });

  it('records the outcome only after the visit started, once', async () => {
    const d = await assignedDeal();
    const date = addDays(todayInRome(), 9);
    const v = (await book(d, await slot(d.propertyId, date, '15:00', '16:00'))).body;
    const early = await api<Answer>('POST', `/agent/options/${d.propertyId}/visits/${v.id}/outcome`, { token: d.agent.token, body: { interest: 'alto', note: 'Coppia giovane' } });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(VISIT_MESSAGES.outcomeTooEarly);
    const bad = await api<Answer>('POST', `/agent/options/${d.propertyId}/visits/${v.id}/outcome`, { token: d.agent.token, body: { interest: 'forse' } });
    expect(bad.status).toBe(400);
    expect(bad.body.fields?.interest).toBe(VISIT_MESSAGES.interestRequired);
    const after = new Date(romeInstant(date, '16:30').getTime());
    const agent = { userId: d.agent.userId, email: d.agent.email, name: d.agent.name };
    const done = await recordVisitOutcome(d.propertyId, v.id, agent, { interest: 'alto', note: 'Coppia giovane, vuole rivederla' }, after);
    expect(done).toMatchObject({ status: 'done', outcome: { interest: 'alto', note: 'Coppia giovane, vuole rivederla' } });
    await expect(recordVisitOutcome(d.propertyId, v.id, agent, { interest: 'basso', note: '' }, after)).rejects.toThrow(VISIT_MESSAGES.notBooked);
    const seen = (await dossierOf(d.propertyId)).visits.find((x) => x.id === v.id)!;
    expect(seen.outcome?.interest).toBe('alto');
  });
  it("an option closed between the agent's read and the write: the cancel is refused in the transaction, nothing changes", async () => {
    // the use case in this process (the stack's runtime is another one): its client is the one watched
    const d = await assignedDeal();
    const date = addDays(todayInRome(), 12);
    const slotId = await slot(d.propertyId, date, '10:00', '11:00');
    const v = (await book(d, slotId)).body;
    // the admin's cancellation of the option lands after the use case read the deal, before its write
    const client = ddb();
    const send = client.send.bind(client);
    const spy = vi.spyOn(client, 'send').mockImplementation((async (cmd: unknown) => {
      const items = cmd instanceof TransactWriteCommand ? (cmd.input.TransactItems ?? []) : [];
      if (items.some((i) => i.Update?.Key?.sk === keys.visit(d.propertyId, v.id).sk)) {
        await send(new UpdateCommand({ TableName: TABLE(), Key: keys.option(d.propertyId), UpdateExpression: 'SET #s = :c', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':c': 'cancelled' } }) as never);
      }
      return send(cmd as never);
    }) as never);
    try {
      const agent = { userId: d.agent.userId, email: d.agent.email, name: d.agent.name };
      await expect(cancelVisitAsAgent(d.propertyId, v.id, agent)).rejects.toThrow(VISIT_MESSAGES.notAssigned);
    } finally {
      spy.mockRestore();
    }
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.visit(d.propertyId, v.id), ConsistentRead: true }))).Item!.status).toBe('booked');
    expect((await slotItem(d.propertyId, date, slotId)).isBooked).toBe(true);
  });
});

describe('the seller', () => {
  it('sees the visits and declines one with a reason before it starts; nobody else can', async () => {
    const d = await assignedDeal();
    const date = addDays(todayInRome(), 8);
    const id = await slot(d.propertyId, date, '10:00', '11:00');
    const v = (await book(d, id)).body;
    const list = await api<Answer<{ visits: Visit[] }>>('GET', `/seller/properties/${d.propertyId}/visits`, { token: d.seller.token });
    expect(list.status).toBe(200);
    expect(list.body.visits.map((x) => x.id)).toEqual([v.id]);
    expect(list.body.visits[0]!.cutoffAt).toBe(new Date(romeInstant(date, '10:00').getTime() - 24 * 3_600_000).toISOString());
    const stranger = await freshSeller('Estraneo');
    expect((await api('GET', `/seller/properties/${d.propertyId}/visits`, { token: stranger.token })).status).toBe(404);
    expect((await api('POST', `/seller/properties/${d.propertyId}/visits/${v.id}/decline`, { token: stranger.token, body: { reason: 'Non posso' } })).status).toBe(404);
    const noReason = await api<Answer>('POST', `/seller/properties/${d.propertyId}/visits/${v.id}/decline`, { token: d.seller.token, body: { reason: 'no' } });
    expect(noReason.status).toBe(400);
    expect(noReason.body.fields?.reason).toBe(VISIT_MESSAGES.reasonRequired);
    const declined = await api<Answer<Visit>>('POST', `/seller/properties/${d.propertyId}/visits/${v.id}/decline`, { token: d.seller.token, body: { reason: 'Sono fuori città quel giorno' } });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body).toMatchObject({ status: 'declined', declineReason: 'Sono fuori città quel giorno' });
    // the seller is not available then: the slot is not offered again
    expect((await deal(d)).body.freeSlots.some((s) => s.id === id)).toBe(false);
    const mails = await mailsAbout(v.id, 'Visita rifiutata dal venditore');
    expect(mails.map((m) => m.destination.to[0])).toContain(d.agent.email);
    expect(mails.find((m) => m.destination.to[0] === d.agent.email)!.body.text).toContain('Sono fuori città quel giorno');
    expect((await api('POST', `/seller/properties/${d.propertyId}/visits/${v.id}/decline`, { token: d.seller.token, body: { reason: 'Ancora una volta' } })).status).toBe(409);
  });
});

describe('the reminder the day before', () => {
  it('mails the seller and the agent of each booked visit once', async () => {
    const d = await assignedDeal();
    const date = addDays(todayInRome(), 30);
    const v = (await book(d, await slot(d.propertyId, date, '12:00', '13:00'))).body;
    const dayBefore = new Date(romeInstant(addDays(date, -1), '08:00').getTime());
    const first = await remindTomorrowsVisits(dayBefore);
    expect(first.failed).toBe(0);
    expect(first.sent).toBeGreaterThanOrEqual(1);
    await remindTomorrowsVisits(dayBefore);
    const mails = await mailsAbout(v.id, 'Promemoria: visita domani');
    expect(mails.map((m) => m.destination.to[0]).sort()).toEqual([d.agent.email, (await dossierOf(d.propertyId)).property.email].sort());
  });

  it('the night daylight saving time starts, a daily run at a fixed UTC time skips a day of Rome: the visit of that day is reminded on the day, once', async () => {
    const d = await assignedDeal();
    // runs at 22:30 UTC: Saturday 27 March 2027 is 23:30 in Rome, Sunday 28 March already 00:30 of Monday 29
    const day = '2027-03-29';
    const v = (await book(d, await slot(d.propertyId, day, '10:00', '11:00'))).body;
    expect((await remindTomorrowsVisits(new Date('2027-03-27T22:30:00Z'))).failed).toBe(0);
    expect(await mailsAbout(v.id, 'Promemoria')).toHaveLength(0);
    expect((await remindTomorrowsVisits(new Date('2027-03-28T22:30:00Z'))).failed).toBe(0);
    const mails = await mailsAbout(v.id, 'Promemoria: visita oggi');
    expect(mails).toHaveLength(2);
    expect(mails[0]!.body.text).toContain("oggi c'è la visita");
    // the next run, and one after the visit started, send nothing more
    await remindTomorrowsVisits(new Date('2027-03-29T06:00:00Z'));
    expect(await mailsAbout(v.id, 'Promemoria')).toHaveLength(2);
  });

  it('a visit booked today for today gets no reminder: its booking mail came today', async () => {
    const d = await assignedDeal();
    const start = new Date(Date.now() + 3 * 3_600_000);
    const hhmm = (t: Date) => new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(t);
    if (hhmm(start) >= '23:00' || todayInRome(start) !== todayInRome()) return; // late evening: no slot left today
    const v = (await book(d, await slot(d.propertyId, todayInRome(start), hhmm(start), '23:59'))).body;
    await remindTomorrowsVisits(new Date());
    expect(await mailsAbout(v.id, 'Promemoria')).toHaveLength(0);
  });

  it('a visit moved after its reminder is reminded again the day before its new date', async () => {
    const d = await assignedDeal();
    const date = addDays(todayInRome(), 30);
    const later = addDays(date, 3);
    const v = (await book(d, await slot(d.propertyId, date, '12:00', '13:00'))).body;
    expect((await remindTomorrowsVisits(romeInstant(addDays(date, -1), '08:00'))).failed).toBe(0);
    expect((await mailsAbout(v.id, 'Promemoria: visita domani')).length).toBe(2);
    const moved = await api<Answer<Visit>>('PUT', `/agent/options/${d.propertyId}/visits/${v.id}`, { token: d.agent.token, body: { slotId: await slot(d.propertyId, later, '12:00', '13:00') } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await remindTomorrowsVisits(romeInstant(addDays(later, -1), '08:00'))).failed).toBe(0);
    expect((await mailsAbout(v.id, 'Promemoria: visita domani')).length).toBe(4);
  });
});

describe("the option's closing", () => {
  it('cancels the visits still to come: the slot is free, seller and agent get the CANCEL invitation, the former agent sees no media', async () => {
    const d = await assignedDeal();
    const date = addDays(todayInRome(), 21);
    const slotId = await slot(d.propertyId, date, '17:00', '18:00');
    const v = (await book(d, slotId)).body;
    expect((await api('GET', `/agent/options/${d.propertyId}/media`, { token: d.agent.token })).status).toBe(200);

    const res = await api<Answer>('POST', `/admin/options/${d.propertyId}/transitions`, { token: admin, body: { action: 'cancel', reason: 'Il venditore ha rinunciato' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.visit(d.propertyId, v.id), ConsistentRead: true }))).Item!;
    expect(item).toMatchObject({ status: 'cancelled', cancelReason: 'option_closed' });
    expect(item.gsi3pk).toBeUndefined();
    expect((await slotItem(d.propertyId, date, slotId)).isBooked).toBe(false);
    const sellerEmail = (await dossierOf(d.propertyId)).property.email;
    const mails = await mailsAbout(v.id, 'Visita annullata');
    expect(mails.map((m) => m.destination.to[0])).toEqual(expect.arrayContaining([d.agent.email, sellerEmail]));
    for (const m of mails) expect(parsedEvent(m).ics).toContain('METHOD:CANCEL');
    expect(mails.find((m) => m.destination.to[0] === d.agent.email)!.body.text).toContain("l'opzione di acquisto non è più in tuo carico");
    const seen = await api<Answer<{ visits: Visit[] }>>('GET', `/seller/properties/${d.propertyId}/visits`, { token: d.seller.token });
    expect(seen.body.visits.find((x) => x.id === v.id)?.status).toBe('cancelled');
    expect(JSON.stringify((await dossierOf(d.propertyId)).activity)).toContain('visit.optionClosed');
    expect((await api('GET', `/agent/options/${d.propertyId}/media`, { token: d.agent.token })).status).toBe(404);
  });

  it('a visit its closing left booked is cancelled by the reminder the day before: no reminder, the slot free, everyone told', async () => {
    const d = await assignedDeal();
    const date = addDays(todayInRome(), 33);
    const slotId = await slot(d.propertyId, date, '09:00', '10:00');
    const v = (await book(d, slotId)).body;
    // the option closed and its visit stayed booked (a cancel that failed after the state changed)
    await ddb().send(
      new UpdateCommand({ TableName: TABLE(), Key: keys.option(d.propertyId), UpdateExpression: 'SET #s = :e', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':e': 'expired' } }),
    );
    const run = await remindTomorrowsVisits(new Date(romeInstant(addDays(date, -1), '08:00').getTime()));
    expect(run.failed).toBe(0);
    expect(run.cancelled).toBeGreaterThanOrEqual(1);
    expect(await mailsAbout(v.id, 'Promemoria: visita domani')).toHaveLength(0);
    const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.visit(d.propertyId, v.id), ConsistentRead: true }))).Item!;
    expect(item).toMatchObject({ status: 'cancelled', cancelReason: 'option_closed' });
    expect(item.reminderSentAt).toBeUndefined();
    expect((await slotItem(d.propertyId, date, slotId)).isBooked).toBe(false);
    const mails = await mailsAbout(v.id, 'Visita annullata');
    expect(mails.map((m) => m.destination.to[0])).toContain(d.agent.email);
    for (const m of mails) expect(parsedEvent(m).ics).toContain('METHOD:CANCEL');
  });
});

async function dossierOf(id: string): Promise<RequestDossier> {
  return (await api<RequestDossier>('GET', `/admin/properties/${id}`, { token: admin })).body;
}
