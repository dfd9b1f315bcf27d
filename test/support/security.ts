/**
 * The security tests' shared ground (test/integration/security-*.test.ts): the callers (every
 * role, the owner of a resource and someone else with the same role, a forged token), a world
 * of real resources made through the API (properties with their option, links, co-owner
 * invitation, agent requests, a source, users to act on), the rule of every route of the
 * manifest (who gets past authorization, which ownership refusal the handler gives, valid
 * inputs, what a call may change), snapshots of what a call may change, and the check that an
 * error answer is an Italian message without internals.
 */
import { randomUUID } from 'node:crypto';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { keys, omiKeys } from '../../functions/model/keys';
import { isAllowed, type RouteDef } from '../../functions/routes';
import type { Group } from '../../functions/domain/roles';
import { addDays, AVAILABILITY_MESSAGES, todayInRome } from '../../functions/domain/availability';
import { AGENT_MESSAGES } from '../../functions/domain/agent-requests';
import { KYC_MESSAGES } from '../../functions/domain/onboarding/kyc';
import { ONBOARDING_MESSAGES } from '../../functions/domain/onboarding/rules';
import { newToken } from '../../functions/model/tokens';
import { api, stack, tokenForRole } from './helpers';
import { catastoDelegation, freshSeller, ownedProperty, type Seller } from './seller';
import { freshAgent, listedOption, OPTION_TERMS, pendingAgent, type TestAgent } from './agent';
import { dossier, fullBody } from './submission';
import { markSigned } from '../support/option';
import { VISIT_MESSAGES } from '../../functions/domain/visits';

// ---- callers ------------------------------------------------------------------------------

/** Who calls: the roles, plus the owner of the resource and another user of the same role. */
export const CALLERS = ['anonymous', 'forged', 'owner', 'otherSeller', 'pendingAgent', 'agent', 'otherAgent', 'admin'] as const;
export type CallerName = (typeof CALLERS)[number];

/** What authorization sees: a forged token is no token at all (its signature fails). */
export type Role = 'anonymous' | 'seller' | 'pendingAgent' | 'agent' | 'admin';
export const ROLE_OF: Record<CallerName, Role> = {
  anonymous: 'anonymous',
  forged: 'anonymous',
  owner: 'seller',
  otherSeller: 'seller',
  pendingAgent: 'pendingAgent',
  agent: 'agent',
  otherAgent: 'agent',
  admin: 'admin',
};
/** The groups of each role's token (undefined: no token). */
export const GROUPS_OF: Record<Role, readonly Group[] | undefined> = {
  anonymous: undefined,
  seller: ['seller'],
  pendingAgent: [],
  agent: ['agent'],
  admin: ['admin'],
};
export const ROLES = Object.keys(GROUPS_OF) as Role[];

/** The seller's own ID token with `cognito:groups` rewritten to admin: the signature no longer matches. */
export function forgedToken(token: string): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  claims['cognito:groups'] = ['admin', 'agent', 'seller'];
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

// ---- the world ----------------------------------------------------------------------------

/** A seller's property with everything the seller routes act on. */
export interface SellerProperty {
  id: string;
  /** the invitation token (INVITE#) of /seller-kyc */
  inviteToken: string;
  /** the availability link (AVAIL#) of its signed option without keys */
  availToken: string;
  /** the contact data submitted with it: nobody but the owner and the admins may read them */
  contactEmail: string;
  contactPhone: string;
}

export interface World {
  admin: string;
  adminId: string;
  owner: Seller;
  otherSeller: Seller;
  pendingAgent: TestAgent;
  agent: TestAgent;
  otherAgent: TestAgent;
  /** the owner's property: identity verified, one signed delegation, option signed without keys, availability link sent, listed to agents */
  P: SellerProperty;
  /** the other seller's property, the same, and a co-owner invitation for the owner's e-mail */
  Q: SellerProperty & { coToken: string; coOwnerId: string };
  /** the agent's request on P's option, approved (awaiting payment) */
  agentRequestId: string;
  /** an option assigned to the agent (paid), with photos and a video */
  assigned: string;
  /** a listed option with the other agent's request, pending: what the admin decides */
  decided: { propertyId: string; requestId: string };
  /** the admin routes' property: a room with a photo, an option */
  adm: { id: string; roomId: string; mediaId: string };
  sourceId: string;
  /** users the admin acts on: a seller and an agent awaiting approval */
  victim: Seller;
  pendingVictim: TestAgent;
  tokens: Record<CallerName, string | undefined>;
}

