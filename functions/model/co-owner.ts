/**
 * Co-owners of a property: one COOWNER item each under the property's pk (keys.coOwner) and
 * the co-owner's link token (keys.coOwnerInvitation, COINVITE#{token}, expiring). The item <->
 * SellerCoOwner mapping, the reads of a co-owner's link and the writes of the co-owners step,
 * each composed with the property guard (model/property.ts) at index 0 of its transaction.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, queryAll, table } from './db';
import { str, type Item } from './item';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { guardedTransaction, guardFailure, sendGuarded, stepCompletion, type PropertyGuard, type TransactItem } from './property';
import { tokenExpiryFields } from './tokens';
import { ConflictError, NotFoundError, TooManyRequestsError } from '../lib/errors';
import { dailyQuotaUpdate, exceedsQuota, type DailyQuota } from './rate-limit';
import { CO_OWNER_INVITATION_LIMITS as LIMITS, CO_OWNER_INVITATION_MESSAGES as INVITE } from '../domain/onboarding/co-owner-email';
import { ONBOARDING_MESSAGES as M, sameCoOwnerName } from '../domain/onboarding/rules';
import { KYC_MESSAGES, type KycIdentity } from '../domain/onboarding/kyc';
import type { SellerCoOwner } from '../domain/onboarding/schemas';
import { IDENTITY_MESSAGES, type DocumentType } from '../domain/identity';
import type { Actor } from '../domain/activity';
import { requestActivity } from './activity';

const propertyNotFound = () => new NotFoundError(M.propertyNotFound);

/** The co-owner's id (the `id` attribute, else the sk's suffix). */
export const coOwnerIdOf = (c: Item): string => String(c.id ?? String(c.sk).slice(keys.dossierPrefixes.coOwner.length));

export function toCoOwner(c: Item): SellerCoOwner {
  return {
    id: coOwnerIdOf(c),
    email: String(c.email ?? ''),
    fullName: String(c.fullName ?? ''),
    share: typeof c.share === 'number' ? c.share : 0,
    invitedAt: str(c.invitedAt),
    verifiedAt: str(c.verifiedAt),
  };
}

/** The seller's own share stored on the PROPERTY item with the co-owners' list, or null (never asked: older lists). */
export function sellerShareOf(property: Item): number | null {
  return typeof property.sellerShare === 'number' ? property.sellerShare : null;
}

/** The co-owner's last identity check stored on the COOWNER item (saveCoOwnerIdentity), or null. */
export function coOwnerIdentityOf(c: Item): KycIdentity | null {
  const status = str(c.identityStatus);
  if (status !== 'verified' && status !== 'rejected' && status !== 'review') return null;
  return {
    status,
    documentType: (str(c.documentType) ?? 'carta_identita') as KycIdentity['documentType'],
    confidence: typeof c.confidence === 'number' ? c.confidence : 0,
    reason: str(c.identityReason),
    verifiedAt: str(c.verifiedAt),
  };
}

/** The COOWNER item (strongly consistent), or undefined. */
export async function readCoOwner(propertyId: string, coOwnerId: string): Promise<Item | undefined> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: keys.coOwner(propertyId, coOwnerId), ConsistentRead: true }));
  return res.Item;
}

/** A co-owner's link token as stored (expiry not checked here). */
export interface CoOwnerInvitation {
  propertyId: string | null;
  coOwnerId: string | null;
  email: string;
  expiresAt: number | undefined;
}

/** The COINVITE item of a token (strongly consistent), or undefined. */
/** The ids of a property's co-owners (strongly consistent). */
export async function coOwnerIdsOf(propertyId: string): Promise<string[]> {
  const ids: string[] = [];
  await queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.property(propertyId).pk, ':prefix': keys.dossierPrefixes.coOwner },
      ProjectionExpression: 'id',
      ConsistentRead: true,
    },
    (item) => {
      ids.push(String(item.id));
    },
  );
  return ids;
}

