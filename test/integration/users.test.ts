/**
 * Gestione Utenti through the API: an admin lists users (pending agents first), edits a
 * profile (and the login's e-mail), changes the role, deletes a user (login, groups and
 * profile gone, their requests unlinked) and approves or rejects a self-registered agent
 * (who waits without the `agent` group until then, and gets an e-mail). Sellers and agents
 * are refused. Only fresh users are touched: the demo accounts never change.
 */
import { AdminAddUserToGroupCommand, AdminGetUserCommand, AdminListGroupsForUserCommand, AdminRemoveUserFromGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { decideAgent } from '../../functions/model/user';
import { cognito } from '../../functions/lib/aws/cognito';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import type { UserList, UserListItem } from '../../functions/domain/users';
import { api, idTokenFor, sentMail, signUp, stack, tokenForRole, uniqueEmail, useStackEnv } from '../support/helpers';
import { apiFrom, fullBody, newClientIp, newId } from '../support/submission';

const TABLE = () => stack().env.TABLE_NAME!;
const PASSWORD = 'segreta1';
let admin: string;
let adminSub: string;

type Answer = UserListItem & { message?: string; fields?: Record<string, string> };

function cognitoAdmin() {
  return new CognitoIdentityProviderClient({
    endpoint: stack().urls.cognito,
    region: 'eu-south-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

async function groupsOf(sub: string): Promise<string[]> {
  const res = await cognitoAdmin().send(new AdminListGroupsForUserCommand({ UserPoolId: stack().pool.userPoolId, Username: sub }));
  return (res.Groups ?? []).map((g) => g.GroupName!).sort();
}

async function loginExists(sub: string): Promise<boolean> {
  try {
    await cognitoAdmin().send(new AdminGetUserCommand({ UserPoolId: stack().pool.userPoolId, Username: sub }));
    return true;
  } catch (err) {
    if ((err as Error).name === 'UserNotFoundException') return false;
    throw err;
  }
}

const BEING_DECIDED = 'Un altro amministratore sta decidendo questa richiesta: aggiorna la pagina tra qualche secondo';

/** The kinds of a user's own activity entries, oldest first. */
async function activityOf(sub: string): Promise<string[]> {
  const { pk, skPrefix } = keys.activityOfUser(sub);
  const res = await ddb().send(new QueryCommand({ TableName: TABLE(), KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)', ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix }, ConsistentRead: true }));
  return (res.Items ?? []).map((i) => String(i.kind));
}

/** Marks a pending agent as held by a decision until `hold` (a Lambda that died holding it, or one still running). */
const setHold = (sub: string, hold: string) =>
  ddb().send(new UpdateCommand({ TableName: TABLE(), Key: keys.profile(sub), UpdateExpression: 'SET agentDecidingUntil = :h', ExpressionAttributeValues: { ':h': hold } }));

const profileItem = async (sub: string) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.profile(sub), ConsistentRead: true }))).Item;

/** A fresh self-registered user; returns sub, e-mail and a way to sign in. */
async function freshUser(userType: 'venditore' | 'agente_immobiliare', name = `Prova ${newId().slice(0, 6)}`) {
  const email = uniqueEmail(userType === 'venditore' ? 'venditore' : 'agente');
  const res = await signUp({ email, password: PASSWORD, name, userType });
  return { sub: res.UserSub!, email, name, token: () => idTokenFor(email, PASSWORD) };
}

const list = (token = admin) => api<UserList & { message?: string }>('GET', '/users', { token });
const patch = (sub: string, body: unknown, token = admin) => api<Answer>('PATCH', `/users/${sub}`, { token, body });
const setRole = (sub: string, role: unknown, token = admin) => api<Answer>('PUT', `/users/${sub}/role`, { token, body: { role } });
const remove = (sub: string, token = admin) => api<{ message?: string }>('DELETE', `/users/${sub}`, { token });
const decide = (sub: string, decision: unknown, token = admin) => api<Answer>('POST', `/users/${sub}/agent-approval`, { token, body: { decision } });

const editBody = (over: Record<string, unknown> = {}) => ({
  fullName: 'Nome Modificato',
  email: uniqueEmail('modificato'),
  userType: 'agenzia',
  companyName: 'Immobiliare Prova srl',
  companyVat: '01234567890',
  companyRea: 'MI-123456',
  companyAddress: 'Via Roma 1',
  companyCity: 'Milano',
  companyProvince: 'MI',
  ...over,
});

beforeAll(async () => {
  useStackEnv();
  admin = await tokenForRole('admin');
  adminSub = String(decodeJwt(admin).sub);
});

describe('users: list', () => {
  it('lists every profile with role and agent status, pending agents first, then by name', async () => {
    const agent = await freshUser('agente_immobiliare', 'Zeta Agente In Attesa');
    const res = await list();
    expect(res.status).toBe(200);
    const items = res.body.items;
    const demoAdmin = items.find((u) => u.id === adminSub);
    expect(demoAdmin).toMatchObject({ role: 'admin', email: 'admin@demo.opzionecasa.it' });
    const demoAgent = items.find((u) => u.email === 'agente@demo.opzionecasa.it');
    expect(demoAgent).toMatchObject({ role: 'user', userType: 'agente_immobiliare', agentStatus: 'approved' });
    expect(items.find((u) => u.email === 'venditore@demo.opzionecasa.it')).toMatchObject({ role: 'user', agentStatus: null });
    const mine = items.find((u) => u.id === agent.sub);
    expect(mine).toMatchObject({ agentStatus: 'pending', fullName: 'Zeta Agente In Attesa', role: 'user' });
    // every pending agent comes before everyone else
    const firstOther = items.findIndex((u) => u.agentStatus !== 'pending');
    const lastPending = items.map((u) => u.agentStatus).lastIndexOf('pending');
    expect(lastPending).toBeLessThan(firstOther);
    // the rest by name
    const rest = items.slice(firstOther).map((u) => (u.fullName || u.email).toLowerCase());
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'it')));
  });
});

