/**
 * The identity check's reads and writes: the owned property (the caller's, not being
 * deleted; anything else is 404 'Immobile non trovato', never revealing that it exists), the
 * IDENTITY item of the dossier (keys.identity) and the images under the property's
 * `identity/` prefix of the media bucket.
 */
import { coOwnerIdOf } from './co-owner';
import { requestActivity } from './activity';
import type { Actor } from '../domain/activity';
import { str } from './item';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './db';
import { s3 } from '../lib/aws/s3';
import { requireConfig } from '../lib/config';
import { ConflictError, NotFoundError } from '../lib/errors';
import { presignDownload } from '../lib/presigned-download';
import { keys } from './keys';
import { headMedia } from '../lib/media-storage';
import { guardedTransaction, guardFailure, isOwner, readProperty, stepCompletion, type PropertyGuard } from './property';
import { IDENTITY_MESSAGES, type DocumentType, type IdentityRecord, type IdentityReview, type IdentityReviewItem, type IdentityStatus } from '../domain/identity';

type Item = Record<string, unknown>;

export const propertyNotFound = () => new NotFoundError(IDENTITY_MESSAGES.propertyNotFound);

/** The PROPERTY item when the caller owns it and it is not being deleted, else 404. */
export async function requireOwnedProperty(propertyId: string, userId: string): Promise<Item> {
  const p = await readProperty(propertyId);
  if (!isOwner(p, userId)) throw propertyNotFound();
  return p!;
}

export async function getIdentityItem(propertyId: string): Promise<Item | undefined> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: keys.identity(propertyId), ConsistentRead: true }));
  return res.Item;
}

export { headMedia };

/** The bytes of an object of the media bucket (at most `maxBytes`), or undefined when missing. */
export async function readMedia(key: string, maxBytes: number): Promise<Buffer | undefined> {
  try {
    const res = await s3().send(new GetObjectCommand({ Bucket: requireConfig('MEDIA_BUCKET'), Key: key }));
    if (Number(res.ContentLength ?? 0) > maxBytes) throw new Error(`object ${key} over ${maxBytes} bytes`);
    const bytes = await res.Body!.transformToByteArray();
    return Buffer.from(bytes);
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404) return undefined;
    throw err;
  }
}

export interface IdentityWrite {
  propertyId: string;
  userId: string;
  status: IdentityStatus;
  documentType: DocumentType;
  documentNumber: string;
  fullName: string | null;
  confidence: number;
  reason: string;
  facePhotoKey: string;
  documentFrontKey: string;
  documentBackKey: string | null;
  /** SHA-256 of each linked evidence object (the bytes that were checked) */
  sha256: { facePhoto: string; documentFront: string; documentBack: string | null };
  engine: string;
  now: string;
}

/**
 * Writes the IDENTITY item and the PROPERTY's `identityStatus` in one transaction with the
 * property guard (model/property.ts), the caller as owner: a property deleted or handed to
 * another account in the meantime answers 404 and nothing is written. The item keeps the
 * field names the admin dossier reads (functions/requests/dossier-store.ts, mapIdentity).
 */