const TABLE = () => stack().env.TABLE_NAME!;
const put = (Item: Record<string, unknown>) => ddb().send(new PutCommand({ TableName: TABLE(), Item }));
const get = async (Key: Record<string, string>) => (await ddb().send(new GetCommand({ TableName: TABLE(), Key, ConsistentRead: true }))).Item;

/** A day `months` months ahead (always allowed by the availability rules). */
export function dayAhead(months: number, day = 10): string {
  const [y, m] = todayInRome().split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(y, m - 1 + months, day)).toISOString().slice(0, 10);
  const last = addDays(todayInRome(), 300);
  return date > last ? last : date;
}

/** A seller's property taken through the onboarding to a signed option without keys and its availability link. */
async function sellerProperty(seller: Seller, admin: string): Promise<SellerProperty> {
  const id = await ownedProperty(seller.userId);
  const at = new Date().toISOString();
  await put({ ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', confidence: 95, verifiedAt: at, checkedAt: at });
  await put(catastoDelegation(id, at));
  const created = await api('POST', `/admin/properties/${id}/option`, { token: admin, body: { ...OPTION_TERMS, agentCommissionPercentage: 3, minMonthlySlots: 3 } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await markSigned(id, at);
  const sent = await api('POST', `/admin/properties/${id}/option/availability-link`, { token: admin, body: {} });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const property = (await get(keys.property(id)))!;
  const option = (await get(keys.option(id)))!;
  return {
    id,
    inviteToken: property.invitationToken as string,
    availToken: option.availabilityToken as string,
    contactEmail: property.email as string,
    contactPhone: property.phone as string,
  };
}

async function decide(admin: string, requestId: string, action: 'approve' | 'reject' | 'paid') {
  const res = await api('POST', `/admin/agent-requests/${requestId}/${action}`, { token: admin });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function requestOption(agent: TestAgent, propertyId: string): Promise<string> {
  const res = await api<{ request: { id: string } }>('POST', `/agent/options/${propertyId}/requests`, { token: agent.token, body: { commissionPercentage: 3 } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.request.id;
}

/** Builds the world through the API (and the few direct writes the onboarding tests also use). */
export async function buildWorld(): Promise<World> {
  const admin = await tokenForRole('admin');
  const adminId = (await api<{ id: string }>('GET', '/me', { token: admin })).body.id;
  const [owner, otherSeller, victim] = await Promise.all([freshSeller('Mario Rossi'), freshSeller('Giulia Neri'), freshSeller('Paolo Vittima')]);
  const [pending, pendingVictim] = await Promise.all([pendingAgent(), pendingAgent()]);
  const [agent, otherAgent] = await Promise.all([freshAgent(), freshAgent()]);
  const [P, Qbase] = await Promise.all([sellerProperty(owner, admin), sellerProperty(otherSeller, admin)]);

  // a co-owner of Q invited with the owner's e-mail: the owner opens Q's co-owner link
  const coOwnerId = randomUUID();
  const coToken = newToken();
  const at = new Date().toISOString();
  await put({ ...keys.coOwner(Qbase.id, coOwnerId), entity: 'coOwner', propertyId: Qbase.id, id: coOwnerId, email: owner.email, fullName: 'Mario Rossi', share: 50, invitedAt: at, verifiedAt: null });
  await put({ ...keys.coOwnerInvitation(coToken), entity: 'coOwnerInvitation', propertyId: Qbase.id, coOwnerId, email: owner.email, createdAt: at, expiresAt: Math.floor(Date.now() / 1000) + 86_400 });

  const publishedP = await api('POST', `/admin/options/${P.id}/transitions`, { token: admin, body: { action: 'publish' } });
  expect(publishedP.status, JSON.stringify(publishedP.body)).toBe(200);
  const agentRequestId = await requestOption(agent, P.id);
  await decide(admin, agentRequestId, 'approve');

  const [assignedOption, decidedOption, admOption] = await Promise.all([listedOption({ media: true }), listedOption(), listedOption({ media: true })]);
  const assignedRequest = await requestOption(agent, assignedOption.propertyId);
  await decide(admin, assignedRequest, 'approve');
  await decide(admin, assignedRequest, 'paid');
  const decidedRequest = await requestOption(otherAgent, decidedOption.propertyId);

  const media = (await dossier(admOption.propertyId)).find((i) => String(i.sk).startsWith(keys.dossierPrefixes.media))!;
  const [, roomId, mediaId] = String(media.sk).split('#') as [string, string, string];

  const source = await api<{ id: string }>('POST', '/sources', { token: admin, body: { name: 'Fonte delle prove di sicurezza' } });
  expect(source.status, JSON.stringify(source.body)).toBe(201);

  const world: Omit<World, 'tokens'> = {
    admin,
    adminId,
    owner,
    otherSeller,
    pendingAgent: pending,
    agent,
    otherAgent,
    P,
    Q: { ...Qbase, coToken, coOwnerId },
    agentRequestId,
    assigned: assignedOption.propertyId,
    decided: { propertyId: decidedOption.propertyId, requestId: decidedRequest },
    adm: { id: admOption.propertyId, roomId, mediaId },
    sourceId: source.body.id,
    victim,
    pendingVictim,
  };
  return {
    ...world,
    tokens: {
      anonymous: undefined,
      forged: forgedToken(owner.token),
      owner: owner.token,
      otherSeller: otherSeller.token,
      pendingAgent: pending.token,
      agent: agent.token,
      otherAgent: otherAgent.token,
      admin,
    },
  };
}

// ---- the rules ----------------------------------------------------------------------------

export interface OwnerRule {
  /** who holds the resource among the callers allowed by role */
  holder: 'owner' | 'agent';
  /** what the handler answers anyone else allowed by role */
  status: number;
  message: string;
}

export interface RouteRule {
  /** the roles that get past authorization, written here independently of the manifest */
  allowed: readonly Role[];
  owner?: OwnerRule;
  params?: (w: World) => Record<string, string>;
  query?: (w: World) => Record<string, string>;
  /** a valid body (the route validates a body): the matrix sends it, the fuzzer mutates it */
  body?: (w: World) => unknown;
  /** what the matrix sends instead of `body` when the valid body would destroy the world */
  probe?: (w: World) => unknown;
  /** what a call may change: partition keys (whole item collections) or `gsi2:`/`gsi3:` index partitions */
  touches: (w: World) => string[];
  /** fuzz inputs never sent: they would be accepted and destroy shared data */
  unsafe?: (body: unknown) => boolean;
  /** the handler reads the raw body itself (no zod schema): the fuzzer sends bodies anyway */
  rawBody?: true;
  /** how an admin takes back what an accepted call made (the fuzzer keeps the world small) */
  undo?: (answer: unknown) => { method: string; path: string } | undefined;
}

const ALL: readonly Role[] = ['anonymous', 'seller', 'pendingAgent', 'agent', 'admin'];
const SIGNED_IN: readonly Role[] = ['seller', 'pendingAgent', 'agent', 'admin'];
const ADMIN: readonly Role[] = ['admin'];
const SELLER: readonly Role[] = ['seller'];
const AGENT: readonly Role[] = ['agent'];

export const pkOf = {
  property: (id: string) => keys.propertyDossier(id).pk,
  user: (id: string) => keys.profile(id).pk,
};

/** The owner's property P: 404 'Immobile non trovato' to any other seller. */
const ownedByOwner: OwnerRule = { holder: 'owner', status: 404, message: ONBOARDING_MESSAGES.propertyNotFound };
const sellerRoute = (extra: Partial<RouteRule> = {}): RouteRule => ({
  allowed: SELLER,
  owner: ownedByOwner,
  params: (w) => ({ propertyId: w.P.id }),
  touches: (w) => [pkOf.property(w.P.id)],
  ...extra,
});
const agentDealRoute = (extra: Partial<RouteRule> = {}): RouteRule => ({
  allowed: AGENT,
  owner: { holder: 'agent', status: 404, message: VISIT_MESSAGES.optionNotFound },
  params: (w) => ({ propertyId: w.assigned }),
  touches: (w) => [pkOf.property(w.assigned)],
  ...extra,
});
const adminPropertyRoute = (extra: Partial<RouteRule> = {}): RouteRule => ({
  allowed: ADMIN,
  params: (w) => ({ propertyId: w.adm.id }),
  touches: (w) => [pkOf.property(w.adm.id)],
  ...extra,
});
const adminDecision = (): RouteRule => ({
  allowed: ADMIN,
  params: (w) => ({ requestId: w.decided.requestId }),
  touches: (w) => [pkOf.property(w.decided.propertyId)],
});
const coOwnerLink: OwnerRule = { holder: 'owner', status: 404, message: KYC_MESSAGES.tokenNotFound };
const availabilityLink: OwnerRule = { holder: 'owner', status: 404, message: AVAILABILITY_MESSAGES.invalidLink };

const uploadBody = () => ({ propertyDraftId: randomUUID(), roomId: randomUUID(), fileName: 'soggiorno.jpg', contentType: 'image/jpeg', size: 120_000 });
export const VALID_FISCAL_CODE = 'RSSMRA85T10A562S';

/**
 * Every route of the manifest, keyed by id. A route without a rule here fails the matrix (and
 * the fuzzer); a rule naming no route fails too.
 */
export const RULES: Record<string, RouteRule> = {
  health: { allowed: ALL, touches: () => [] },
  getMe: { allowed: SIGNED_IN, touches: () => [] },
  claimInvitation: {
    allowed: SELLER,
    // another seller's live link answers as an unknown one (test/integration/invitations.test.ts)
    owner: { holder: 'owner', status: 404, message: 'Proprietà non trovata o link scaduto' },
    body: (w) => ({ token: w.P.inviteToken }),
    touches: (w) => [pkOf.property(w.P.id)],
  },
  createUpload: { allowed: ALL, body: uploadBody, touches: () => [] },
  submitOwnProperty: { allowed: SELLER, body: () => submissionBody(), probe: () => ({}), touches: () => [keys.requestCount().pk] },
  submitProperty: { allowed: ALL, body: () => submissionBody(), probe: () => ({}), touches: () => [keys.requestCount().pk] },
  omiCreateUpload: {
    allowed: ADMIN,
    body: () => ({ fileName: 'valori-2024.csv', semester: '2024-S1', size: 1_000_000 }),
    // an import job is made for every valid call: the matrix leaves the job list alone
    probe: () => ({}),
    touches: () => [`gsi3:${omiKeys.recentJobs().pk}`],
  },
  omiGetImport: { allowed: ADMIN, params: () => ({ jobId: randomUUID() }), touches: () => [] },
  omiListJobs: { allowed: ADMIN, touches: () => [] },
  omiStartClear: {
    allowed: ADMIN,
    body: () => ({ confirm: true }),
    // a valid call deletes every OMI record other test files rely on
    probe: () => ({}),
    unsafe: (b) => isObject(b) && b.confirm === true,
    touches: () => [`gsi3:${omiKeys.recentJobs().pk}`],
  },
  omiGetClear: { allowed: ADMIN, params: () => ({ jobId: randomUUID() }), touches: () => [] },
  omiListQuotations: { allowed: ADMIN, query: () => ({ comune: 'Milano', provincia: 'MI', stato: 'NORMALE', semestre: '2024-S1', zona: 'B12', page: '1' }), touches: () => [] },
  createSource: {
    allowed: ADMIN,
    body: () => ({ name: 'Fonte di prova' }),
    touches: () => [`gsi2:${keys.allSources().pk}`],
    undo: (a) => (isObject(a) && typeof a.id === 'string' ? { method: 'DELETE', path: `/sources/${encodeURIComponent(a.id)}` } : undefined),
  },
  listSources: { allowed: ADMIN, touches: () => [] },
  deleteSource: { allowed: ADMIN, params: (w) => ({ sourceId: w.sourceId }), touches: (w) => [keys.source(w.sourceId).pk] },
  evaluateProperty: {
    allowed: ADMIN,
    body: () => ({ address: 'Via Giuseppe Verdi 12', province: 'MI', city: 'Milano', omiCategory: 'abitazioni_civili', surfaceArea: 92, condition: 'buono', floor: '3', hasTerrace: true, features: ['ascensore'] }),
    touches: () => [],
  },
  listUsers: { allowed: ADMIN, touches: () => [] },
  updateUser: {
    allowed: ADMIN,
    params: (w) => ({ userId: w.victim.userId }),
    body: (w) => ({ fullName: 'Paolo Vittima', email: w.victim.email, userType: 'venditore', companyName: '' }),
    touches: (w) => [pkOf.user(w.victim.userId)],
  },
  updateUserRole: { allowed: ADMIN, params: (w) => ({ userId: w.victim.userId }), body: () => ({ role: 'user' }), touches: (w) => [pkOf.user(w.victim.userId)] },
  deleteUser: { allowed: ADMIN, params: (w) => ({ userId: w.victim.userId }), touches: (w) => [pkOf.user(w.victim.userId)] },
  decideAgent: { allowed: ADMIN, params: (w) => ({ userId: w.pendingVictim.userId }), body: () => ({ decision: 'reject' }), touches: (w) => [pkOf.user(w.pendingVictim.userId)] },
  listRequests: { allowed: ADMIN, query: () => ({ q: 'Verdi', limit: '10' }), touches: () => [] },
  getRequest: adminPropertyRoute(),
  deleteRequest: adminPropertyRoute({
    body: () => ({ confirm: 'elimina' }),
    probe: () => ({ confirm: 'no' }),
    unsafe: (b) => isObject(b) && typeof b.confirm === 'string' && b.confirm.trim().toLowerCase() === 'elimina',
  }),
  assignRequest: adminPropertyRoute({ body: (w) => ({ userId: w.adminId }), probe: () => ({ userId: '' }) }),
  createRequestUpload: adminPropertyRoute({ body: (w) => ({ roomId: w.adm.roomId, fileName: 'cucina.jpg', contentType: 'image/jpeg', size: 200_000 }) }),
  addRequestMedia: adminPropertyRoute({ body: (w) => ({ roomId: w.adm.roomId, key: `${w.adm.id}/${w.adm.roomId}/1700000000000_cucina.jpg` }) }),
  deleteRequestMedia: adminPropertyRoute({ params: (w) => ({ propertyId: w.adm.id, roomId: w.adm.roomId, mediaId: w.adm.mediaId }) }),
  createValuation: adminPropertyRoute({ body: () => ({ cautiousDiscount: -10, applyGroundFloorCorrection: false, linkZona: null }) }),
  sendEstimate: adminPropertyRoute(),
  createOption: adminPropertyRoute({ body: () => ({ ...OPTION_TERMS }) }),
  getOptionStatus: adminPropertyRoute(),
  notifySeller: adminPropertyRoute(),
  sendAvailabilityLink: adminPropertyRoute(),
  reopenOnboardingStep: adminPropertyRoute({ params: (w) => ({ propertyId: w.adm.id, step: 'delegations' }), body: () => ({ reason: 'Documento da rifare' }), probe: () => ({ reason: '' }) }),
  listIdentityReviews: { allowed: ADMIN, touches: () => [] },
  // the world's property has no check in review: 404, nothing written (test/integration/identity-review.test.ts decides real ones)
  decideIdentityReview: adminPropertyRoute({ body: () => ({ decision: 'approve', reason: 'Stessa persona, confrontate a vista', checkedAt: '2026-01-01T00:00:00.000Z' }) }),
  // the world's co-owner has no check in review: 409, nothing written (test/integration/co-owner-identity-review.test.ts decides real ones)
  decideCoOwnerIdentityReview: {
    allowed: ADMIN,
    params: (w) => ({ propertyId: w.Q.id, coOwnerId: w.Q.coOwnerId }),
    body: () => ({ decision: 'approve', reason: 'Stessa persona, confrontate a vista', checkedAt: '2026-01-01T00:00:00.000Z' }),
    touches: (w) => [pkOf.property(w.Q.id)],
  },
  listOptions: { allowed: ADMIN, touches: () => [] },
  updateOption: adminPropertyRoute({ body: () => ({ salePricePercentage: 10, agentCommissionPercentage: 5, minAgentCommissionPercentage: 2 }) }),
  // the world's option is published already: publishing it again is 409, nothing written (option-lifecycle.test.ts moves real ones)
  transitionOption: adminPropertyRoute({ body: () => ({ action: 'publish' }) }),
  listActivity: { allowed: ADMIN, touches: () => [] },
  listAgentRequestsAdmin: { allowed: ADMIN, query: () => ({ status: 'pending' }), touches: () => [] },
  approveAgentRequest: adminDecision(),
  rejectAgentRequest: adminDecision(),
  markAgentRequestPaid: adminDecision(),
  listAgentOptions: { allowed: AGENT, touches: () => [] },
  listAgentAssignedOptions: { allowed: AGENT, touches: () => [] },
  getAgentOptionMedia: {
    allowed: AGENT,
    owner: { holder: 'agent', status: 404, message: AGENT_MESSAGES.optionNotFound },
    params: (w) => ({ propertyId: w.assigned }),
    touches: (w) => [pkOf.property(w.assigned)],
  },
  requestAgentOption: { allowed: AGENT, params: (w) => ({ propertyId: w.P.id }), body: () => ({ commissionPercentage: 3 }), touches: (w) => [pkOf.property(w.P.id)] },
  listAgentRequests: { allowed: AGENT, touches: () => [] },
  // visits: only the agent the option is assigned to; the world's visit ids do not exist (test/integration/visits.test.ts books real ones)
  getAgentDeal: agentDealRoute(),
  bookVisit: agentDealRoute({ body: () => ({ slotId: randomUUID() }) }),
  moveVisit: agentDealRoute({ params: (w) => ({ propertyId: w.assigned, visitId: randomUUID() }), body: () => ({ slotId: randomUUID() }) }),
  cancelVisit: agentDealRoute({ params: (w) => ({ propertyId: w.assigned, visitId: randomUUID() }) }),
  recordVisitOutcome: agentDealRoute({ params: (w) => ({ propertyId: w.assigned, visitId: randomUUID() }), body: () => ({ interest: 'medio', note: 'Piaciuta la cucina' }) }),
  listSellerVisits: sellerRoute(),
  declineVisit: sellerRoute({ params: (w) => ({ propertyId: w.P.id, visitId: randomUUID() }), body: () => ({ reason: 'Non sono disponibile quel giorno' }) }),
  createAgentPayment: {
    allowed: AGENT,
    owner: { holder: 'agent', status: 404, message: AGENT_MESSAGES.requestNotFound },
    params: (w) => ({ requestId: w.agentRequestId }),
    touches: (w) => [pkOf.property(w.P.id)],
  },
  // public: Stripe's signature is the check (an unsigned call is a 400 for anyone)
  stripeWebhook: { allowed: ALL, rawBody: true, body: () => ({ id: 'evt_prova', type: 'checkout.session.completed', data: { object: {} } }), touches: (w) => [pkOf.property(w.P.id)] },
  replaceCoOwners: sellerRoute({ body: () => ({ sellerShare: 50, coOwners: [{ email: 'anna.bianchi@example.it', fullName: 'Anna Bianchi', share: 50 }] }) }),
  inviteCoOwners: sellerRoute(),
  skipCoOwners: sellerRoute(),
  generateDelegations: sellerRoute({
    body: () => ({ province: 'MI', municipality: 'Milano', types: ['catasto'], delegator: { fullName: 'Mario Rossi', fiscalCode: VALID_FISCAL_CODE, documentType: 'carta_identita', documentNumber: 'CA12345AB', birthDate: '1985-12-10', birthPlace: 'Milano', address: 'Via Verdi 12' } }),
  }),
  getDelegationDocument: sellerRoute({ params: (w) => ({ propertyId: w.P.id, type: 'catasto' }) }),
  createDelegationUpload: sellerRoute({ params: (w) => ({ propertyId: w.P.id, type: 'catasto' }), body: () => ({ fileName: 'delega-firmata.pdf', contentType: 'application/pdf', size: 300_000 }) }),
  confirmDelegationSigned: sellerRoute({ params: (w) => ({ propertyId: w.P.id, type: 'catasto' }), body: (w) => ({ key: `${w.P.id}/delegations/signed-catasto-1700000000000.pdf` }) }),
  getKycState: { allowed: SELLER, owner: coOwnerLink, query: (w) => ({ token: w.P.inviteToken }), touches: (w) => [pkOf.property(w.P.id)] },
  getOwnKycState: sellerRoute(),
  createCoOwnerIdentityUpload: {
    allowed: SELLER,
    owner: coOwnerLink,
    query: (w) => ({ token: w.Q.coToken }),
    body: () => ({ kind: 'face', fileName: 'volto.jpg', contentType: 'image/jpeg', size: 150_000 }),
    touches: (w) => [pkOf.property(w.Q.id)],
  },
  verifyCoOwnerIdentity: {
    allowed: SELLER,
    owner: coOwnerLink,
    query: (w) => ({ token: w.Q.coToken }),
    body: (w) => ({
      documentType: 'carta_identita',
      documentNumber: 'CA12345ZZ',
      fullName: 'Mario Rossi',
      faceKey: `${w.Q.id}/identity/coowner-${w.Q.coOwnerId}-face-1700000000000.jpg`,
      documentFrontKey: `${w.Q.id}/identity/coowner-${w.Q.coOwnerId}-documentFront-1700000000000.jpg`,
    }),
    touches: (w) => [pkOf.property(w.Q.id)],
  },
  getOptionDocument: sellerRoute(),
  createOptionUpload: sellerRoute({ body: () => ({ fileName: 'opzione-firmata.pdf', contentType: 'application/pdf', size: 400_000 }) }),
  confirmOptionSigned: sellerRoute({ body: (w) => ({ key: `${w.P.id}/option/signed-1700000000000.pdf` }) }),
  createIdentityUpload: sellerRoute({ body: () => ({ kind: 'face', fileName: 'volto.jpg', contentType: 'image/jpeg', size: 150_000 }) }),
  verifyIdentity: sellerRoute({
    body: (w) => ({
      documentType: 'carta_identita',
      documentNumber: 'CA12345ZZ',
      fullName: 'Mario Rossi',
      faceKey: `${w.P.id}/identity/face-1700000000000.jpg`,
      documentFrontKey: `${w.P.id}/identity/documentFront-1700000000000.jpg`,
    }),
  }),
  getIdentity: sellerRoute(),
  listSellerProperties: { allowed: SELLER, touches: () => [] },
  updateOwnProfile: { allowed: SELLER, body: () => ({ fullName: 'Mario Rossi' }), touches: (w) => [pkOf.user(w.owner.userId), pkOf.user(w.otherSeller.userId)] },
  getErasurePlan: { allowed: SELLER, touches: () => [] },
  deleteOwnAccount: {
    allowed: SELLER,
    body: () => ({ confirm: true }),
    // the valid call deletes the caller's account and properties
    probe: () => ({}),
    unsafe: (b) => isObject(b) && b.confirm === true,
    touches: (w) => [pkOf.user(w.owner.userId), pkOf.property(w.P.id)],
  },
  getAvailability: { allowed: SELLER, owner: availabilityLink, params: (w) => ({ token: w.P.availToken }), touches: (w) => [pkOf.property(w.P.id)] },
  getOwnAvailability: sellerRoute(),
  saveAvailability: sellerRoute({
    body: () => ({ days: [{ date: dayAhead(1, 10), slots: [{ start: '09:00', end: '10:00' }, { start: '15:00', end: '16:00' }] }] }),
  }),
  getLinkKind: { allowed: ALL, params: (w) => ({ token: w.P.availToken }), touches: () => [] },
};

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A complete wizard body for a new draft (the submission test's, with fresh ids and e-mail). */
export function submissionBody(): Record<string, unknown> {
  return { ...fullBody(randomUUID()), email: `contatto.${randomUUID().slice(0, 8)}@example.it` };
}

/** The path of a route with its parameters filled in (each one URL-encoded). */
export function pathOf(route: RouteDef, params: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? `esempio-${name}`));
}

export function queryString(query: Record<string, string> | undefined): string {
  if (!query || !Object.keys(query).length) return '';
  return `?${Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}

/** What the matrix expects of a caller: a refusal (exact status and, for ownership, message) or "let through". */
export type Expectation = { refused: true; status: number; message?: string } | { refused: false };

export function expectationFor(rule: RouteRule, caller: CallerName): Expectation {
  const role = ROLE_OF[caller];
  if (!rule.allowed.includes(role)) return { refused: true, status: role === 'anonymous' ? 401 : 403 };
  if (rule.owner && caller !== rule.owner.holder && role !== 'anonymous') {
    return { refused: true, status: rule.owner.status, message: rule.owner.message };
  }
  return { refused: false };
}

/** The manifest's rule for a role, to compare with the table above. */
export function manifestAllows(route: RouteDef, role: Role): boolean {
  return isAllowed(route.access, GROUPS_OF[role]);
}

// ---- snapshots ----------------------------------------------------------------------------

export interface Snapshot {
  itemCount: number;
  items: Record<string, unknown[]>;
  media?: Record<string, number>;
}

async function queryAll(target: string): Promise<unknown[]> {
  const [index, pk] = /^gsi[123]:/.test(target) ? (target.split(/:(.*)/s) as [string, string]) : [undefined, target];
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb().send(
      new QueryCommand({
        TableName: TABLE(),
        ...(index ? { IndexName: index, KeyConditionExpression: `${index}pk = :pk` } : { KeyConditionExpression: 'pk = :pk', ConsistentRead: true }),
        ExpressionAttributeValues: { ':pk': pk },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return items.sort((a, b) => `${String(a.pk)}|${String(a.sk)}`.localeCompare(`${String(b.pk)}|${String(b.sk)}`));
}

/** How many items the whole table holds (DynamoDB Local counts them live): a new item anywhere shows. */
export async function tableItemCount(): Promise<number> {
  const res = await ddb().send(new DescribeTableCommand({ TableName: TABLE() }));
  return Number(res.Table?.ItemCount ?? 0);
}

export async function mediaObjectCount(prefix = ''): Promise<number> {
  let count = 0;
  let token: string | undefined;
  do {
    const res = await s3().send(new ListObjectsV2Command({ Bucket: stack().env.MEDIA_BUCKET, Prefix: prefix || undefined, ContinuationToken: token }));
    count += res.KeyCount ?? 0;
    token = res.IsTruncated ? res.NextContinuationToken : undefined;
  } while (token);
  return count;
}

/** The items a call may change, the table's item count and (for routes that may write files) the files under the touched properties. */
export async function snapshot(touches: string[], withMedia: boolean): Promise<Snapshot> {
  const [itemCount, lists] = await Promise.all([tableItemCount(), Promise.all(touches.map(queryAll))]);
  const items = Object.fromEntries(touches.map((t, i) => [t, lists[i]!]));
  if (!withMedia) return { itemCount, items };
  const prefixes = touches.map((t) => keys.propertyIdOf(t)).filter((id) => id !== null).map((id) => `${id}/`);
  const counts = await Promise.all(prefixes.map((p) => mediaObjectCount(p)));
  return { itemCount, items, media: Object.fromEntries(prefixes.map((p, i) => [p, counts[i]!])) };
}

/** Routes whose function may write or delete media files (the manifest's grants / IAM actions). */
export function writesMedia(route: RouteDef): boolean {
  const r = route as unknown as { grants?: readonly string[]; iam?: { media?: readonly string[] } };
  return Boolean(r.grants?.includes('media:write') || r.iam?.media?.some((a) => a === 'PutObject' || a === 'DeleteObject'));
}

// ---- answers ------------------------------------------------------------------------------

const INTERNALS = /Error:|Exception|\bat [\w.<>$]+ \(|\.(ts|js|mjs|cjs):\d+|\bstack\b|ConditionalCheck|TransactionCanceled|ResourceNotFound|AccessDenied|NoSuchKey|ECONN|\bundefined\b|\bnull\b|\bNaN\b|\[object /;
const ENGLISH = /\b(invalid|expected|required|received|must|should|too (big|small)|unrecognized|input|string|number|boolean|object|array|error|not found|forbidden|unauthorized|internal|server|failed|the|is|of|to|and)\b/i;
const ITALIAN =
  /[àèéìòù]|\b(non|il|lo|la|le|gli|un|una|di|del|della|dei|delle|da|per|con|in|al|alla|sono|solo|richiest[oa]|valid[oa]|trovat[oa]|accesso|permessi|dati|nome|riprova|inserisci|seleziona|troppo|troppi|troppe|mancante|obbligatori[oa]|link|file|pagina|stato|zona|superficie|firma|fonte|immobile|opzione|percentuale|provincia|comune|conferma|operazione|formato|identificativo|almeno|quant[ioe]|indica|deve|essere|valore|testo|campo|campi|massimo|minimo|maggiore|minore|numero|data|giorno|mese|anno|telefono|codice|chiave|tipo|elenco|caratteri|ammess[oi]|previst[oi]|può|già|scegli|carica|attendi|ricarica|accedi|elementi|agente|venditore|utente|richieste|delega|deleghe|slot|orario|disponibilità|ipoteche|importo|quota|quote)\b/i;

/** Problems of an error answer: the body must be `{message}` (and `fields`) in Italian, with no internals. */
export function errorAnswerProblems(body: unknown): string[] {
  if (!isObject(body)) return [`not a JSON object: ${String(body).slice(0, 200)}`];
  const { message, fields } = body;
  if (typeof message !== 'string' || !message.trim()) return [`no message: ${JSON.stringify(body).slice(0, 200)}`];
  const texts = [message, ...(isObject(fields) ? Object.values(fields) : [])];
  const problems: string[] = [];
  for (const text of texts) {
    if (typeof text !== 'string') problems.push(`field message not a string: ${JSON.stringify(text)}`);
    else if (INTERNALS.test(text)) problems.push(`internals: ${text}`);
    else if (ENGLISH.test(text) || !ITALIAN.test(text)) problems.push(`not Italian: ${text}`);
  }
  if ('stack' in body) problems.push('a stack in the body');
  return problems;
}

export function expectItalianError(res: { status: number; body: unknown }): void {
  expect(errorAnswerProblems(res.body), `${res.status} ${JSON.stringify(res.body ?? null).slice(0, 300)}`).toEqual([]);
}