describe('users: agent approval', () => {
  it('a self-registered agent is pending, without the agent group, and /me says so', async () => {
    const agent = await freshUser('agente_immobiliare');
    const token = await agent.token();
    expect(decodeJwt(token)['cognito:groups'] ?? []).not.toContain('agent');
    expect(await groupsOf(agent.sub)).toEqual([]);
    const me = await api('GET', '/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ userType: 'agente_immobiliare', agentStatus: 'pending', groups: [] });
    expect(await profileItem(agent.sub)).toMatchObject({ agentStatus: 'pending' });
  });

  it('a seller still gets the seller group at once and no agent status', async () => {
    const seller = await freshUser('venditore');
    expect(await groupsOf(seller.sub)).toEqual(['seller']);
    const me = await api('GET', '/me', { token: await seller.token() });
    expect(me.body).toMatchObject({ userType: 'venditore', agentStatus: null, groups: ['seller'] });
  });

  it('approve: the agent group is added, the status is approved, an Italian e-mail goes through the outbox; deciding again is 409', async () => {
    const agent = await freshUser('agente_immobiliare', 'Agente Da Approvare');
    const res = await decide(agent.sub, 'approve');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: agent.sub, agentStatus: 'approved', role: 'user' });
    expect(await groupsOf(agent.sub)).toEqual(['agent']);
    expect(await profileItem(agent.sub)).toMatchObject({ agentStatus: 'approved', agentDecidedBy: adminSub });

    const outbox = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.outbox(`agent-approved-${agent.sub}`), ConsistentRead: true }))).Item;
    expect(outbox).toMatchObject({ status: 'sent', kind: 'agent-approved', ref: agent.sub });
    const mails = (await sentMail()).filter((m) => m.destination.to.includes(agent.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Il tuo account agente è stato approvato');
    expect(mails[0]!.body.text).toContain('Gentile Agente Da Approvare');
    expect(mails[0]!.body.text).toContain('esci e accedi di nuovo');

    // a new sign-in carries the group; /me says approved
    const token = await idTokenFor(agent.email, PASSWORD, stack().pool.userPoolClientId);
    const fresh = await api('GET', '/me', { token });
    expect(fresh.body).toMatchObject({ agentStatus: 'approved' });

    for (const decision of ['approve', 'reject']) {
      const again = await decide(agent.sub, decision);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('La richiesta di questo agente è già stata decisa');
    }
    expect((await sentMail()).filter((m) => m.destination.to.includes(agent.email))).toHaveLength(1);
  });

  it('reject: no group, status rejected, an e-mail; deciding again is 409', async () => {
    const agent = await freshUser('agente_immobiliare');
    const res = await decide(agent.sub, 'reject');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ agentStatus: 'rejected' });
    expect(await groupsOf(agent.sub)).toEqual([]);
    const me = await api('GET', '/me', { token: await agent.token() });
    expect(me.body).toMatchObject({ agentStatus: 'rejected', groups: [] });
    const mails = (await sentMail()).filter((m) => m.destination.to.includes(agent.email));
    expect(mails.map((m) => m.subject)).toEqual(['Il tuo account agente non è stato approvato']);
    expect((await decide(agent.sub, 'approve')).status).toBe(409);
    expect(await groupsOf(agent.sub)).toEqual([]);
  });

  it('an approval that fails halfway takes the group back; a reject takes out a group left behind', async () => {
    const agent = await freshUser('agente_immobiliare');
    const adminId = (await api<{ id: string }>('GET', '/me', { token: admin })).body.id;
    // the decision in this process: its table write fails after the group was added
    const client = ddb();
    const send = client.send.bind(client);
    const spy = vi.spyOn(client, 'send').mockImplementation((async (cmd: unknown) => {
      if (cmd instanceof TransactWriteCommand) throw Object.assign(new Error('Throughput exceeded'), { name: 'ProvisionedThroughputExceededException' });
      return send(cmd as never);
    }) as never);
    try {
      await expect(decideAgent(agent.sub, 'approve', adminId)).rejects.toThrow('Throughput exceeded');
    } finally {
      spy.mockRestore();
    }
    expect(await groupsOf(agent.sub)).toEqual([]);
    expect(await profileItem(agent.sub)).toMatchObject({ agentStatus: 'pending' });

    // a group left behind by any earlier failure: the reject removes it before recording the decision
    await cognitoAdmin().send(new AdminAddUserToGroupCommand({ UserPoolId: stack().pool.userPoolId, Username: agent.sub, GroupName: 'agent' }));
    const res = await decide(agent.sub, 'reject');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await groupsOf(agent.sub)).toEqual([]);
    expect(await profileItem(agent.sub)).toMatchObject({ agentStatus: 'rejected' });
  });

  it('sixteen rejects of the same agent at once: one decides, the others answer 409, none fails', async () => {
    const agent = await freshUser('agente_immobiliare');
    const answers = await Promise.all(Array.from({ length: 16 }, () => decide(agent.sub, 'reject')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, JSON.stringify(answers.filter((a) => a.status >= 500).map((a) => a.body))).toEqual([200, ...Array<number>(15).fill(409)]);
    // a loser that came while the winner held the agent is told so, one that came after is told it is decided
    const told = new Set(answers.filter((a) => a.status === 409).map((a) => a.body.message));
    expect([...told].every((m) => m === 'La richiesta di questo agente è già stata decisa' || m === BEING_DECIDED), [...told].join(' | ')).toBe(true);
    expect(await profileItem(agent.sub)).toMatchObject({ agentStatus: 'rejected' });
    expect(await profileItem(agent.sub)).not.toHaveProperty('agentDecidingUntil');
    expect(await groupsOf(agent.sub)).toEqual([]);
    expect((await activityOf(agent.sub)).filter((k) => k.startsWith('agent.'))).toEqual(['agent.rejected']);
  });

  it('two admins deciding at once: the first decision holds the agent, the other answers 409 without touching Cognito', async () => {
    const agent = await freshUser('agente_immobiliare');
    const adminId = (await api<{ id: string }>('GET', '/me', { token: admin })).body.id;
    // while this process's reject calls Cognito, another admin approves: 409, and the reject stands
    const client = cognito();
    const send = client.send.bind(client);
    let approval: Awaited<ReturnType<typeof decide>> | undefined;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (cmd: unknown) => {
      if (cmd instanceof AdminRemoveUserFromGroupCommand && cmd.input.Username === agent.sub && !approval) approval = await decide(agent.sub, 'approve');
      return send(cmd as never);
    }) as never);
    try {
      await decideAgent(agent.sub, 'reject', adminId);
    } finally {
      spy.mockRestore();
    }
    expect(approval).toMatchObject({ status: 409, body: { message: BEING_DECIDED } });
    expect(await profileItem(agent.sub)).toMatchObject({ agentStatus: 'rejected' });
    expect(await groupsOf(agent.sub)).toEqual([]);

    // a hold whose Lambda died (run out) does not block the agent: the next decision takes it
    const held = await freshUser('agente_immobiliare');
    await setHold(held.sub, `${new Date(Date.now() - 1000).toISOString()}#dead`);
    expect((await decide(held.sub, 'approve')).status).toBe(200);
    expect(await profileItem(held.sub)).toMatchObject({ agentStatus: 'approved' });
    expect(await profileItem(held.sub)).not.toHaveProperty('agentDecidingUntil');
    expect(await groupsOf(held.sub)).toEqual(['agent']);
    // one still running does: 409, nothing changes
    const busy = await freshUser('agente_immobiliare');
    const running = `${new Date(Date.now() + 30_000).toISOString()}#running`;
    await setHold(busy.sub, running);
    expect((await decide(busy.sub, 'approve')).body).toMatchObject({ message: BEING_DECIDED });
    expect(await profileItem(busy.sub)).toMatchObject({ agentStatus: 'pending', agentDecidingUntil: running });
    expect(await groupsOf(busy.sub)).toEqual([]);

    // a group call that fails while the agent is pending is an error (500 to the admin): nothing
    // recorded, and the hold is given back, so the admin can try again at once
    const other = await freshUser('agente_immobiliare');
    const failing = vi.spyOn(client, 'send').mockImplementation((async (cmd: unknown) => {
      if (cmd instanceof AdminAddUserToGroupCommand) throw Object.assign(new Error('Internal error'), { name: 'InternalErrorException' });
      return send(cmd as never);
    }) as never);
    try {
      await expect(decideAgent(other.sub, 'approve', adminId)).rejects.toThrow('Internal error');
    } finally {
      failing.mockRestore();
    }
    expect(await profileItem(other.sub)).toMatchObject({ agentStatus: 'pending' });
    expect(await profileItem(other.sub)).not.toHaveProperty('agentDecidingUntil');
    expect(await groupsOf(other.sub)).toEqual([]);
    expect((await decide(other.sub, 'approve')).status).toBe(200);
    expect(await groupsOf(other.sub)).toEqual(['agent']);
  });

  it('refuses a decision for a seller (409), an unknown user (404) and a bad decision (400)', async () => {
    const seller = await freshUser('venditore');
    const s = await decide(seller.sub, 'approve');
    expect(s.status).toBe(409);
    expect(await groupsOf(seller.sub)).toEqual(['seller']);
    const unknown = await decide(newId(), 'approve');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Utente non trovato');
    const agent = await freshUser('agente_immobiliare');
    const bad = await decide(agent.sub, 'forse');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Decisione non valida: scegli approva o rifiuta');
    expect(await profileItem(agent.sub)).toMatchObject({ agentStatus: 'pending' });
  });
});