export async function saveIdentity(w: IdentityWrite): Promise<void> {
  const item = {
    ...keys.identity(w.propertyId),
    entity: 'identity',
    propertyId: w.propertyId,
    userId: w.userId,
    status: w.status,
    documentType: w.documentType,
    documentNumber: w.documentNumber,
    fullName: w.fullName,
    confidence: w.confidence,
    reason: w.reason,
    verifiedAt: w.status === 'verified' ? w.now : null,
    checkedAt: w.now,
    facePhotoKey: w.facePhotoKey,
    documentFrontKey: w.documentFrontKey,
    documentBackKey: w.documentBackKey,
    facePhotoSha256: w.sha256.facePhoto,
    documentFrontSha256: w.sha256.documentFront,
    documentBackSha256: w.sha256.documentBack,
    engine: w.engine,
    // in the admins' queue while in review (sparse index, oldest first); any other outcome leaves it
    ...(w.status === 'review' ? keys.identityReviewIndex(w.now, w.propertyId) : {}),
  };
  // a verified check completes the step: a reopening by an admin is closed again
  const done = w.status === 'verified' ? stepCompletion('identity', w.now) : undefined;
  const guard: PropertyGuard = { propertyId: w.propertyId, owner: w.userId, step: 'identity' };
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction(guard, [
          {
            Update: {
              TableName: table(),
              Key: keys.property(w.propertyId),
              UpdateExpression: `SET identityStatus = :status, identityCheckedAt = :now${done ? `, ${done.set} REMOVE ${done.remove}` : ''}`,
              ...(done ? { ExpressionAttributeNames: done.names } : {}),
              ExpressionAttributeValues: { ':status': w.status, ':now': w.now, ...done?.values },
            },
          },
          { Put: { TableName: table(), Item: item } },
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw await guardFailure(guard, propertyNotFound);
    throw err;
  }
}


const STATUSES: readonly IdentityStatus[] = ['verified', 'rejected', 'review'];

function reviewOf(i: Item): IdentityReview | null {
  const r = i.review as Record<string, unknown> | undefined;
  if (!r || (r.decision !== 'approve' && r.decision !== 'reject')) return null;
  return { decision: r.decision, reason: String(r.reason ?? ''), by: String(r.by ?? ''), at: String(r.at ?? '') };
}

/** The stored item as the seller's API answers it (keys only, no URLs). */
export function toIdentityRecord(i: Item): IdentityRecord {
  const num = typeof i.confidence === 'number' && Number.isFinite(i.confidence) ? i.confidence : 0;
  return {
    status: STATUSES.includes(i.status as IdentityStatus) ? (i.status as IdentityStatus) : 'rejected',
    documentType: (str(i.documentType) ?? 'carta_identita') as DocumentType,
    documentNumber: str(i.documentNumber) ?? '',
    fullName: str(i.fullName),
    confidence: num,
    reason: str(i.reason) ?? '',
    verifiedAt: str(i.verifiedAt),
    checkedAt: str(i.checkedAt) ?? '',
    facePhotoKey: str(i.facePhotoKey) ?? '',
    documentFrontKey: str(i.documentFrontKey) ?? '',
    documentBackKey: str(i.documentBackKey),
    review: reviewOf(i),
  };
}

const download = async (key: string | null) => (key ? (await presignDownload(key)).url : null);

/** The checks waiting for an admin, oldest first, with both images as presigned GETs. */
export async function listIdentityReviews(limit = 100): Promise<IdentityReviewItem[]> {
  const q = keys.identityReviews();
  const res = await ddb().send(
    new QueryCommand({
      TableName: table(),
      IndexName: q.index,
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': q.pk },
      Limit: limit,
    }),
  );
  return Promise.all(
    (res.Items ?? []).map(async (i) => {
      const coOwner = i.entity === 'coOwner' ? { id: coOwnerIdOf(i), fullName: String(i.fullName ?? '') } : null;
      // a co-owner's check is stored on their COOWNER item under its own names
      const r = toIdentityRecord(
        coOwner ? { ...i, fullName: i.identityFullName ?? null, reason: i.identityReason, checkedAt: i.identityCheckedAt, status: i.identityStatus } : i,
      );
      const [facePhoto, documentFront, documentBack] = await Promise.all([download(r.facePhotoKey || null), download(r.documentFrontKey || null), download(r.documentBackKey)]);
      return {
        propertyId: String(i.propertyId ?? ''),
        coOwner,
        documentType: r.documentType,
        documentNumber: r.documentNumber,
        fullName: r.fullName,
        confidence: r.confidence,
        reason: r.reason,
        checkedAt: r.checkedAt,
        images: { facePhoto, documentFront, documentBack },
      };
    }),
  );
}

export interface IdentityReviewWrite {
  propertyId: string;
  decision: 'approve' | 'reject';
  reason: string;
  by: string;
  now: string;
  /** the reason the seller reads ('Identità verificata da un operatore' / '... rifiutata ...: {reason}') */
  sellerReason: string;
  /** the admin as the activity history names them (default: `by` without a name) */
  actor?: Actor;
  /** the check the admin reviewed (its checkedAt): a newer check is not decided */
  checkedAt: string;
}

/**
 * An admin's decision on a check in review: the IDENTITY item becomes verified or rejected
 * with the decision {decision, reason, by, at}, leaves the queue, and the PROPERTY's
 * identityStatus follows (an approval completes the step), in one transaction with the
 * property guard at index 0. The IDENTITY item's own condition is that it is still in review,
 * and the very check the admin reviewed (`checkedAt`): a second decision, or one after the
 * seller made a new check, is 409 and writes nothing.
 */
export async function decideIdentityReview(w: IdentityReviewWrite): Promise<IdentityRecord> {
  const status: IdentityStatus = w.decision === 'approve' ? 'verified' : 'rejected';
  const done = status === 'verified' ? stepCompletion('identity', w.now) : undefined;
  const guard: PropertyGuard = { propertyId: w.propertyId };
  const review: IdentityReview = { decision: w.decision, reason: w.reason, by: w.by, at: w.now };
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction(guard, [
          {
            Update: {
              TableName: table(),
              Key: keys.property(w.propertyId),
              UpdateExpression: `SET identityStatus = :status${done ? `, ${done.set} REMOVE ${done.remove}` : ''}`,
              ...(done ? { ExpressionAttributeNames: done.names } : {}),
              ExpressionAttributeValues: { ':status': status, ...done?.values },
            },
          },
          {
            Update: {
              TableName: table(),
              Key: keys.identity(w.propertyId),
              UpdateExpression: 'SET #status = :status, reason = :reason, verifiedAt = :verifiedAt, review = :decision REMOVE gsi2pk, gsi2sk',
              ConditionExpression: '#status = :review AND checkedAt = :checkedAt',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: {
                ':checkedAt': w.checkedAt,
                ':status': status,
                ':review': 'review',
                ':reason': w.sellerReason,
                ':verifiedAt': status === 'verified' ? w.now : null,
                ':decision': review,
              },
            },
          },
          requestActivity(w.propertyId, 'identity.reviewed', w.actor ?? { id: w.by, role: 'admin', name: null }, w.now, { before: 'review', after: status, note: w.reason || null }),
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(IDENTITY_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1)) {
      const item = await getIdentityItem(w.propertyId);
      throw item ? new ConflictError(IDENTITY_MESSAGES.reviewNotPending) : new NotFoundError(IDENTITY_MESSAGES.reviewNotFound);
    }
    throw err;
  }
  return toIdentityRecord((await getIdentityItem(w.propertyId))!);
}
