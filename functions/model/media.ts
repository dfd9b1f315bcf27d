/**
 * Room media managed by the admin (Dashboard Admin, expanded row): a presigned POST for a
 * new photo or video of a room, registering it once uploaded (MEDIA item, same shape as the
 * submission's, and mediaCount + 1 in one transaction), deleting one (item, count, object).
 * Every write is refused when the property is missing or being deleted (PROPERTY_EDITABLE).
 */
import { createHash, randomUUID } from 'node:crypto';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './db';
import { s3 } from '../lib/aws/s3';
import { requireConfig } from '../lib/config';
import { NotFoundError, ValidationError } from '../lib/errors';
import { keys } from './keys';
import { logger } from '../lib/logger';
import { deleteMediaObjects, evidenceKeyOf, sealEvidence } from '../lib/media-storage';
import { requireUploadBytes } from '../lib/upload-check';
import { presignDownload } from '../lib/presigned-download';
import { EVIDENCE_FORM_TTL_SECONDS, presignUpload, uploadNonce } from '../lib/presigned-upload';
import { EMPTY_FILE_MESSAGE, mediaKey, mediaKindOf, ONLY_MEDIA_MESSAGE, parseMediaKey, TOO_LARGE_MESSAGE } from '../domain/property/media';
import { MEDIA_MAX_BYTES, type PresignedUpload } from '../domain/uploads';
import { REQUEST_MESSAGES, type DossierMedia } from '../domain/requests';
import { isPropertyId } from './dossier';
import { PROPERTY_EDITABLE, readProperty } from './property';


/** The property (editable) and the room, or 404. */
async function requireRoom(propertyId: string, roomId: string): Promise<{ property: Record<string, unknown>; room: Record<string, unknown> }> {
  if (!isPropertyId(propertyId)) throw new NotFoundError(REQUEST_MESSAGES.notFound);
  const T = table();
  const [property, room] = await Promise.all([
    readProperty(propertyId),
    ddb().send(new GetCommand({ TableName: T, Key: keys.room(propertyId, roomId), ConsistentRead: true })),
  ]);
  if (!property) throw new NotFoundError(REQUEST_MESSAGES.notFound);
  if (!room.Item) throw new NotFoundError(REQUEST_MESSAGES.roomNotFound);
  return { property, room: room.Item };
}

/** The random part an admin form puts before the file name (`{ts}_{nonce}-{name}`): a fresh key per form. */
const NONCE_PREFIX = /^[0-9a-f]{24}-/;

/**
 * POST /admin/properties/{propertyId}/uploads: a presigned POST under `{propertyId}/{roomId}/`,
 * a fresh random key per form, valid EVIDENCE_FORM_TTL_SECONDS.
 */
export async function createMediaUpload(
  propertyId: string,
  input: { roomId: string; fileName: string; contentType: string; size: number },
): Promise<PresignedUpload> {
  await requireRoom(propertyId, input.roomId);
  return presignUpload({
    bucket: requireConfig('MEDIA_BUCKET'),
    key: mediaKey(propertyId, input.roomId, `${uploadNonce()}-${input.fileName}`),
    maxBytes: MEDIA_MAX_BYTES,
    expiresSeconds: EVIDENCE_FORM_TTL_SECONDS,
    contentType: { value: input.contentType, family: mediaKindOf(input.contentType)! },
  });
}

