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

/**
 * The IAM actions a function's code calls, per AWS resource, without the service prefix. The
 * stacks grant exactly these (test/infra/iam.test.ts reads them back from the synthesized
 * policies) and test/infra/iam-code.test.ts derives the same lists from the SDK commands in
 * the function's bundle, so a declaration cannot drift from the code. Writing a new use case:
 * run that test, it prints the `iam` its code needs.
 */
export interface Iam {
  /**
   * DynamoDB on the table. A TransactWriteItems needs the action of each kind of item it
   * holds (PutItem, UpdateItem, DeleteItem, ConditionCheckItem); TransactGetItems is GetItem.
   */
  table?: readonly TableAction[];
  /** DynamoDB on the GSIs (gsi1..gsi3 of functions/model/table.ts) */
  indexes?: readonly 'Query'[];
  /**
   * S3 on the media / OMI drop bucket: HeadObject is GetObject, a presigned POST PutObject
   * (with a `tagging` field PutObjectTagging too), ListObjectsV2 ListBucket. ListBucket also
   * where the code tells a missing object: without it S3 answers 403 instead of 404.
   */
  media?: readonly BucketAction[];
  /**
   * The media actions only under this key prefix (e.g. 'trust/', ending with '/'): the object
   * actions on `<bucket>/<prefix>*`, ListBucket only for listings whose Prefix starts with it
   * (s3:prefix, which S3 also sets to the key when it tells a missing object: 404 there too).
   */
  mediaPrefix?: string;
  omi?: readonly BucketAction[];
  /** Cognito admin API on the user pool, one action per call the code makes */
  cognito?: readonly CognitoAction[];
  /** SES v2 SendEmail, from MAIL_FROM only */
  ses?: readonly 'SendEmail'[];
  /** Rekognition CompareFaces and DetectText (image bytes: no resource) */
  rekognition?: readonly ('CompareFaces' | 'DetectText')[];
}

export type TableAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem' | 'BatchWriteItem';
export type BucketAction = 'GetObject' | 'PutObject' | 'PutObjectTagging' | 'DeleteObject' | 'ListBucket';
export type CognitoAction =
  | 'AdminAddUserToGroup'
  | 'AdminRemoveUserFromGroup'
  | 'AdminListGroupsForUser'
  | 'AdminGetUser'
  | 'AdminCreateUser'
  | 'AdminDeleteUser'
  | 'AdminUpdateUserAttributes'
  | 'AdminDisableUser'
  | 'AdminEnableUser'
  | 'AdminUserGlobalSignOut'
  | 'ListUsers'
  | 'ListUsersInGroup';

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
  iam: Iam;
  /** the Stripe secrets in the function's environment (card payments of the agents); not IAM */
  stripe?: true;
  timeoutSeconds?: number;
  memoryMb?: number;
}

