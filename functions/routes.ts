import type { Group } from './domain/roles';

/**
 * THE route manifest: every HTTP use case with who may call it. The CDK api stack makes
 * one function and one route per entry, the local gateway mounts the same handlers, and
 * the authorization test enumerates it.
 *
 * access:
 * - 'public': no token needed;
 * - 'authenticated': any signed-in user (the handler checks ownership);
 * - a list of groups: a signed-in user in at least one of them.
 * Handlers also check ownership of the resource (`owner` says what is checked).
 */
export type Access = 'public' | 'authenticated' | readonly Group[];

/** AWS resources a function uses; the api stack grants exactly these. */
export type Grant =
  | 'table:read'
  | 'table:write'
  | 'media:read'
  | 'media:write'
  /** s3:PutObjectTagging on media objects only: a submission makes its drafts permanent (lib/draft-uploads.ts) */
  | 'media:tag'
  | 'omi:read'
  | 'omi:write'
  | 'ses:send'
  | 'cognito:admin'
  | 'rekognition:compare'
  /** the Stripe secrets in the function's environment (card payments of the agents) */
  | 'stripe';

export interface RouteDef {
  /** unique id; also the Lambda's logical name */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** API path without the /api prefix; parameters as {name} */
  path: string;
  /** handler module under functions/, without extension; it exports `handler` */
  handler: string;
  access: Access;
  /** ownership rule the handler enforces, for the reader and the authorization test */
  owner?: string;
  grants: readonly Grant[];
  timeoutSeconds?: number;
  memoryMb?: number;
}

