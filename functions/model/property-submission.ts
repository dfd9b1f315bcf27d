/**
 * The storage of the wizard's submission (functions/properties/property-submission.ts is the
 * use case): whether a property with the draft's id already exists, and the ONE
 * TransactWriteItems that stores the property whole (every field), its rooms, its media, the
 * invitation, the first valuation, the lead e-mail outbox item and the requests counter.
 */
import { randomUUID } from 'node:crypto';
import { isConditionFailure, table, transactWrite } from './db';
import { keys, normalizeForSort } from './keys';
import { outboxPut } from './outbox';
import { readProperty } from './property';
import { newToken, tokenExpiryFields } from './tokens';
import { valuationItem } from './valuation';
import type { MailMessage } from '../lib/mail';
import { mediaKindOf } from '../domain/property/media';
import { propertyAttributes, type PropertySubmission } from '../domain/property/schema';
import type { ValuationResult } from '../domain/valuation';

/**
 * The creation time of the property stored with this id, in any state (also while it is
 * being deleted: its id is taken), or undefined when there is none.
 */
export async function submittedProperty(propertyId: string): Promise<{ createdAt: string } | undefined> {
  const item = await readProperty(propertyId, { includeDeleting: true });
  return item ? { createdAt: item.createdAt as string } : undefined;
}

/** One checked upload of the submission, in the room at `roomIndex` of `rooms`. */
export interface SubmittedMedia {
  roomIndex: number;
  key: string;
  contentType: string;
  size: number;
  /** the name the person gave the file (the key's own name carries a random part) */
  fileName: string;
}

/**
 * Stores the submission in ONE TransactWriteItems (run again on a TransactionConflict, e.g. on
 * the requests counter), all or nothing; every new item with attribute_not_exists. The
 * property's Put is at index 0: `isSubmissionTaken(err)` tells that another submission with
 * the same id got there first. Any failure is thrown.
 */
export async function storeSubmission(input: {
  submission: PropertySubmission;
  /** a signed-in seller submitting from their dashboard: the property is theirs at once */
  ownerId?: string;
  now: Date;
  rooms: readonly { id: string; name: string; type: string }[];
  media: readonly SubmittedMedia[];
  valuation: ValuationResult | undefined;
  lead: { outboxId: string; mail: MailMessage };
  /** the name of the source `submission.sourceId` names, copied so it outlives the source */
  sourceName?: string;
}): Promise<void> {
  const { submission: s, ownerId, now, rooms, media, valuation, lead, sourceName } = input;
  const propertyId = s.propertyDraftId;
  const createdAt = now.toISOString();
  const token = newToken();
  const T = table();
  const property = {
    ...keys.property(propertyId),
    ...keys.propertyIndexes({ userId: ownerId, sourceId: s.sourceId, createdAt }),
    ...(ownerId ? { userId: ownerId } : {}),
    entity: 'property',
    id: propertyId,
    status: 'submitted',
    ...propertyAttributes(s),
    ...(s.sourceId && sourceName ? { sourceName } : {}),
    searchText: searchTextOf(s),
    privacyConsentAt: createdAt,
    invitationToken: token,
    roomsCount: rooms.length,
    mediaCount: media.length,
    // the automatic valuation counts as step 1 of the review, as an admin's would
    ...(valuation?.available ? { valuedAt: createdAt } : {}),
    createdAt,
    updatedAt: createdAt,
  };

  const transact: Record<string, unknown>[] = [
    { Put: { TableName: T, Item: property, ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: T,
        Item: { ...keys.invitation(token), entity: 'invitation', propertyId, createdAt, ...tokenExpiryFields(now.getTime()) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    outboxPut({ id: lead.outboxId, kind: 'lead-notification', ref: propertyId, now: createdAt, mail: lead.mail }),
    ...rooms.map((room, position) => ({
      Put: {
        TableName: T,
        Item: { ...keys.room(propertyId, room.id), entity: 'room', id: room.id, propertyId, name: room.name, type: room.type, position, createdAt },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    })),
    ...media.map((m, position) => {
      const room = rooms[m.roomIndex]!;
      const id = randomUUID();
      return {
        Put: {
          TableName: T,
          Item: {
            ...keys.media(propertyId, room.id, id),
            entity: 'media',
            id,
            propertyId,
            roomId: room.id,
            key: m.key,
            fileName: m.fileName,
            contentType: m.contentType,
            kind: mediaKindOf(m.contentType),
            size: m.size,
            position,
            createdAt,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      };
    }),
    ...(valuation ? [{ Put: { TableName: T, Item: valuationItem(propertyId, createdAt, valuation) } }] : []),
    // the Dashboard Admin's total
    { Update: { TableName: T, Key: keys.requestCount(), UpdateExpression: 'ADD #n :one', ExpressionAttributeNames: { '#n': 'count' }, ExpressionAttributeValues: { ':one': 1 } } },
  ];
  // run again if it only collided with another submission on the requests counter
  await transactWrite({ TransactItems: transact as never });
}

/**
 * What the Dashboard Admin's search matches (model/request-list.ts): name, e-mail, comune,
 * address and phone, lower case and without accents. Requests stored before the address and
 * the phone were added are still found by those: the search also reads the raw attributes.
 */
export function searchTextOf(s: Pick<PropertySubmission, 'firstName' | 'lastName' | 'email' | 'city' | 'address' | 'phone'>): string {
  return normalizeForSort([s.firstName, s.lastName, s.email, s.city ?? '', s.address ?? '', s.phone ?? ''].join(' ')).replace(/\s+/g, ' ');
}

/** True when storeSubmission failed because a property with the same id was stored first. */
export function isSubmissionTaken(err: unknown): boolean {
  return isConditionFailure(err, 0);
}
