import { describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '../../functions/routes';
import { api, tokenForRole, type Role } from '../support/helpers';

type Caller = 'anonymous' | Role;
const CALLERS: Caller[] = ['anonymous', 'seller', 'agent', 'admin'];

/**
 * Who may call each route, written here on purpose independently of the manifest: a
 * route added to the manifest without a line here fails the first test, and a manifest
 * rule that drifts from this table fails the second.
 */
const EXPECTED: Record<string, Caller[]> = {
  health: ['anonymous', 'seller', 'agent', 'admin'],
  getMe: ['seller', 'agent', 'admin'],
  claimInvitation: ['seller'],
  createUpload: ['anonymous', 'seller', 'agent', 'admin'],
  submitProperty: ['anonymous', 'seller', 'agent', 'admin'],
  submitOwnProperty: ['seller'],
  omiCreateUpload: ['admin'],
  omiGetImport: ['admin'],
  omiListJobs: ['admin'],
  omiStartClear: ['admin'],
  omiGetClear: ['admin'],
  omiListQuotations: ['admin'],
  evaluateProperty: ['admin'],
  createSource: ['admin'],
  listSources: ['admin'],
  deleteSource: ['admin'],
  listUsers: ['admin'],
  updateUser: ['admin'],
  updateUserRole: ['admin'],
  deleteUser: ['admin'],
  decideAgent: ['admin'],
  listRequests: ['admin'],
  getRequest: ['admin'],
  deleteRequest: ['admin'],
  assignRequest: ['admin'],
  createRequestUpload: ['admin'],
  addRequestMedia: ['admin'],
  deleteRequestMedia: ['admin'],
  createValuation: ['admin'],
  sendEstimate: ['admin'],
  createOption: ['admin'],
  getOptionStatus: ['admin'],
  notifySeller: ['admin'],
  sendAvailabilityLink: ['admin'],
  listOptions: ['admin'],
  updateOption: ['admin'],
  listAgentRequestsAdmin: ['admin'],
  approveAgentRequest: ['admin'],
  rejectAgentRequest: ['admin'],
  markAgentRequestPaid: ['admin'],
  listAgentOptions: ['agent'],
  listAgentAssignedOptions: ['agent'],
  getAgentOptionMedia: ['agent'],
  requestAgentOption: ['agent'],
  listAgentRequests: ['agent'],
  createAgentPayment: ['agent'],
  // public: Stripe's signature is the check (the probe, unsigned, gets a 400)
  stripeWebhook: ['anonymous', 'seller', 'agent', 'admin'],
  createIdentityUpload: ['seller'],
  verifyIdentity: ['seller'],
  getIdentity: ['seller'],
  replaceCoOwners: ['seller'],
  inviteCoOwners: ['seller'],
  skipCoOwners: ['seller'],
  generateDelegations: ['seller'],
  getDelegationDocument: ['seller'],
  createDelegationUpload: ['seller'],
  confirmDelegationSigned: ['seller'],
  getKycState: ['seller'],
  createCoOwnerIdentityUpload: ['seller'],
  verifyCoOwnerIdentity: ['seller'],
  getOptionDocument: ['seller'],
  createOptionUpload: ['seller'],
  confirmOptionSigned: ['seller'],
  listSellerProperties: ['seller'],
  updateOwnProfile: ['seller'],
  deleteOwnAccount: ['seller'],
  getAvailability: ['seller'],
  saveAvailability: ['seller'],
  getLinkKind: ['anonymous', 'seller', 'agent', 'admin'],
};

/** What a handler may answer an allowed caller for the probe's placeholder input (besides a 2xx). */
const ANSWERS_TO_PROBE = [400, 404, 409, 422];
const isSuccess = (status: number) => status >= 200 && status < 300;

/** A 4xx carries an Italian message, for the whole body and for each field: never zod's English default. */
const ZOD_DEFAULT = /^(Invalid|Expected|Too (big|small)|Unrecognized)/;
function expectItalianAnswer(body: unknown) {
  const { message, fields } = body as { message?: unknown; fields?: Record<string, string> };
  expect(typeof message).toBe('string');
  for (const text of [message as string, ...Object.values(fields ?? {})]) expect(text).not.toMatch(ZOD_DEFAULT);
}

const samplePath = (r: RouteDef) => r.path.replace(/\{(\w+)\}/g, 'esempio-$1');

describe('authorization of every route in the manifest', () => {
  it('has a rule in this test for every route (a new route needs one)', () => {
    const missing = (routes as readonly RouteDef[]).filter((r) => !(r.id in EXPECTED)).map((r) => r.id);
    expect(missing).toEqual([]);
    const stale = Object.keys(EXPECTED).filter((id) => !(routes as readonly RouteDef[]).some((r) => r.id === id));
    expect(stale).toEqual([]);
  });

  for (const route of routes as readonly RouteDef[]) {
    for (const caller of CALLERS) {
      const allowed = (EXPECTED[route.id] ?? []).includes(caller);
      it(`${route.method} ${route.path}: ${caller} is ${allowed ? 'let through' : 'refused'}`, async () => {
        const token = caller === 'anonymous' ? undefined : await tokenForRole(caller);
        const res = await api(route.method, samplePath(route), { token, body: route.method === 'GET' ? undefined : {} });
        if (allowed) {
          // let through = the handler ran and answered: a success or a clear validation answer
          // for the probe input, never a crash (5xx) nor a refusal
          expect(isSuccess(res.status) || ANSWERS_TO_PROBE.includes(res.status), `${res.status} ${JSON.stringify(res.body)}`).toBe(true);
          if (!isSuccess(res.status)) expectItalianAnswer(res.body);
        } else {
          expect(res.status).toBe(caller === 'anonymous' ? 401 : 403);
          expect(typeof (res.body as { message?: unknown }).message).toBe('string');
        }
      });
    }
  }
});