describe('users: edit', () => {
  it('updates the profile and the login e-mail; empty company fields are saved as null', async () => {
    const user = await freshUser('venditore', 'Anna Prima');
    const body = editBody();
    const res = await patch(user.sub, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: user.sub, fullName: 'Nome Modificato', email: body.email, userType: 'agenzia', companyCity: 'Milano', role: 'user' });
    const item = await profileItem(user.sub);
    expect(item).toMatchObject({ fullName: 'Nome Modificato', email: body.email, companyVat: '01234567890', gsi1pk: 'PROFILES', gsi1sk: `nome modificato#${user.sub}` });
    // the login now answers to the new e-mail
    const token = await idTokenFor(body.email, PASSWORD);
    expect((await api('GET', '/me', { token })).body).toMatchObject({ email: body.email });

    const cleared = await patch(user.sub, {
      ...editBody({ email: body.email, fullName: '  Anna Seconda  ' }),
      companyName: '   ',
      companyVat: '',
      companyRea: null,
      companyAddress: '',
      companyCity: '',
      companyProvince: undefined,
    });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body).toMatchObject({ fullName: 'Anna Seconda', companyName: null, companyVat: null, companyRea: null, companyAddress: null, companyCity: null, companyProvince: null });
    const after = await profileItem(user.sub);
    for (const f of ['companyName', 'companyVat', 'companyRea', 'companyAddress', 'companyCity', 'companyProvince']) expect(after?.[f]).toBeNull();
    expect(after?.gsi1sk).toBe(`anna seconda#${user.sub}`);
  });

  it('refuses a blank name and an invalid e-mail in Italian and writes nothing', async () => {
    const user = await freshUser('venditore', 'Nome Invariato');
    const before = await profileItem(user.sub);
    const blank = await patch(user.sub, editBody({ fullName: '  ' }));
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Il nome è obbligatorio');
    expect(blank.body.fields?.fullName).toBe('Il nome è obbligatorio');
    const bad = await patch(user.sub, editBody({ email: 'non-una-email' }));
    expect(bad.status).toBe(400);
    expect(bad.body.fields?.email).toBe('Email non valida');
    const type = await patch(user.sub, editBody({ userType: 'admin' }));
    expect(type.status).toBe(400);
    expect(type.body.fields?.userType).toBe('Tipo di utente non valido');
    expect(await profileItem(user.sub)).toEqual(before);
  });

  it('refuses an e-mail used by another account (409) and changes nothing', async () => {
    const a = await freshUser('venditore');
    const b = await freshUser('venditore');
    const before = await profileItem(a.sub);
    const res = await patch(a.sub, editBody({ email: b.email.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Questa email è già usata da un altro account');
    expect(await profileItem(a.sub)).toEqual(before);
    // keeping one's own e-mail is fine
    expect((await patch(a.sub, editBody({ email: a.email }))).status).toBe(200);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await patch(newId(), editBody());
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Utente non trovato');
  });
});

describe('users: role', () => {
  it('round trip: user -> admin -> user, shown in the list and in the groups', async () => {
    const user = await freshUser('venditore');
    const up = await setRole(user.sub, 'admin');
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ id: user.sub, role: 'admin' });
    expect(await groupsOf(user.sub)).toEqual(['admin', 'seller']);
    expect((await list()).body.items.find((u) => u.id === user.sub)?.role).toBe('admin');
    const down = await setRole(user.sub, 'user');
    expect(down.status).toBe(200);
    expect(down.body.role).toBe('user');
    expect(await groupsOf(user.sub)).toEqual(['seller']);
    expect((await list()).body.items.find((u) => u.id === user.sub)?.role).toBe('user');
  });

  it('nobody changes their own role (409, either way); a bad role is 400; unknown user 404', async () => {
    for (const role of ['user', 'admin']) {
      const self = await setRole(adminSub, role);
      expect(self.status, role).toBe(409);
      expect(self.body.message).toBe('Non puoi cambiare il tuo ruolo: chiedi a un altro amministratore');
    }
    expect(await groupsOf(adminSub)).toContain('admin');
    // the refusal ended no session: the admin's token still works
    expect((await list()).status).toBe(200);
    const user = await freshUser('venditore');
    const bad = await setRole(user.sub, 'superuser');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Ruolo non valido: scegli Utente o Amministratore');
    expect(await groupsOf(user.sub)).toEqual(['seller']);
    expect((await setRole(newId(), 'admin')).status).toBe(404);
  });
});