export async function readCoOwnerInvitation(token: string): Promise<CoOwnerInvitation | undefined> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: keys.coOwnerInvitation(token), ConsistentRead: true }));
  const i = res.Item;
  if (!i) return undefined;
  return { propertyId: str(i.propertyId), coOwnerId: str(i.coOwnerId), email: String(i.email ?? ''), expiresAt: i.expiresAt as number | undefined };
}

/** What a co-owner's identity check leaves on the COOWNER item, and its place in the admins' review queue. */
const IDENTITY_CHECK_ATTRIBUTES = ['identityStatus', 'identityReason', 'identityCheckedAt', 'identityReview', 'confidence', 'gsi2pk', 'gsi2sk'] as const;

/**
 * The seller's list replaces the stored one in ONE transaction, guarded by the owner: a new
 * co-owner is put, a kept one (the same id) is updated in place, so its identity check, its
 * evidence and its place in the admins' review queue stay (a Put would drop them and keep
 * only "Verificato"); when its name changed (domain sameCoOwnerName) the check's outcome is
 * removed and it is verified again. Every stored item not in the list is deleted; the
 * property's sellerShare and coOwnersUpdatedAt are set and singleOwner removed.
 * A failed guard is 404 'Immobile non trovato'; any other cancellation 409.
 */
