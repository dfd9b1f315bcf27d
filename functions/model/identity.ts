/**
 * The identity check's reads and writes: the owned property (the caller's, not being
 * deleted; anything else is 404 'Immobile non trovato', never revealing that it exists), the
 * IDENTITY item of the dossier (keys.identity) and the images under the property's
 * `identity/` prefix of the media bucket.
 */
import { str } from './item';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './db';
import { s3 } from '../lib/aws/s3';
import { requireConfig } from '../lib/config';
import { NotFoundError } from '../lib/errors';
import { keys } from './keys';
import { headMedia } from '../lib/media-storage';
import { guardedTransaction, guardFailure, isOwner, readProperty, stepCompletion, type PropertyGuard } from './property';
import { IDENTITY_MESSAGES, type DocumentType, type IdentityRecord, type IdentityStatus } from '../domain/identity';

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


/** The stored item as the seller's API answers it (keys only, no URLs). */
export function toIdentityRecord(i: Item): IdentityRecord {
  const num = typeof i.confidence === 'number' && Number.isFinite(i.confidence) ? i.confidence : 0;
  return {
    status: i.status === 'verified' ? 'verified' : 'rejected',
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
  };
}