describe('users: delete', () => {
  it('removes login, groups and profile; their property stays, unlinked', async () => {
    const user = await freshUser('venditore');
    const draftId = newId();
    const submitted = await apiFrom<{ createdAt: string }>(newClientIp(), 'POST', '/properties', fullBody(draftId));
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    const createdAt = submitted.body.createdAt;
    const link = keys.sellerIndex(user.sub, createdAt);
    await ddb().send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: keys.property(draftId),
        UpdateExpression: 'SET userId = :u, assignedUserId = :u, gsi1pk = :pk, gsi1sk = :sk',
        ExpressionAttributeValues: { ':u': user.sub, ':pk': link.gsi1pk, ':sk': link.gsi1sk },
      }),
    );

    const res = await remove(user.sub);
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(await loginExists(user.sub)).toBe(false);
    expect(await profileItem(user.sub)).toBeUndefined();
    expect((await list()).body.items.some((u) => u.id === user.sub)).toBe(false);
    const property = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(draftId), ConsistentRead: true }))).Item;
    expect(property).toBeDefined();
    expect(property).not.toHaveProperty('userId');
    expect(property).not.toHaveProperty('assignedUserId');
    expect(property).not.toHaveProperty('gsi1pk');
    const q = keys.propertiesOfSeller(user.sub);
    const linked = await ddb().send(new QueryCommand({ TableName: TABLE(), IndexName: q.index, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': q.pk } }));
    expect(linked.Items ?? []).toHaveLength(0);
    await expect(idTokenFor(user.email, PASSWORD, stack().pool.userPoolClientId)).rejects.toBeDefined();

    const again = await remove(user.sub);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Utente non trovato');
  });

  it('finishes a deletion interrupted after the login was removed (retry with only the profile left)', async () => {
    const user = await freshUser('agente_immobiliare');
    // simulate a run that stopped before deleting the profile: the login is gone already
    const { AdminDeleteUserCommand } = await import('@aws-sdk/client-cognito-identity-provider');
    await cognitoAdmin().send(new AdminDeleteUserCommand({ UserPoolId: stack().pool.userPoolId, Username: user.sub }));
    expect(await profileItem(user.sub)).toBeDefined();
    expect((await remove(user.sub)).status).toBe(204);
    expect(await profileItem(user.sub)).toBeUndefined();
  });

  it('an admin cannot delete themselves (409)', async () => {
    const res = await remove(adminSub);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Non puoi eliminare il tuo account');
    expect(await loginExists(adminSub)).toBe(true);
    expect(await profileItem(adminSub)).toBeDefined();
  });
});