/** The media id of a key: the same key added twice is the same item (a retry adds nothing). */
export function mediaIdOf(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

async function toMedia(item: Record<string, unknown>): Promise<DossierMedia> {
  const key = String(item.key);
  return {
    id: String(item.id),
    roomId: String(item.roomId),
    key,
    fileName: String(item.fileName),
    contentType: String(item.contentType),
    kind: item.kind === 'video' ? 'video' : 'image',
    size: Number(item.size ?? 0),
    createdAt: String(item.createdAt),
    url: (await presignDownload(key)).url,
  };
}

/**
 * POST /admin/properties/{propertyId}/media {roomId, key}: the key must be one made for
 * this property and room, and the object must exist and be an image or video of at most
 * 20 MB whose first bytes are really one (lib/upload-check.ts; else deleted, 400). The upload
 * is sealed first (a server-side copy under `{propertyId}/evidence/media/`, lib/media-storage.ts):
 * the checks run on the copy, the MEDIA item links the copy and its SHA-256, then the upload
 * is deleted (posting the form again changes nothing the item links). One transaction: the
 * MEDIA item and mediaCount + 1 on the property. The same upload key added again answers the
 * stored item.
 */
export async function addMedia(
  propertyId: string,
  input: { roomId: string; key: string; userId: string },
  now: Date = new Date(),
): Promise<{ media: DossierMedia; created: boolean }> {
  const parsed = parseMediaKey(input.key);
  if (!parsed || parsed.propertyId !== propertyId || parsed.roomId !== input.roomId) {
    throw new ValidationError(REQUEST_MESSAGES.mediaKey, { key: REQUEST_MESSAGES.mediaKey });
  }
  const { property } = await requireRoom(propertyId, input.roomId);
  const T = table();
  const id = mediaIdOf(input.key);
  // already added (a retry): the stored item
  const stored = await ddb().send(new GetCommand({ TableName: T, Key: keys.media(propertyId, input.roomId, id), ConsistentRead: true }));
  if (stored.Item) return { media: await toMedia(stored.Item), created: false };

  const fileName = parsed.fileName.replace(NONCE_PREFIX, '');
  const ext = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1) : 'bin';
  const sealed = await sealEvidence(input.key, evidenceKeyOf(propertyId, `media/${input.roomId}/${randomUUID()}.${ext}`), MEDIA_MAX_BYTES);
  if (!sealed) {
    // missing, or over 20 MB (no form allows it)
    throw new ValidationError(REQUEST_MESSAGES.mediaMissing, { key: REQUEST_MESSAGES.mediaMissing });
  }
  const refuse = async (message: string): Promise<never> => {
    await deleteMediaObjects([sealed.key, input.key], 'admin media refused');
    throw new ValidationError(message, { key: message });
  };
  const kind = mediaKindOf(sealed.contentType);
  if (!kind) await refuse(ONLY_MEDIA_MESSAGE);
  if (sealed.size < 1) await refuse(EMPTY_FILE_MESSAGE);
  if (sealed.size > MEDIA_MAX_BYTES) await refuse(TOO_LARGE_MESSAGE);
  // its bytes must be a photo or a video: a mismatch is deleted, nothing is added
  try {
    await requireUploadBytes([{ key: sealed.key, contentType: sealed.contentType, name: fileName, field: 'key' }]);
  } catch (err) {
    await deleteMediaObjects([sealed.key, input.key], 'admin media refused');
    throw err;
  }

  const createdAt = now.toISOString();
  const item = {
    ...keys.media(propertyId, input.roomId, id),
    entity: 'media',
    id,
    propertyId,
    roomId: input.roomId,
    key: sealed.key,
    sha256: sealed.sha256,
    uploadedAs: input.key,
    fileName,
    contentType: sealed.contentType,
    kind: kind!,
    size: sealed.size,
    position: Number(property.mediaCount ?? 0),
    createdAt,
    createdBy: input.userId,
  };
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: T, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Update: {
              TableName: T,
              Key: keys.property(propertyId),
              UpdateExpression: 'SET mediaCount = if_not_exists(mediaCount, :zero) + :one, updatedAt = :now',
              ConditionExpression: PROPERTY_EDITABLE,
              ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':now': createdAt },
            },
          },
          { ConditionCheck: { TableName: T, Key: keys.room(propertyId, input.roomId), ConditionExpression: 'attribute_exists(pk)' } },
        ],
      }),
    );
  } catch (err) {
    // nothing links this copy
    await deleteMediaObjects([sealed.key], 'admin media not added');
    if (isConditionFailure(err, 0)) {
      // added meanwhile (a retry at the same time): answer the stored item
      const existing = await ddb().send(new GetCommand({ TableName: T, Key: keys.media(propertyId, input.roomId, id), ConsistentRead: true }));
      if (existing.Item) return { media: await toMedia(existing.Item), created: false };
    }
    if (isConditionFailure(err, 1)) throw new NotFoundError(REQUEST_MESSAGES.notFound);
    if (isConditionFailure(err, 2)) throw new NotFoundError(REQUEST_MESSAGES.roomNotFound);
    throw err;
  }
  await deleteMediaObjects([input.key], 'admin media sealed');
  logger.info('Media added by admin', { propertyId, roomId: input.roomId, mediaId: id });
  return { media: await toMedia(item), created: true };
}

/**
 * DELETE /admin/properties/{propertyId}/rooms/{roomId}/media/{mediaId}: the S3 object first
 * (deleting a missing object succeeds), then the item (condition: it exists) and
 * mediaCount - 1 in one transaction, so a retry after any failure converges. 404 when the
 * photo (or the property) is not there.
 */
export async function deleteMedia(propertyId: string, roomId: string, mediaId: string, now: Date = new Date()): Promise<void> {
  if (!isPropertyId(propertyId)) throw new NotFoundError(REQUEST_MESSAGES.notFound);
  if (!/^[A-Za-z0-9-]{1,64}$/.test(roomId) || !/^[A-Za-z0-9-]{1,64}$/.test(mediaId)) throw new NotFoundError(REQUEST_MESSAGES.mediaNotFound);
  const T = table();
  const [property, media] = await Promise.all([
    readProperty(propertyId, { fields: ['pk'] }),
    ddb().send(new GetCommand({ TableName: T, Key: keys.media(propertyId, roomId, mediaId), ConsistentRead: true })),
  ]);
  if (!property) throw new NotFoundError(REQUEST_MESSAGES.notFound);
  if (!media.Item) throw new NotFoundError(REQUEST_MESSAGES.mediaNotFound);

  await s3().send(new DeleteObjectCommand({ Bucket: requireConfig('MEDIA_BUCKET'), Key: String(media.Item.key) }));
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: T, Key: keys.media(propertyId, roomId, mediaId), ConditionExpression: 'attribute_exists(pk)' } },
          {
            Update: {
              TableName: T,
              Key: keys.property(propertyId),
              UpdateExpression: 'SET mediaCount = if_not_exists(mediaCount, :one) - :one, updatedAt = :now',
              ConditionExpression: PROPERTY_EDITABLE,
              ExpressionAttributeValues: { ':one': 1, ':now': now.toISOString() },
            },
          },
        ],
      }),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(REQUEST_MESSAGES.mediaNotFound);
    if (isConditionFailure(err, 1)) throw new NotFoundError(REQUEST_MESSAGES.notFound);
    throw err;
  }
  logger.info('Media deleted by admin', { propertyId, roomId, mediaId });
}