export async function replaceCoOwners(
  guard: { propertyId: string; owner: string },
  sellerShare: number,
  list: readonly SellerCoOwner[],
  stored: readonly Item[],
  at: string,
): Promise<void> {
  const { propertyId } = guard;
  const T = table();
  const storedById = new Map(stored.map((c) => [coOwnerIdOf(c), c]));
  const writes = list.map((c): TransactItem => {
    const old = storedById.get(c.id);
    if (!old) {
      const Item = { ...keys.coOwner(propertyId, c.id), entity: 'coOwner', id: c.id, propertyId, email: c.email, fullName: c.fullName, share: c.share, invitedAt: c.invitedAt, verifiedAt: null, createdAt: at, updatedAt: at };
      return { Put: { TableName: T, Item, ConditionExpression: 'attribute_not_exists(pk)' } };
    }
    const renamed = !sameCoOwnerName(String(old.fullName ?? ''), c.fullName);
    const removed = renamed ? IDENTITY_CHECK_ATTRIBUTES : [];
    return {
      Update: {
        TableName: T,
        Key: keys.coOwner(propertyId, c.id),
        UpdateExpression:
          'SET #email = :email, #fullName = :fullName, #share = :share, #updatedAt = :at' +
          (renamed ? `, #verifiedAt = :null REMOVE ${removed.map((a) => `#${a}`).join(', ')}` : ''),
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(['email', 'fullName', 'share', 'updatedAt', ...(renamed ? ['verifiedAt', ...removed] : [])].map((a) => [`#${a}`, a])),
        ExpressionAttributeValues: { ':email': c.email, ':fullName': c.fullName, ':share': c.share, ':at': at, ...(renamed ? { ':null': null } : {}) },
      },
    };
  });
  const keep = new Set(list.map((c) => keys.coOwner(propertyId, c.id).sk));
  const removed = stored.filter((c) => !keep.has(String(c.sk)));
  // saving the list completes the step (a reopening is closed again); once the option exists only while reopened
  const g: PropertyGuard = { ...guard, step: 'coOwners' };
  const done = stepCompletion('coOwners', at);
  await sendGuarded(
    g,
    [
      {
        Update: {
          TableName: T,
          Key: keys.property(propertyId),
          UpdateExpression: `SET sellerShare = :sellerShare, coOwnersUpdatedAt = :at, updatedAt = :at, ${done.set} REMOVE singleOwner, ${done.remove}`,
          ExpressionAttributeNames: done.names,
          ExpressionAttributeValues: { ':sellerShare': sellerShare, ':at': at, ...done.values },
        },
      },
      ...removed.map((c) => ({ Delete: { TableName: T, Key: { pk: c.pk, sk: c.sk } } })),
      ...writes,
    ],
    propertyNotFound,
  );
}

export interface CoOwnerInvitationWrite {
  coOwnerId: string;
  email: string;
  /** the new link token (model/tokens newToken) */
  token: string;
  /** the invitation mail, written to the outbox in the same transaction */
  outbox: Omit<Parameters<typeof outboxPut>[0], 'now'>;
}

/**
 * Invites co-owners in ONE transaction, guarded by the owner: the property's
 * coOwnersInvitedAt, the seller's own identity verified (the IDENTITY item), the daily
 * invitation quotas of the property and of the seller (model/rate-limit.ts, one count per
 * mail), each COOWNER's invitedAt (still there and not invited meanwhile), a new COINVITE
 * link token each (expiring after TOKEN_TTL_DAYS) and each mail's outbox item.
 * A failed guard is 404 'Immobile non trovato'; an unverified identity 409; a spent quota
 * 429 (and nothing is written nor counted); any other cancellation 409.
 */
export async function recordCoOwnerInvitations(
  guard: { propertyId: string; owner: string },
  invitations: readonly CoOwnerInvitationWrite[],
  now: Date,
): Promise<void> {
  const { propertyId } = guard;
  const T = table();
  const at = now.toISOString();
  const quotas: DailyQuota[] = [
    { scope: 'coOwnerInvitesProperty', subject: propertyId, limit: LIMITS.perPropertyPerDay, amount: invitations.length },
    { scope: 'coOwnerInvitesSeller', subject: guard.owner, limit: LIMITS.perSellerPerDay, amount: invitations.length },
  ];
  const quotaRefusals = [INVITE.tooManyForProperty, INVITE.tooManyForSeller];
  const overLimit = quotas.findIndex(exceedsQuota);
  if (overLimit >= 0) throw new TooManyRequestsError(quotaRefusals[overLimit]!);
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction(guard, [
          {
            Update: {
              TableName: T,
              Key: keys.property(propertyId),
              UpdateExpression: 'SET coOwnersInvitedAt = :at, updatedAt = :at',
              ExpressionAttributeValues: { ':at': at },
            },
          },
          // index 1: the seller's own identity is verified
          {
            ConditionCheck: {
              TableName: T,
              Key: keys.identity(propertyId),
              ConditionExpression: '#s = :verified',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: { ':verified': 'verified' },
            },
          },
          // indexes 2 and 3: the daily quotas
          ...quotas.map((q) => dailyQuotaUpdate(q, now.getTime())),
          ...invitations.flatMap((inv) => [
            {
              Update: {
                TableName: T,
                Key: keys.coOwner(propertyId, inv.coOwnerId),
                UpdateExpression: 'SET invitedAt = :at, updatedAt = :at',
                // still there and not invited meanwhile (two clicks at once: one loses)
                ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(invitedAt) OR invitedAt = :null)',
                ExpressionAttributeValues: { ':at': at, ':null': null },
              },
            },
            {
              Put: {
                TableName: T,
                Item: {
                  ...keys.coOwnerInvitation(inv.token),
                  entity: 'coOwnerInvitation',
                  propertyId,
                  coOwnerId: inv.coOwnerId,
                  email: inv.email,
                  createdAt: at,
                  ...tokenExpiryFields(now.getTime()),
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            outboxPut({ ...inv.outbox, now: at }),
          ]),
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw propertyNotFound();
    if (isConditionFailure(err, 1)) throw new ConflictError(INVITE.identityNotVerified);
    const spent = quotas.findIndex((_, i) => isConditionFailure(err, 2 + i));
    if (spent >= 0) throw new TooManyRequestsError(quotaRefusals[spent]!);
    if ((err as { name?: string }).name === 'TransactionCanceledException') throw new ConflictError();
    throw err;
  }
}

/**
 * 'Salta (Proprietà Singola)': property.singleOwner = true, the co-owners read (`stored`)
 * deleted and the seller's share removed, in ONE transaction guarded by the owner (else 404).
 */
export async function declareSingleOwner(guard: { propertyId: string; owner: string }, stored: readonly Item[], at: string): Promise<void> {
  // completes the step (a reopening is closed again); once the option exists only while reopened
  const g: PropertyGuard = { ...guard, step: 'coOwners' };
  const done = stepCompletion('coOwners', at);
  await sendGuarded(
    g,
    [
      {
        Update: {
          TableName: table(),
          Key: keys.property(guard.propertyId),
          UpdateExpression: `SET singleOwner = :t, singleOwnerAt = :at, updatedAt = :at, ${done.set} REMOVE sellerShare, ${done.remove}`,
          ExpressionAttributeNames: done.names,
          ExpressionAttributeValues: { ':t': true, ':at': at, ...done.values },
        },
      },
      ...stored.map((c) => ({ Delete: { TableName: table(), Key: { pk: c.pk, sk: c.sk } } })),
    ],
    propertyNotFound,
  );
}

/** A co-owner's identity check as stored on the COOWNER item. */
export interface CoOwnerIdentityWrite {
  propertyId: string;
  coOwnerId: string;
  /** the invited e-mail: the COOWNER item must still have it */
  email: string;
  /** the co-owner's name the document was compared with: the COOWNER item must still have it */
  checkedFullName: string;
  /** the property's other co-owners: none may hold the same document */
  otherCoOwnerIds: readonly string[];
  /** 'review': 60-70 % or not completed by the engine, in the admins' queue */
  status: 'verified' | 'rejected' | 'review';
  reason: string;
  confidence: number;
  documentType: DocumentType;
  documentNumber: string;
  fullName: string | null;
  faceKey: string;
  documentFrontKey: string;
  documentBackKey: string | null;
  /** SHA-256 of each linked evidence object (the bytes that were checked) */
  sha256: { facePhoto: string; documentFront: string; documentBack: string | null };
  engine: string;
  now: string;
}

/**
 * Stores the outcome on the COOWNER item (still the invited e-mail and the name the document
 * was compared with) with the property guard (exists, not being deleted) in one transaction,
 * with checks that neither the owner's IDENTITY item nor another co-owner holds the same
 * document number (the seller cannot pass a co-owner's check with their own document); the
 * owner's IDENTITY item is never written. A failed guard or another e-mail is 404 'Proprietà
 * non trovata o link scaduto'; another name 409 (check again); a document taken 409.
 */
export async function saveCoOwnerIdentity(w: CoOwnerIdentityWrite): Promise<void> {
  // a co-owner's check belongs to the co-owners step, open until the signature (the option may be
  // created before every co-owner verified), after it only while an admin has it reopened
  const guard: PropertyGuard = { propertyId: w.propertyId, step: 'coOwners', stepOpenUntil: 'signature' };
  const review = w.status === 'review' ? keys.identityReviewIndex(w.now, w.propertyId, w.coOwnerId) : null;
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction(guard, [
          {
            Update: {
              TableName: table(),
              Key: keys.coOwner(w.propertyId, w.coOwnerId),
              UpdateExpression:
                'SET identityStatus = :status, identityReason = :reason, identityCheckedAt = :now, verifiedAt = :verifiedAt, confidence = :confidence, ' +
                'documentType = :documentType, documentNumber = :documentNumber, identityFullName = :fullName, facePhotoKey = :face, ' +
                'documentFrontKey = :front, documentBackKey = :back, facePhotoSha256 = :faceSha, documentFrontSha256 = :frontSha, ' +
                'documentBackSha256 = :backSha, identityEngine = :engine, updatedAt = :now' +
                // in the admins' queue while in review (sparse index, oldest first); any other outcome leaves it, and a new check replaces a decided one
                (review ? ', gsi2pk = :qpk, gsi2sk = :qsk REMOVE identityReview' : ' REMOVE gsi2pk, gsi2sk, identityReview'),
              ConditionExpression: 'attribute_exists(pk) AND email = :email AND fullName = :checkedName',
              ExpressionAttributeValues: {
                ...(review ? { ':qpk': review.gsi2pk, ':qsk': review.gsi2sk } : {}),
                ':checkedName': w.checkedFullName,
                ':status': w.status,
                ':reason': w.reason,
                ':now': w.now,
                ':verifiedAt': w.status === 'verified' ? w.now : null,
                ':confidence': w.confidence,
                ':documentType': w.documentType,
                ':documentNumber': w.documentNumber,
                ':fullName': w.fullName,
                ':face': w.faceKey,
                ':front': w.documentFrontKey,
                ':back': w.documentBackKey,
                ':faceSha': w.sha256.facePhoto,
                ':frontSha': w.sha256.documentFront,
                ':backSha': w.sha256.documentBack,
                ':engine': w.engine,
                ':email': w.email,
              },
            },
          },
          // the same document is nobody else's among the property's owners
          ...[keys.identity(w.propertyId), ...w.otherCoOwnerIds.map((id) => keys.coOwner(w.propertyId, id))].map((Key) => ({
            ConditionCheck: {
              TableName: table(),
              Key,
              ConditionExpression: 'attribute_not_exists(documentNumber) OR documentNumber <> :documentNumber',
              ExpressionAttributeValues: { ':documentNumber': w.documentNumber },
            },
          })),
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw await guardFailure(guard, () => new NotFoundError(KYC_MESSAGES.tokenNotFound));
    if (isConditionFailure(err, 1)) {
      const now = await readCoOwner(w.propertyId, w.coOwnerId);
      if (now && now.email === w.email && now.fullName !== w.checkedFullName) throw new ConflictError(M.coOwnerRenamed);
      throw new NotFoundError(KYC_MESSAGES.tokenNotFound);
    }
    // index 2 the owner's identity, then the other co-owners
    if (Array.from({ length: 1 + w.otherCoOwnerIds.length }, (_, i) => 2 + i).some((i) => isConditionFailure(err, i))) throw new ConflictError(M.coOwnerDocumentTaken);
    throw err;
  }
}

/** An admin's decision on a co-owner's identity check in review (the owner's: model/identity.ts decideIdentityReview). */
export interface CoOwnerIdentityReviewWrite {
  propertyId: string;
  coOwnerId: string;
  decision: 'approve' | 'reject';
  reason: string;
  /** the reason the co-owner reads */
  coOwnerReason: string;
  actor: Actor;
  now: string;
  /** the check the admin reviewed (its identityCheckedAt): a newer check is not decided */
  checkedAt: string;
}

/**
 * The co-owner's check becomes verified (verifiedAt: 'Verificato') or rejected with the
 * decision {decision, reason, by, at}, leaves the queue, and the activity history records it,
 * in one transaction with the property guard at index 0. The COOWNER item's own condition is
 * that its check is still in review, and the one reviewed (its checkedAt): a second
 * decision, or one after a new check or after the seller replaced the co-owners, is 409 and
 * writes nothing; no such co-owner is 404.
 */
export async function decideCoOwnerIdentityReview(w: CoOwnerIdentityReviewWrite): Promise<KycIdentity> {
  const status = w.decision === 'approve' ? 'verified' : 'rejected';
  const guard: PropertyGuard = { propertyId: w.propertyId };
  const review = { decision: w.decision, reason: w.reason, by: w.actor.id, at: w.now };
  const key = keys.coOwner(w.propertyId, w.coOwnerId);
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction(guard, [
          {
            Update: {
              TableName: table(),
              Key: key,
              UpdateExpression: 'SET identityStatus = :status, identityReason = :reason, verifiedAt = :verifiedAt, identityReview = :review, updatedAt = :now REMOVE gsi2pk, gsi2sk',
              ConditionExpression: 'identityStatus = :inReview AND identityCheckedAt = :checkedAt',
              ExpressionAttributeValues: {
                ':checkedAt': w.checkedAt,
                ':status': status,
                ':reason': w.coOwnerReason,
                ':verifiedAt': status === 'verified' ? w.now : null,
                ':review': review,
                ':now': w.now,
                ':inReview': 'review',
              },
            },
          },
          requestActivity(w.propertyId, 'identity.reviewed', w.actor, w.now, { before: 'review', after: status, note: `Comproprietario: ${w.reason}` }),
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(IDENTITY_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1)) {
      const item = await readCoOwner(w.propertyId, w.coOwnerId);
      throw item ? new ConflictError(IDENTITY_MESSAGES.reviewNotPending) : new NotFoundError(IDENTITY_MESSAGES.reviewNotFound);
    }
    throw err;
  }
  return coOwnerIdentityOf((await readCoOwner(w.propertyId, w.coOwnerId))!)!;
}