const manifest = [
  { id: 'health', method: 'GET', path: '/health', handler: 'system/health', access: 'public', iam: {} },
  { id: 'getMe', method: 'GET', path: '/me', handler: 'users/get-me', access: 'authenticated', owner: 'the caller only', iam: { table: ['GetItem'] } },
  {
    id: 'claimInvitation',
    method: 'POST',
    path: '/invitations/claim',
    handler: 'properties/claim-invitation',
    access: ['seller'],
    owner: 'links the property to the caller only when the token is valid and the property has no other owner',
    iam: { table: ['GetItem', 'UpdateItem'] },
  },
  { id: 'createUpload', method: 'POST', path: '/uploads', handler: 'properties/create-upload', access: 'public', owner: 'anonymous wizard; rate limited per IP; refused once the draft was submitted', iam: { table: ['GetItem', 'UpdateItem'], media: ['PutObject', 'PutObjectTagging'] } },
  { id: 'submitOwnProperty', method: 'POST', path: '/seller/properties', handler: 'properties/submit-own-property', access: ['seller'], owner: 'the property is the caller\'s from the start; rate limited per IP like the public wizard', iam: { table: ['BatchGetItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['Query'], media: ['DeleteObject', 'GetObject', 'ListBucket', 'PutObject'], ses: ['SendEmail'] }, timeoutSeconds: 30 },
  { id: 'submitProperty', method: 'POST', path: '/properties', handler: 'properties/submit-property', access: 'public', owner: 'anonymous wizard; rate limited per IP; uploads must live under the draft\'s own prefix', iam: { table: ['BatchGetItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['Query'], media: ['DeleteObject', 'GetObject', 'ListBucket', 'PutObject'], ses: ['SendEmail'] }, timeoutSeconds: 30 },
  { id: 'omiCreateUpload', method: 'POST', path: '/omi/uploads', handler: 'omi/create-upload', access: ['admin'], iam: { table: ['PutItem'], indexes: ['Query'], omi: ['PutObject'] } },
  { id: 'omiGetImport', method: 'GET', path: '/omi/imports/{jobId}', handler: 'omi/get-import', access: ['admin'], iam: { table: ['GetItem'] } },
  { id: 'omiListJobs', method: 'GET', path: '/omi/jobs', handler: 'omi/list-jobs', access: ['admin'], iam: { indexes: ['Query'] } },
  { id: 'omiStartClear', method: 'POST', path: '/omi/clear', handler: 'omi/start-clear', access: ['admin'], iam: { table: ['PutItem'], indexes: ['Query'], omi: ['PutObject'] } },
  { id: 'omiGetClear', method: 'GET', path: '/omi/clear/{jobId}', handler: 'omi/get-clear', access: ['admin'], iam: { table: ['GetItem'] } },
  { id: 'omiListQuotations', method: 'GET', path: '/omi/quotations', handler: 'omi/list-quotations', access: ['admin'], iam: { table: ['BatchGetItem', 'GetItem', 'Query'], indexes: ['Query'] }, memoryMb: 1024 },
  { id: 'createSource', method: 'POST', path: '/sources', handler: 'sources/create-source', access: ['admin'], iam: { table: ['PutItem'] } },
  { id: 'listSources', method: 'GET', path: '/sources', handler: 'sources/list-sources', access: ['admin'], iam: { indexes: ['Query'] } },
  { id: 'deleteSource', method: 'DELETE', path: '/sources/{sourceId}', handler: 'sources/delete-source', access: ['admin'], iam: { table: ['DeleteItem'] } },
  { id: 'evaluateProperty', method: 'POST', path: '/valuations/evaluate', handler: 'valuations/evaluate-property', access: ['admin'], iam: { table: ['BatchGetItem', 'Query'], indexes: ['Query'] } },

  // Gestione Utenti (/users): profiles in the table, roles and logins in Cognito
  { id: 'listUsers', method: 'GET', path: '/users', handler: 'users/list-users', access: ['admin'], iam: { indexes: ['Query'], cognito: ['ListUsersInGroup'] } },
  { id: 'updateUser', method: 'PATCH', path: '/users/{userId}', handler: 'users/update-user', access: ['admin'], iam: { table: ['GetItem', 'UpdateItem'], cognito: ['AdminListGroupsForUser', 'AdminUpdateUserAttributes', 'ListUsers'] } },
  { id: 'updateUserRole', method: 'PUT', path: '/users/{userId}/role', handler: 'users/update-user-role', access: ['admin'], owner: 'nobody changes their own role', iam: { table: ['GetItem', 'UpdateItem'], cognito: ['AdminAddUserToGroup', 'AdminRemoveUserFromGroup', 'AdminUserGlobalSignOut'] } },
  { id: 'deleteUser', method: 'DELETE', path: '/users/{userId}', handler: 'users/delete-user', access: ['admin'], owner: 'an admin cannot delete themselves', iam: { table: ['DeleteItem', 'GetItem', 'UpdateItem'], indexes: ['Query'], cognito: ['AdminDeleteUser', 'AdminGetUser', 'AdminListGroupsForUser', 'AdminRemoveUserFromGroup', 'AdminUserGlobalSignOut'] } },
  { id: 'decideAgent', method: 'POST', path: '/users/{userId}/agent-approval', handler: 'users/decide-agent', access: ['admin'], iam: { table: ['GetItem', 'PutItem', 'UpdateItem'], cognito: ['AdminAddUserToGroup', 'AdminListGroupsForUser', 'AdminRemoveUserFromGroup'], ses: ['SendEmail'] } },

  // Dashboard Admin (/admin): the requests (properties) and their dossier
  { id: 'listRequests', method: 'GET', path: '/admin/properties', handler: 'requests/list-requests', access: ['admin'], iam: { table: ['BatchGetItem', 'GetItem'], indexes: ['Query'] } },
  { id: 'getRequest', method: 'GET', path: '/admin/properties/{propertyId}', handler: 'requests/get-request', access: ['admin'], iam: { table: ['BatchGetItem', 'Query'], media: ['GetObject'] } },
  { id: 'deleteRequest', method: 'DELETE', path: '/admin/properties/{propertyId}', handler: 'requests/delete-request', access: ['admin'], iam: { table: ['BatchWriteItem', 'DeleteItem', 'GetItem', 'Query', 'UpdateItem'], media: ['DeleteObject', 'ListBucket'] }, timeoutSeconds: 60 },
  { id: 'assignRequest', method: 'PUT', path: '/admin/properties/{propertyId}/assignee', handler: 'requests/assign-request', access: ['admin'], iam: { table: ['GetItem', 'UpdateItem'] } },
  { id: 'createRequestUpload', method: 'POST', path: '/admin/properties/{propertyId}/uploads', handler: 'requests/create-media-upload', access: ['admin'], iam: { table: ['GetItem'], media: ['PutObject'] } },
  { id: 'addRequestMedia', method: 'POST', path: '/admin/properties/{propertyId}/media', handler: 'requests/add-media', access: ['admin'], iam: { table: ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'], media: ['DeleteObject', 'GetObject', 'ListBucket', 'PutObject'] } },
  { id: 'deleteRequestMedia', method: 'DELETE', path: '/admin/properties/{propertyId}/rooms/{roomId}/media/{mediaId}', handler: 'requests/delete-media', access: ['admin'], iam: { table: ['DeleteItem', 'GetItem', 'UpdateItem'], media: ['DeleteObject'] } },

  // Istruttoria Immobile (/investigation/{propertyId}): valuation, estimate, option
  { id: 'createValuation', method: 'POST', path: '/admin/properties/{propertyId}/valuations', handler: 'review/create-valuation', access: ['admin'], iam: { table: ['BatchGetItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['Query'] } },
  { id: 'sendEstimate', method: 'POST', path: '/admin/properties/{propertyId}/estimate-email', handler: 'review/send-estimate', access: ['admin'], iam: { table: ['DeleteItem', 'PutItem', 'Query', 'UpdateItem'], ses: ['SendEmail'] } },
  { id: 'createOption', method: 'POST', path: '/admin/properties/{propertyId}/option', handler: 'review/create-option', access: ['admin'], iam: { table: ['ConditionCheckItem', 'PutItem', 'Query', 'UpdateItem'], media: ['DeleteObject', 'PutObject'] } },
  { id: 'getOptionStatus', method: 'GET', path: '/admin/properties/{propertyId}/option', handler: 'review/get-option-status', access: ['admin'], iam: { table: ['GetItem'] } },
  { id: 'notifySeller', method: 'POST', path: '/admin/properties/{propertyId}/option/notification', handler: 'review/notify-seller', access: ['admin'], iam: { table: ['ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], ses: ['SendEmail'] } },
  { id: 'sendAvailabilityLink', method: 'POST', path: '/admin/properties/{propertyId}/option/availability-link', handler: 'review/send-availability-link', access: ['admin'], iam: { table: ['ConditionCheckItem', 'DeleteItem', 'PutItem', 'Query', 'UpdateItem'], ses: ['SendEmail'] } },
  // ... and, once the option is signed, reopening an onboarding step (identity, co-owners, delegations) with a reason
  { id: 'reopenOnboardingStep', method: 'POST', path: '/admin/properties/{propertyId}/onboarding/{step}/reopen', handler: 'review/reopen-step', access: ['admin'], owner: 'only a property whose option is signed (else 409)', iam: { table: ['GetItem', 'UpdateItem'] } },
  { id: 'listIdentityReviews', method: 'GET', path: '/admin/identity-reviews', handler: 'review/list-identity-reviews', access: ['admin'], iam: { indexes: ['Query'], media: ['GetObject'] } },
  { id: 'decideIdentityReview', method: 'POST', path: '/admin/properties/{propertyId}/identity/review', handler: 'review/decide-identity-review', access: ['admin'], owner: 'only an identity check still in review (else 409)', iam: { table: ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'] } },
  { id: 'decideCoOwnerIdentityReview', method: 'POST', path: '/admin/properties/{propertyId}/co-owners/{coOwnerId}/identity/review', handler: 'review/decide-co-owner-identity-review', access: ['admin'], owner: 'only a co-owner identity check still in review (else 409)', iam: { table: ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'] } },

  // Area venditore (/seller-dashboard, /seller-profile)
  { id: 'listSellerProperties', method: 'GET', path: '/seller/properties', handler: 'seller/list-properties', access: ['seller'], owner: 'the caller\'s own properties only (gsi1 SELLER#{caller})', iam: { table: ['BatchGetItem'], indexes: ['Query'] } },
  { id: 'updateOwnProfile', method: 'PATCH', path: '/me/profile', handler: 'seller/update-profile', access: ['seller'], owner: 'the caller\'s own profile only', iam: { table: ['GetItem', 'UpdateItem'] } },
  { id: 'getErasurePlan', method: 'GET', path: '/me/erasure', handler: 'seller/get-erasure', access: ['seller'], owner: 'the caller\'s own account only (user type venditore): which erasure case applies to their own properties', iam: { table: ['BatchGetItem', 'GetItem'], indexes: ['Query'] } },
  { id: 'deleteOwnAccount', method: 'DELETE', path: '/me', handler: 'seller/delete-account', access: ['seller'], owner: 'the caller\'s own account only (user type venditore): own properties without a contract, profile, login; a signed or assigned option is kept for its contract and the back office told', iam: { table: ['BatchGetItem', 'BatchWriteItem', 'ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['Query'], media: ['DeleteObject', 'ListBucket'], cognito: ['AdminDeleteUser', 'AdminListGroupsForUser', 'AdminRemoveUserFromGroup'], ses: ['SendEmail'] }, timeoutSeconds: 60 },

  // Opzioni di Acquisto Attive (/active-options)
  { id: 'listOptions', method: 'GET', path: '/admin/options', handler: 'options/list-options', access: ['admin'], iam: { table: ['BatchGetItem'], indexes: ['Query'] } },
  { id: 'updateOption', method: 'PATCH', path: '/admin/options/{propertyId}', handler: 'options/update-option', access: ['admin'], iam: { table: ['BatchGetItem', 'ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'] } },
  { id: 'transitionOption', method: 'POST', path: '/admin/options/{propertyId}/transitions', handler: 'options/transition-option', access: ['admin'], iam: { table: ['ConditionCheckItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], ses: ['SendEmail'] } },
  { id: 'listActivity', method: 'GET', path: '/admin/activity', handler: 'activity/list-activity', access: ['admin'], iam: { indexes: ['Query'] } },
  // ... e le richieste di assegnazione degli agenti: approva, rifiuta, segna come pagata (bonifico)
  { id: 'listAgentRequestsAdmin', method: 'GET', path: '/admin/agent-requests', handler: 'agents/admin/list-requests', access: ['admin'], iam: { indexes: ['Query'] } },
  { id: 'approveAgentRequest', method: 'POST', path: '/admin/agent-requests/{requestId}/approve', handler: 'agents/admin/approve-request', access: ['admin'], owner: 'only a pending request (else 409)', iam: { table: ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'], indexes: ['Query'], ses: ['SendEmail'] } },
  { id: 'rejectAgentRequest', method: 'POST', path: '/admin/agent-requests/{requestId}/reject', handler: 'agents/admin/reject-request', access: ['admin'], owner: 'only a pending request (else 409)', iam: { table: ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'], indexes: ['Query'], ses: ['SendEmail'] } },
  { id: 'markAgentRequestPaid', method: 'POST', path: '/admin/agent-requests/{requestId}/paid', handler: 'agents/admin/mark-request-paid', access: ['admin'], owner: 'only a request awaiting payment, on an option nobody else has (else 409)', iam: { table: ['GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['Query'], ses: ['SendEmail'] } },

  // Area agente (/agent-area/purchase-options): solo il gruppo agent (un agente non approvato non lo ha)
  { id: 'listAgentOptions', method: 'GET', path: '/agent/options', handler: 'agents/list-options', access: ['agent'], owner: 'options listed to every agent (pending, no agent assigned); no seller personal data', iam: { table: ['BatchGetItem'], indexes: ['Query'] } },
  { id: 'listAgentAssignedOptions', method: 'GET', path: '/agent/options/assigned', handler: 'agents/list-assigned-options', access: ['agent'], owner: 'the options assigned to the caller only (gsi3 AGENTOPTIONS#{caller})', iam: { table: ['BatchGetItem'], indexes: ['Query'] } },
  { id: 'getAgentOptionMedia', method: 'GET', path: '/agent/options/{propertyId}/media', handler: 'agents/get-option-media', access: ['agent'], owner: 'an option listed to agents or assigned to the caller; anything else 404 Opzione non trovata', iam: { table: ['GetItem', 'Query'], media: ['GetObject'] } },
  { id: 'requestAgentOption', method: 'POST', path: '/agent/options/{propertyId}/requests', handler: 'agents/request-option', access: ['agent'], owner: 'the caller\'s own request (item keyed by the caller), on a listed option only', iam: { table: ['ConditionCheckItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'] } },
  // Visite (docs/visits.md): l'agente che ha l'opzione in carico prenota sulle fasce libere del venditore
  { id: 'getAgentDeal', method: 'GET', path: '/agent/options/{propertyId}/deal', handler: 'visits/get-deal', access: ['agent'], owner: 'an option assigned to the caller only (state assigned, assignedAgentId = caller); anything else 404 Opzione non trovata', iam: { table: ['GetItem', 'Query'] } },
  { id: 'bookVisit', method: 'POST', path: '/agent/options/{propertyId}/visits', handler: 'visits/book-visit', access: ['agent'], owner: 'as getAgentDeal, checked again inside the write transaction (ConditionCheck on the option)', iam: { table: ['BatchGetItem', 'ConditionCheckItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], ses: ['SendEmail'] } },
  { id: 'moveVisit', method: 'PUT', path: '/agent/options/{propertyId}/visits/{visitId}', handler: 'visits/move-visit', access: ['agent'], owner: 'the caller\'s own visit on an option in their charge (checked in the transaction)', iam: { table: ['BatchGetItem', 'ConditionCheckItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], ses: ['SendEmail'] } },
  { id: 'cancelVisit', method: 'DELETE', path: '/agent/options/{propertyId}/visits/{visitId}', handler: 'visits/cancel-visit', access: ['agent'], owner: 'the caller\'s own visit on an option in their charge (checked in the transaction)', iam: { table: ['BatchGetItem', 'ConditionCheckItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], ses: ['SendEmail'] } },
  { id: 'recordVisitOutcome', method: 'POST', path: '/agent/options/{propertyId}/visits/{visitId}/outcome', handler: 'visits/record-outcome', access: ['agent'], owner: 'the caller\'s own visit on an option in their charge (checked in the transaction)', iam: { table: ['BatchGetItem', 'ConditionCheckItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], ses: ['SendEmail'] } },
  { id: 'listAgentRequests', method: 'GET', path: '/agent/requests', handler: 'agents/list-requests', access: ['agent'], owner: 'the caller\'s own requests only (gsi1 AGENTREQS#{caller})', iam: { indexes: ['Query'] } },
  { id: 'createAgentPayment', method: 'POST', path: '/agent/requests/{requestId}/payment', handler: 'agents/create-payment', access: ['agent'], owner: 'the caller\'s own request awaiting payment (else 404 Richiesta non trovata / 409)', iam: { table: ['GetItem', 'UpdateItem'], indexes: ['Query'] }, stripe: true },
  // Stripe: pagamento con carta completato (pubblica: la firma del webhook è il controllo)
  { id: 'stripeWebhook', method: 'POST', path: '/payments/stripe/webhook', handler: 'agents/stripe-webhook', access: 'public', owner: 'Stripe only: the Stripe-Signature of the raw body, else 400 and no change', iam: { table: ['GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['Query'], ses: ['SendEmail'] }, stripe: true, timeoutSeconds: 30 },

  // Seller onboarding (/seller-kyc), functions/onboarding/: the page's state, then its four steps
  { id: 'getKycState', method: 'GET', path: '/seller/kyc', handler: 'onboarding/get-state', access: ['seller'], owner: 'the invitation token\'s property: linked to the caller when it has no owner, else the caller must be its owner; a co-owner token only for the invited e-mail; anything else 404 Proprietà non trovata o link scaduto', iam: { table: ['GetItem', 'Query', 'UpdateItem'] } },
  { id: 'getOwnKycState', method: 'GET', path: '/seller/properties/{propertyId}/onboarding', handler: 'onboarding/get-own-state', access: ['seller'], owner: 'the property\'s userId is the caller (no link needed: the dashboard opens it by id), else 404 Immobile non trovato', iam: { table: ['Query'] } },
  // identity: the seller's own check (face and document)
  { id: 'createIdentityUpload', method: 'POST', path: '/seller/properties/{propertyId}/identity/uploads', handler: 'onboarding/identity/create-upload', access: ['seller'], owner: 'the property\'s owner only (property.userId = caller); anyone else 404', iam: { table: ['GetItem'], media: ['PutObject'] } },
  { id: 'verifyIdentity', method: 'POST', path: '/seller/properties/{propertyId}/identity', handler: 'onboarding/identity/verify-identity', access: ['seller'], owner: 'the property\'s owner only (property.userId = caller); images under the property\'s own identity/ prefix; anyone else 404', iam: { table: ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'], media: ['DeleteObject', 'GetObject', 'ListBucket', 'PutObject'], rekognition: ['CompareFaces', 'DetectText'] }, timeoutSeconds: 30 },
  { id: 'getIdentity', method: 'GET', path: '/seller/properties/{propertyId}/identity', handler: 'onboarding/identity/get-identity', access: ['seller'], owner: 'the property\'s owner only (property.userId = caller); anyone else 404', iam: { table: ['GetItem'] } },
  // co-owners: the list, the invitations, each co-owner's own identity check (by the COINVITE token)
  { id: 'replaceCoOwners', method: 'PUT', path: '/seller/properties/{propertyId}/co-owners', handler: 'onboarding/co-owners/replace', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', iam: { table: ['ConditionCheckItem', 'DeleteItem', 'PutItem', 'Query', 'UpdateItem'] } },
  { id: 'inviteCoOwners', method: 'POST', path: '/seller/properties/{propertyId}/co-owners/invitations', handler: 'onboarding/co-owners/invite', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', iam: { table: ['ConditionCheckItem', 'PutItem', 'Query', 'UpdateItem'], ses: ['SendEmail'] } },
  { id: 'skipCoOwners', method: 'POST', path: '/seller/properties/{propertyId}/co-owners/skip', handler: 'onboarding/co-owners/skip', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', iam: { table: ['ConditionCheckItem', 'DeleteItem', 'GetItem', 'Query', 'UpdateItem'] } },
  { id: 'createCoOwnerIdentityUpload', method: 'POST', path: '/seller/kyc/identity/uploads', handler: 'onboarding/co-owners/create-identity-upload', access: ['seller'], owner: 'the co-owner invited by the token (COINVITE, not expired): the caller\'s e-mail must be the invited one; images under the property\'s identity/coowner-{coOwnerId}- prefix; anything else 404', iam: { table: ['ConditionCheckItem', 'GetItem', 'Query', 'UpdateItem'], media: ['PutObject'] } },
  { id: 'verifyCoOwnerIdentity', method: 'POST', path: '/seller/kyc/identity', handler: 'onboarding/co-owners/verify-identity', access: ['seller'], owner: 'the co-owner invited by the token (COINVITE, not expired): the caller\'s e-mail must be the invited one; only that co-owner\'s images and COOWNER item; anything else 404', iam: { table: ['ConditionCheckItem', 'GetItem', 'Query', 'UpdateItem'], media: ['DeleteObject', 'GetObject', 'ListBucket', 'PutObject'], rekognition: ['CompareFaces', 'DetectText'] }, timeoutSeconds: 30 },
  // delegations: generated, downloaded, signed copies uploaded
  { id: 'generateDelegations', method: 'PUT', path: '/seller/properties/{propertyId}/delegations', handler: 'onboarding/delegations/generate-delegations', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', iam: { table: ['ConditionCheckItem', 'DeleteItem', 'PutItem', 'Query', 'UpdateItem'], media: ['DeleteObject', 'PutObject'] }, timeoutSeconds: 30 },
  { id: 'getDelegationDocument', method: 'GET', path: '/seller/properties/{propertyId}/delegations/{type}/document', handler: 'onboarding/delegations/get-document', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', iam: { table: ['Query'], media: ['GetObject'] } },
  { id: 'createDelegationUpload', method: 'POST', path: '/seller/properties/{propertyId}/delegations/{type}/uploads', handler: 'onboarding/delegations/create-signed-upload', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', iam: { table: ['Query'], media: ['PutObject'] } },
  { id: 'confirmDelegationSigned', method: 'POST', path: '/seller/properties/{propertyId}/delegations/{type}/signed', handler: 'onboarding/delegations/confirm-signed', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', iam: { table: ['ConditionCheckItem', 'Query', 'UpdateItem'], media: ['DeleteObject', 'GetObject', 'ListBucket', 'PutObject'] } },
  // option signing: the option's PDF, the signed copy
  { id: 'getOptionDocument', method: 'GET', path: '/seller/properties/{propertyId}/option/document', handler: 'onboarding/option-signing/get-document', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', iam: { table: ['GetItem'], media: ['GetObject'] } },
  { id: 'createOptionUpload', method: 'POST', path: '/seller/properties/{propertyId}/option/uploads', handler: 'onboarding/option-signing/create-signed-upload', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato)', iam: { table: ['GetItem'], media: ['PutObject'] } },
  { id: 'confirmOptionSigned', method: 'POST', path: '/seller/properties/{propertyId}/option/signed', handler: 'onboarding/option-signing/confirm-signed', access: ['seller'], owner: 'the property\'s userId is the caller (else 404 Immobile non trovato); the key under the property\'s own option/ prefix', iam: { table: ['ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], media: ['DeleteObject', 'GetObject', 'ListBucket', 'PutObject'], ses: ['SendEmail'] } },
  { id: 'listSellerVisits', method: 'GET', path: '/seller/properties/{propertyId}/visits', handler: 'visits/list-seller-visits', access: ['seller'], owner: 'the property\'s userId is the caller, else 404', iam: { table: ['GetItem', 'Query'] } },
  { id: 'declineVisit', method: 'POST', path: '/seller/properties/{propertyId}/visits/{visitId}/decline', handler: 'visits/decline-visit', access: ['seller'], owner: 'the property\'s userId is the caller (and again in the write\'s guard), else 404', iam: { table: ['ConditionCheckItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], ses: ['SendEmail'] } },

  // Disponibilità per le visite (/availability/{token}): il link che l'admin invia per un'opzione firmata senza chiavi
  { id: 'getAvailability', method: 'GET', path: '/seller/availability/{token}', handler: 'availability/get-availability', access: ['seller'], owner: 'the e-mail\'s link (first arrival): the AVAIL token (not expired, still the option\'s link) names a property whose userId is the caller; anything else 404 Link non valido', iam: { table: ['GetItem', 'Query'] } },
  { id: 'getOwnAvailability', method: 'GET', path: '/seller/properties/{propertyId}/availability', handler: 'availability/get-own-availability', access: ['seller'], owner: 'the property\'s userId is the caller, else 404; its option runs without keys, else 409', iam: { table: ['Query'] } },
  { id: 'saveAvailability', method: 'PUT', path: '/seller/properties/{propertyId}/availability', handler: 'availability/save-availability', access: ['seller'], owner: 'as getOwnAvailability, checked again inside the write transaction (owner, option still running without keys)', iam: { table: ['ConditionCheckItem', 'DeleteItem', 'PutItem', 'Query'] } },
  // /seller-register?token=...: which kind of e-mailed link a token is (where to go after sign-in)
  { id: 'getLinkKind', method: 'GET', path: '/links/{token}', handler: 'properties/get-link-kind', access: 'public', owner: 'anyone: answers only the kind (invitation, coOwner, availability, unknown) of an unguessable token', iam: { table: ['BatchGetItem'] } },
] as const satisfies readonly RouteDef[];

/**
 * The manifest as the stacks, the local gateway and the tests read it. Every route's function
 * reads the caller's session before anything else (route() in functions/lib/http.ts asks
 * functions/model/session.ts for the user's valid-after instant): GetItem on the table for
 * all of them, added here once rather than in every entry.
 */
export const routes = manifest.map((def) => {
  const table = (def.iam as Iam).table ?? [];
  return { ...def, iam: { ...def.iam, table: table.includes('GetItem') ? table : [...table, 'GetItem'] } };
}) as unknown as typeof manifest;

export type RouteId = (typeof routes)[number]['id'];

/** Functions not behind HTTP: Cognito triggers, S3 events, schedules. */
export interface TriggerDef {
  id: string;
  handler: string;
  source: 'cognito:preSignUp' | 'cognito:postConfirmation' | 'cognito:preTokenGeneration' | 's3:omiDrop' | 'schedule';
  iam: Iam;
  /** the Stripe secrets in the function's environment (card payments of the agents); not IAM */
  stripe?: true;
  schedule?: string;
  /** a schedule the local runtime never runs on its timer (it would reach the internet); `npm run invoke` still runs it */
  localSchedule?: false;
  timeoutSeconds?: number;
  memoryMb?: number;
}

export const triggers = [
  { id: 'preSignUp', handler: 'auth/pre-sign-up', source: 'cognito:preSignUp', iam: {} },
  { id: 'postConfirmation', handler: 'auth/post-confirmation', source: 'cognito:postConfirmation', iam: { table: ['PutItem'], cognito: ['AdminAddUserToGroup'] } },
  // the ID token's `mfa` claim (TOTP set up), required by admin routes (functions/lib/http.ts)
  { id: 'preTokenGeneration', handler: 'auth/pre-token-generation', source: 'cognito:preTokenGeneration', iam: { cognito: ['AdminGetUser'] } },
  { id: 'retryOutbox', handler: 'notifications/retry-outbox', source: 'schedule', schedule: 'rate(5 minutes)', iam: { table: ['UpdateItem'], indexes: ['Query'], ses: ['SendEmail'] }, timeoutSeconds: 120 },
  // tomorrow's visits remind their seller and agent (docs/visits.md)
  { id: 'remindVisits', handler: 'visits/remind-visits', source: 'schedule', schedule: 'rate(1 day)', iam: { table: ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'], indexes: ['Query'], ses: ['SendEmail'] }, timeoutSeconds: 300 },
  // the daily option job: legacy states, then running options past their expiry (docs/options.md)
  { id: 'expireOptions', handler: 'options/expire-options', source: 'schedule', schedule: 'rate(1 day)', iam: { table: ['ConditionCheckItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['Query'], ses: ['SendEmail'] }, timeoutSeconds: 300 },
  // the daily reminders (onboarding, unsigned option, monthly availability) and expired link tokens (docs/reminders.md)
  { id: 'sendReminders', handler: 'notifications/send-reminders', source: 'schedule', schedule: 'rate(1 day)', iam: { table: ['BatchWriteItem', 'ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['Query'], ses: ['SendEmail'] }, timeoutSeconds: 300 },
  // the trusted list of qualified CAs (AgID's TSL-IT) into the trust anchors under trust/ of the media bucket (docs/trusted-list.md)
  { id: 'refreshTrustedList', handler: 'system/refresh-trusted-list', source: 'schedule', schedule: 'rate(1 day)', localSchedule: false, iam: { media: ['DeleteObject', 'GetObject', 'ListBucket', 'PutObject'], mediaPrefix: 'trust/' }, timeoutSeconds: 120 },
  // OMI items stored before the zones' history index get its keys (docs/omi.md)
  { id: 'indexOmiHistory', handler: 'omi/index-history', source: 'schedule', schedule: 'rate(1 day)', iam: { table: ['BatchWriteItem', 'Query', 'UpdateItem'], indexes: ['Query'] }, timeoutSeconds: 900 },
  // OMI imports that died for good: ended, their provinces rebuilt from the table (docs/omi.md)
  { id: 'repairOmiImports', handler: 'omi/repair-omi-imports', source: 'schedule', schedule: 'rate(15 minutes)', iam: { table: ['BatchGetItem', 'BatchWriteItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['Query'] }, timeoutSeconds: 300 },
  { id: 'omiImport', handler: 'omi/import-omi', source: 's3:omiDrop', iam: { table: ['BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'], indexes: ['Query'], omi: ['DeleteObject', 'GetObject'] }, timeoutSeconds: 900, memoryMb: 1024 },
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
