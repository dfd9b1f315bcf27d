/**
 * Writes of the Dashboard Admin on a whole request: delete it (with every dossier item and
 * S3 object) and assign it to a user.
 */
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, transactWrite, table } from './db';
import { s3 } from '../lib/aws/s3';
import { BatchWriter } from './batch-writer';
import { requireConfig } from '../lib/config';
import { NotFoundError, ValidationError } from '../lib/errors';
import { keys } from './keys';
import { logger } from '../lib/logger';
import { listMediaKeys, mapLimit } from '../lib/media-storage';
import { isDeleteConfirmed, REQUEST_MESSAGES } from '../domain/requests';
import { PROPERTY_EDITABLE, readProperty } from './property';
import { isPropertyId, loadDossierItems, type DossierItem } from './dossier';


/**
 * Every S3 key of the property's files the items reference: an attribute named `key` or
 * ending in `Key` (documentKey, documentFrontKey, signatureData.signedDocumentKey, ...), at
 * any depth, whose value is under `{propertyId}/` (every file of a dossier lives there: a
 * key outside it is never deleted, so a request can never take another one's files along).
 */
export function objectKeysOf(propertyId: string, items: readonly DossierItem[]): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, depth: number) => {
    if (depth > 5 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const v of value) walk(v, depth + 1);
      return;
    }
    for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
      if (typeof v === 'string' && (name === 'key' || /Key$/.test(name)) && v.startsWith(`${propertyId}/`)) found.add(v);
      else walk(v, depth + 1);
    }
  };
  for (const item of items) walk(item, 0);
  return [...found];
}

/**
 * DELETE /admin/properties/{propertyId}, in an order that a retry can always finish:
 * 1. mark the property `deletingAt` (condition: it exists) and drop its index attributes,
 *    so it leaves the lists at once and every edit (PROPERTY_EDITABLE) is refused;
 * 2. delete every S3 object under `{propertyId}/`, referenced by the dossier or not (deleting a
 *    missing object succeeds);
 * 3. delete every dossier item, the invitation token and the availability link (BatchWrite, UnprocessedItems retried);
 * 4. delete the PROPERTY item last: while it exists, a retry finds the job and finishes it.
 * 404 when there is no PROPERTY item (never existed, or already deleted).
 */
export async function deleteRequest(propertyId: string, confirm: string, now: Date = new Date()): Promise<void> {
  if (!isDeleteConfirmed(confirm)) throw new ValidationError(REQUEST_MESSAGES.confirmDelete, { confirm: REQUEST_MESSAGES.confirmDelete });
  await purgeRequest(propertyId, now);
}

/**
 * The deletion itself, without the typed confirmation (steps 1-4 above): also used by a
 * seller deleting their own account (functions/seller). 404 when there is no PROPERTY item.
 */
export async function purgeRequest(propertyId: string, now: Date = new Date()): Promise<void> {
  if (!isPropertyId(propertyId)) throw new NotFoundError(REQUEST_MESSAGES.notFound);
  const T = table();

  // mark it (out of every index) and take it off the total in one transaction; a retry of a
  // deletion that died halfway finds it marked and goes on without counting it twice
  try {
    // run again if it only collided with a submission on the requests counter
    await transactWrite({
      TransactItems: [
        {
          Update: {
            TableName: T,
            Key: keys.property(propertyId),
            UpdateExpression: 'SET deletingAt = :now REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletingAt)',
            ExpressionAttributeValues: { ':now': now.toISOString() },
          },
        },
        {
          Update: {
            TableName: T,
            Key: keys.requestCount(),
            UpdateExpression: 'ADD #n :minus',
            ExpressionAttributeNames: { '#n': 'count' },
            ExpressionAttributeValues: { ':minus': -1 },
          },
        },
      ],
    });
  } catch (err) {
    if (!isConditionFailure(err, 0)) throw err;
    const marked = await readProperty(propertyId, { includeDeleting: true, fields: ['deletingAt'] });
    if (!marked) throw new NotFoundError(REQUEST_MESSAGES.notFound);
  }

  const dossier = await loadDossierItems(propertyId);
  const property = dossier.property;
  const others = dossier.all.filter((i) => i !== property);

  // what the items reference, and whatever else lies under the request's prefix (an upload
  // never confirmed, a signed copy replaced): deleting a request leaves none of its files
  const objects = [...new Set([...objectKeysOf(propertyId, dossier.all), ...(await listMediaKeys(`${propertyId}/`))])];
  const bucket = requireConfig('MEDIA_BUCKET');
  await mapLimit(objects, 8, (key) => s3().send(new DeleteObjectCommand({ Bucket: bucket, Key: key })));

  const writer = new BatchWriter(ddb(), T, { concurrency: 4 });
  for (const item of others) await writer.delete({ pk: item.pk, sk: item.sk });
  const tokens = new Set([property?.invitationToken, ...others.map((i) => i.invitationToken)].filter((t): t is string => typeof t === 'string' && t !== ''));
  for (const token of tokens) await writer.delete(keys.invitation(token));
  // the option's availability link (/availability/{token}) goes with it
  const availabilityToken = dossier.option?.availabilityToken;
  if (typeof availabilityToken === 'string' && availabilityToken) await writer.delete(keys.availabilityToken(availabilityToken));
  await writer.flush();

  await ddb().send(new DeleteCommand({ TableName: T, Key: keys.property(propertyId) }));
  logger.info('Request deleted', { propertyId, items: dossier.all.length + tokens.size, objects: objects.length });
}

/**
 * PUT /admin/properties/{propertyId}/assignee: the user must exist (their profile); sets
 * assignedUserId and userId and puts the property in the user's seller index, in one
 * UpdateItem refused when the property is missing or being deleted (404).
 */
export async function assignRequest(propertyId: string, userId: string, now: Date = new Date()): Promise<{ propertyId: string; assignedUserId: string; userId: string }> {
  if (!isPropertyId(propertyId)) throw new NotFoundError(REQUEST_MESSAGES.notFound);
  const T = table();
  const profile = await ddb().send(new GetCommand({ TableName: T, Key: keys.profile(userId), ProjectionExpression: 'pk' }));
  if (!profile.Item) throw new NotFoundError(REQUEST_MESSAGES.userNotFound);
  const property = await readProperty(propertyId, { includeDeleting: true, fields: ['createdAt'] });
  const createdAt = property?.createdAt as string | undefined;
  if (!createdAt) throw new NotFoundError(REQUEST_MESSAGES.notFound);
  const index = keys.sellerIndex(userId, createdAt);
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: T,
        Key: keys.property(propertyId),
        UpdateExpression: 'SET assignedUserId = :u, userId = :u, gsi1pk = :g1pk, gsi1sk = :g1sk, updatedAt = :now',
        ConditionExpression: PROPERTY_EDITABLE,
        ExpressionAttributeValues: { ':u': userId, ':g1pk': index.gsi1pk, ':g1sk': index.gsi1sk, ':now': now.toISOString() },
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new NotFoundError(REQUEST_MESSAGES.notFound);
    throw err;
  }
  return { propertyId, assignedUserId: userId, userId };
}