export const routes = [
  { id: 'health', method: 'GET', path: '/health', handler: 'system/health', access: 'public', grants: [] },
  { id: 'getMe', method: 'GET', path: '/me', handler: 'users/get-me', access: 'authenticated', owner: 'the caller only', grants: ['table:read'] },
  {
    id: 'claimInvitation',
    method: 'POST',
    path: '/invitations/claim',
    handler: 'properties/claim-invitation',
    access: ['seller'],
    owner: 'links the property to the caller only when the token is valid and the property has no other owner',
    grants: ['table:read', 'table:write'],
  },
  { id: 'createUpload', method: 'POST', path: '/uploads', handler: 'properties/create-upload', access: 'public', owner: 'anonymous wizard; rate limited per IP; refused once the draft was submitted', grants: ['table:read', 'table:write', 'media:write'] },
  { id: 'submitOwnProperty', method: 'POST', path: '/seller/properties', handler: 'properties/submit-own-property', access: ['seller'], owner: 'the property is the caller\'s from the start; rate limited per IP like the public wizard', grants: ['table:read', 'table:write', 'media:read', 'media:write', 'media:tag', 'ses:send'], timeoutSeconds: 30 },
  { id: 'submitProperty', method: 'POST', path: '/properties', handler: 'properties/submit-property', access: 'public', owner: 'anonymous wizard; rate limited per IP; uploads must live under the draft\'s own prefix', grants: ['table:read', 'table:write', 'media:read', 'media:write', 'media:tag', 'ses:send'], timeoutSeconds: 30 },
  { id: 'omiCreateUpload', method: 'POST', path: '/omi/uploads', handler: 'omi/create-upload', access: ['admin'], grants: ['table:write', 'omi:write'] },
  { id: 'omiGetImport', method: 'GET', path: '/omi/imports/{jobId}', handler: 'omi/get-import', access: ['admin'], grants: ['table:read'] },
  { id: 'omiListJobs', method: 'GET', path: '/omi/jobs', handler: 'omi/list-jobs', access: ['admin'], grants: ['table:read'] },
  { id: 'omiStartClear', method: 'POST', path: '/omi/clear', handler: 'omi/start-clear', access: ['admin'], grants: ['table:read', 'table:write', 'omi:write'] },
  { id: 'omiGetClear', method: 'GET', path: '/omi/clear/{jobId}', handler: 'omi/get-clear', access: ['admin'], grants: ['table:read'] },
  { id: 'omiListQuotations', method: 'GET', path: '/omi/quotations', handler: 'omi/list-quotations', access: ['admin'], grants: ['table:read'], memoryMb: 1024 },
  { id: 'createSource', method: 'POST', path: '/sources', handler: 'sources/create-source', access: ['admin'], grants: ['table:write'] },
  { id: 'listSources', method: 'GET', path: '/sources', handler: 'sources/list-sources', access: ['admin'], grants: ['table:read'] },
  { id: 'deleteSource', method: 'DELETE', path: '/sources/{sourceId}', handler: 'sources/delete-source', access: ['admin'], grants: ['table:write'] },
  { id: 'evaluateProperty', method: 'POST', path: '/valuations/evaluate', handler: 'valuations/evaluate-property', access: ['admin'], grants: ['table:read'] },

  // Gestione Utenti (/users): profiles in the table, roles and logins in Cognito
  { id: 'listUsers', method: 'GET', path: '/users', handler: 'users/list-users', access: ['admin'], grants: ['table:read', 'cognito:admin'] },
  { id: 'updateUser', method: 'PATCH', path: '/users/{userId}', handler: 'users/update-user', access: ['admin'], grants: ['table:read', 'table:write', 'cognito:admin'] },
  { id: 'updateUserRole', method: 'PUT', path: '/users/{userId}/role', handler: 'users/update-user-role', access: ['admin'], owner: 'an admin cannot take the admin role from themselves', grants: ['table:read', 'cognito:admin'] },
  { id: 'deleteUser', method: 'DELETE', path: '/users/{userId}', handler: 'users/delete-user', access: ['admin'], owner: 'an admin cannot delete themselves', grants: ['table:read', 'table:write', 'cognito:admin'] },
  { id: 'decideAgent', method: 'POST', path: '/users/{userId}/agent-approval', handler: 'users/decide-agent', access: ['admin'], grants: ['table:read', 'table:write', 'cognito:admin', 'ses:send'] },

  // Dashboard Admin (/admin): the requests (properties) and their dossier
  { id: 'listRequests', method: 'GET', path: '/admin/properties', handler: 'requests/list-requests', access: ['admin'], grants: ['table:read'] },
  { id: 'getRequest', method: 'GET', path: '/admin/properties/{propertyId}', handler: 'requests/get-request', access: ['admin'], grants: ['table:read', 'media:read'] },
  { id: 'deleteRequest', method: 'DELETE', path: '/admin/properties/{propertyId}', handler: 'requests/delete-request', access: ['admin'], grants: ['table:read', 'table:write', 'media:read', 'media:write'], timeoutSeconds: 60 },
  { id: 'assignRequest', method: 'PUT', path: '/admin/properties/{propertyId}/assignee', handler: 'requests/assign-request', access: ['admin'], grants: ['table:read', 'table:write'] },
  { id: 'createRequestUpload', method: 'POST', path: '/admin/properties/{propertyId}/uploads', handler: 'requests/create-media-upload', access: ['admin'], grants: ['table:read', 'media:write'] },
  { id: 'addRequestMedia', method: 'POST', path: '/admin/properties/{propertyId}/media', handler: 'requests/add-media', access: ['admin'], grants: ['table:read', 'table:write', 'media:read', 'media:write'] },
  { id: 'deleteRequestMedia', method: 'DELETE', path: '/admin/properties/{propertyId}/rooms/{roomId}/media/{mediaId}', handler: 'requests/delete-media', access: ['admin'], grants: ['table:read', 'table:write', 'media:write'] },

  // Istruttoria Immobile (/investigation/{propertyId}): valuation, estimate, option
  { id: 'createValuation', method: 'POST', path: '/admin/properties/{propertyId}/valuations', handler: 'review/create-valuation', access: ['admin'], grants: ['table:read', 'table:write'] },
  { id: 'sendEstimate', method: 'POST', path: '/admin/properties/{propertyId}/estimate-email', handler: 'review/send-estimate', access: ['admin'], grants: ['table:read', 'table:write', 'ses:send'] },
  { id: 'createOption', method: 'POST', path: '/admin/properties/{propertyId}/option', handler: 'review/create-option', access: ['admin'], grants: ['table:read', 'table:write', 'media:write'] },
  { id: 'getOptionStatus', method: 'GET', path: '/admin/properties/{propertyId}/option', handler: 'review/get-option-status', access: ['admin'], grants: ['table:read'] },
  { id: 'notifySeller', method: 'POST', path: '/admin/properties/{propertyId}/option/notification', handler: 'review/notify-seller', access: ['admin'], grants: ['table:read', 'table:write', 'ses:send'] },
  { id: 'sendAvailabilityLink', method: 'POST', path: '/admin/properties/{propertyId}/option/availability-link', handler: 'review/send-availability-link', access: ['admin'], grants: ['table:read', 'table:write', 'ses:send'] },

  // Area venditore (/seller-dashboard, /seller-profile)
  { id: 'listSellerProperties', method: 'GET', path: '/seller/properties', handler: 'seller/list-properties', access: ['seller'], owner: 'the caller\'s own properties only (gsi1 SELLER#{caller})', grants: ['table:read'] },
  { id: 'updateOwnProfile', method: 'PATCH', path: '/me/profile', handler: 'seller/update-profile', access: ['seller'], owner: 'the caller\'s own profile only', grants: ['table:read', 'table:write'] },
  { id: 'deleteOwnAccount', method: 'DELETE', path: '/me', handler: 'seller/delete-account', access: ['seller'], owner: 'the caller\'s own account only (user type venditore): own properties, profile, login', grants: ['table:read', 'table:write', 'media:read', 'media:write', 'cognito:admin'], timeoutSeconds: 60 },

  // Onboarding venditore, passo 1: verifica dell'identità (/seller-kyc)
  { id: 'createIdentityUpload', method: 'POST', path: '/seller/properties/{propertyId}/identity/uploads', handler: 'identity/create-upload', access: ['seller'], owner: 'the property\'s owner only (property.userId = caller); anyone else 404', grants: ['table:read', 'media:write'] },
  { id: 'verifyIdentity', method: 'POST', path: '/seller/properties/{propertyId}/identity', handler: 'identity/verify-identity', access: ['seller'], owner: 'the property\'s owner only (property.userId = caller); images under the property\'s own identity/ prefix; anyone else 404', grants: ['table:read', 'table:write', 'media:read', 'media:write', 'rekognition:compare'], timeoutSeconds: 30 },
  { id: 'getIdentity', method: 'GET', path: '/seller/properties/{propertyId}/identity', handler: 'identity/get-identity', access: ['seller'], owner: 'the property\'s owner only (property.userId = caller); anyone else 404', grants: ['table:read'] },

  // Opzioni di Acquisto Attive (/active-options)
  { id: 'listOptions', method: 'GET', path: '/admin/options', handler: 'options/list-options', access: ['admin'], grants: ['table:read'] },
  { id: 'updateOption', method: 'PATCH', path: '/admin/options/{propertyId}', handler: 'options/update-option', access: ['admin'], grants: ['table:read', 'table:write'] },

  // Onboarding del venditore (/seller-kyc): comproprietari e deleghe del proprio immobile
  // ... e le richieste di assegnazione degli agenti: approva, rifiuta, segna come pagata (bonifico)
  { id: 'listAgentRequestsAdmin', method: 'GET', path: '/admin/agent-requests', handler: 'options/list-agent-requests', access: ['admin'], grants: ['table:read'] },
  { id: 'approveAgentRequest', method: 'POST', path: '/admin/agent-requests/{requestId}/approve', handler: 'options/approve-agent-request', access: ['admin'], owner: 'only a pending request (else 409)', grants: ['table:read', 'table:write', 'ses:send'] },
  { id: 'rejectAgentRequest', method: 'POST', path: '/admin/agent-requests/{requestId}/reject', handler: 'options/reject-agent-request', access: ['admin'], owner: 'only a pending request (else 409)', grants: ['table:read', 'table:write', 'ses:send'] },
  { id: 'markAgentRequestPaid', method: 'POST', path: '/admin/agent-requests/{requestId}/paid', handler: 'options/mark-agent-request-paid', access: ['admin'], owner: 'only a request awaiting payment, on an option nobody else has (else 409)', grants: ['table:read', 'table:write', 'ses:send'] },

  // Area agente (/agent-area/purchase-options): solo il gruppo agent (un agente non approvato non lo ha)
  { id: 'listAgentOptions', method: 'GET', path: '/agent/options', handler: 'agents/list-options', access: ['agent'], owner: 'options listed to every agent (pending, no agent assigned); no seller personal data', grants: ['table:read'] },
  { id: 'listAgentAssignedOptions', method: 'GET', path: '/agent/options/assigned', handler: 'agents/list-assigned-options', access: ['agent'], owner: 'the options assigned to the caller only (gsi3 AGENTOPTIONS#{caller})', grants: ['table:read'] },
  { id: 'getAgentOptionMedia', method: 'GET', path: '/agent/options/{propertyId}/media', handler: 'agents/get-option-media', access: ['agent'], owner: 'an option listed to agents or assigned to the caller; anything else 404 Opzione non trovata', grants: ['table:read', 'media:read'] },
  { id: 'requestAgentOption', method: 'POST', path: '/agent/options/{propertyId}/requests', handler: 'agents/request-option', access: ['agent'], owner: 'the caller\'s own request (item keyed by the caller), on a listed option only', grants: ['table:read', 'table:write'] },
  { id: 'listAgentRequests', method: 'GET', path: '/agent/requests', handler: 'agents/list-requests', access: ['agent'], owner: 'the caller\'s own requests only (gsi1 AGENTREQS#{caller})', grants: ['table:read'] },
  { id: 'createAgentPayment', method: 'POST', path: '/agent/requests/{requestId}/payment', handler: 'agents/create-payment', access: ['agent'], owner: 'the caller\'s own request awaiting payment (else 404 Richiesta non trovata / 409)', grants: ['table:read', 'table:write', 'stripe'] },
  // Stripe: pagamento con carta completato (pubblica: la firma del webhook è il controllo)
  { id: 'stripeWebhook', method: 'POST', path: '/payments/stripe/webhook', handler: 'agents/stripe-webhook', access: 'public', owner: 'Stripe only: the Stripe-Signature of the raw body, else 400 and no change', grants: ['table:read', 'table:write', 'ses:send', 'stripe'], timeoutSeconds: 30 },
  { id: 'replaceCoOwners', method: 'PUT', path: '/seller/properties/{propertyId}/co-owners', handler: 'coowners/replace-co-owners', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', grants: ['table:read', 'table:write'] },
  { id: 'inviteCoOwners', method: 'POST', path: '/seller/properties/{propertyId}/co-owners/invitations', handler: 'coowners/invite-co-owners', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', grants: ['table:read', 'table:write', 'ses:send'] },
  { id: 'skipCoOwners', method: 'POST', path: '/seller/properties/{propertyId}/co-owners/skip', handler: 'coowners/skip-co-owners', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', grants: ['table:read', 'table:write'] },
  { id: 'generateDelegations', method: 'PUT', path: '/seller/properties/{propertyId}/delegations', handler: 'delegations/generate-delegations', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', grants: ['table:read', 'table:write', 'media:write'], timeoutSeconds: 30 },
  { id: 'getDelegationDocument', method: 'GET', path: '/seller/properties/{propertyId}/delegations/{type}/document', handler: 'delegations/get-delegation-document', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', grants: ['table:read', 'media:read'] },
  { id: 'createDelegationUpload', method: 'POST', path: '/seller/properties/{propertyId}/delegations/{type}/uploads', handler: 'delegations/create-signed-upload', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', grants: ['table:read', 'media:write'] },
  { id: 'confirmDelegationSigned', method: 'POST', path: '/seller/properties/{propertyId}/delegations/{type}/signed', handler: 'delegations/confirm-signed', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', grants: ['table:read', 'table:write', 'media:read', 'media:write'] },
  // Onboarding del venditore (/seller-kyc): stato della pagina e firma dell'opzione di acquisto
  { id: 'getKycState', method: 'GET', path: '/seller/kyc', handler: 'kyc/get-kyc-state', access: ['seller'], owner: 'the invitation token\'s property: linked to the caller when it has no owner, else the caller must be its owner; a co-owner token only for the invited e-mail; anything else 404 Proprietà non trovata o link scaduto', grants: ['table:read', 'table:write'] },
  { id: 'createCoOwnerIdentityUpload', method: 'POST', path: '/seller/kyc/identity/uploads', handler: 'kyc/create-co-owner-identity-upload', access: ['seller'], owner: 'the co-owner invited by the token (COINVITE, not expired): the caller\'s e-mail must be the invited one; images under the property\'s identity/coowner-{coOwnerId}- prefix; anything else 404', grants: ['table:read', 'media:write'] },
  { id: 'verifyCoOwnerIdentity', method: 'POST', path: '/seller/kyc/identity', handler: 'kyc/verify-co-owner-identity', access: ['seller'], owner: 'the co-owner invited by the token (COINVITE, not expired): the caller\'s e-mail must be the invited one; only that co-owner\'s images and COOWNER item; anything else 404', grants: ['table:read', 'table:write', 'media:read', 'media:write', 'rekognition:compare'], timeoutSeconds: 30 },
  { id: 'getOptionDocument', method: 'GET', path: '/seller/properties/{propertyId}/option/document', handler: 'kyc/get-option-document', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', grants: ['table:read', 'media:read'] },
  { id: 'createOptionUpload', method: 'POST', path: '/seller/properties/{propertyId}/option/uploads', handler: 'kyc/create-option-upload', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', grants: ['table:read', 'media:write'] },
  { id: 'confirmOptionSigned', method: 'POST', path: '/seller/properties/{propertyId}/option/signed', handler: 'kyc/confirm-option-signed', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato); the key under the property\'s own option/ prefix', grants: ['table:read', 'table:write', 'media:read', 'media:write'] },
  // Disponibilità per le visite (/availability/{token}): il link che l'admin invia per un'opzione firmata senza chiavi
  { id: 'getAvailability', method: 'GET', path: '/seller/availability/{token}', handler: 'availability/get-availability', access: ['seller'], owner: 'the AVAIL token (not expired, still the option\'s link) names a property whose userId is the caller; anything else 404 Link non valido', grants: ['table:read'] },
  { id: 'saveAvailability', method: 'PUT', path: '/seller/availability/{token}', handler: 'availability/save-availability', access: ['seller'], owner: 'as getAvailability, checked again inside the write transaction', grants: ['table:read', 'table:write'] },
  // /seller-register?token=...: which kind of e-mailed link a token is (where to go after sign-in)
  { id: 'getLinkKind', method: 'GET', path: '/links/{token}', handler: 'properties/get-link-kind', access: 'public', owner: 'anyone: answers only the kind (invitation, coOwner, availability, unknown) of an unguessable token', grants: ['table:read'] },
] as const satisfies readonly RouteDef[];

export type RouteId = (typeof routes)[number]['id'];

/** Functions not behind HTTP: Cognito triggers, S3 events, schedules. */
export interface TriggerDef {
  id: string;
  handler: string;
  source: 'cognito:preSignUp' | 'cognito:postConfirmation' | 's3:omiDrop' | 'schedule';
  grants: readonly Grant[];
  schedule?: string;
  timeoutSeconds?: number;
  memoryMb?: number;
}

export const triggers = [
  { id: 'preSignUp', handler: 'auth/pre-sign-up', source: 'cognito:preSignUp', grants: [] },
  { id: 'postConfirmation', handler: 'auth/post-confirmation', source: 'cognito:postConfirmation', grants: ['table:write', 'cognito:admin'] },
  { id: 'retryOutbox', handler: 'notifications/retry-outbox', source: 'schedule', schedule: 'rate(5 minutes)', grants: ['table:read', 'table:write', 'ses:send'], timeoutSeconds: 120 },
  // the daily reminders (onboarding, unsigned option, monthly availability) and expired link tokens (docs/reminders.md)
  { id: 'sendReminders', handler: 'notifications/send-reminders', source: 'schedule', schedule: 'rate(1 day)', grants: ['table:read', 'table:write', 'ses:send'], timeoutSeconds: 300 },
  { id: 'omiImport', handler: 'omi/import-omi', source: 's3:omiDrop', grants: ['omi:read', 'omi:write', 'table:read', 'table:write'], timeoutSeconds: 900, memoryMb: 1024 },
] as const satisfies readonly TriggerDef[];

export function routeById(id: string): RouteDef | undefined {
  return (routes as readonly RouteDef[]).find((r) => r.id === id);
}

/** True when a caller with these groups (undefined = no token) may call the route. */
export function isAllowed(access: Access, groups: readonly Group[] | undefined): boolean {
  if (access === 'public') return true;
  if (!groups) return false;
  if (access === 'authenticated') return true;
  return access.some((g) => groups.includes(g));
}