describe('users: other roles', () => {
  for (const role of ['seller', 'agent'] as const) {
    it(`refuses a ${role} (403) on every route and changes nothing`, async () => {
      const token = await tokenForRole(role);
      const target = await freshUser('agente_immobiliare');
      const before = await profileItem(target.sub);
      expect((await list(token)).status).toBe(403);
      expect((await patch(target.sub, editBody(), token)).status).toBe(403);
      expect((await setRole(target.sub, 'admin', token)).status).toBe(403);
      expect((await decide(target.sub, 'approve', token)).status).toBe(403);
      expect((await remove(target.sub, token)).status).toBe(403);
      expect(await profileItem(target.sub)).toEqual(before);
      expect(await groupsOf(target.sub)).toEqual([]);
      expect(await loginExists(target.sub)).toBe(true);
    });
  }

  it('refuses an anonymous caller (401) on every route', async () => {
    const sub = newId();
    expect((await api('GET', '/users')).status).toBe(401);
    expect((await api('PATCH', `/users/${sub}`, { body: editBody() })).status).toBe(401);
    expect((await api('PUT', `/users/${sub}/role`, { body: { role: 'admin' } })).status).toBe(401);
    expect((await api('POST', `/users/${sub}/agent-approval`, { body: { decision: 'approve' } })).status).toBe(401);
    expect((await api('DELETE', `/users/${sub}`)).status).toBe(401);
  });

  it('a pending agent cannot use the admin routes either (403)', async () => {
    const agent = await freshUser('agente_immobiliare');
    expect((await list(await agent.token())).status).toBe(403);
  });
});
