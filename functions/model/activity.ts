/**
 * The activity history (domain/activity.ts): `activityPut` is the Put of one entry for the
 * TransactWriteItems of the change it records (so a change and its trace commit together or
 * not at all); the reads are a request's entries (its pk, oldest first) and the admins' feed
 * (gsi2 ACTIVITY, newest first, a page at a time with an opaque cursor).
 */
import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, queryAll, table } from './db';
import { str, type Item } from './item';
import { keys } from './keys';
import { decodePageCursor, encodePageCursor } from './page-cursor';
import { ValidationError } from '../lib/errors';
import { ACTIVITY_PAGE_SIZE, type ActivityEntry, type ActivityInput, type ActivityKind, type ActivityPage, type Actor, type ActorRole } from '../domain/activity';

/** The Put of one entry, for a TransactWriteItems list. */
export function activityPut(input: ActivityInput) {
  const id = randomUUID();
  const scope = input.propertyId ? { propertyId: input.propertyId } : { userId: input.userId ?? 'system' };
  return {
    Put: {
      TableName: table(),
      Item: {
        ...keys.activity(scope, input.at, id),
        ...keys.activityIndex(input.at, id),
        entity: 'activity',
        id,
        at: input.at,
        kind: input.kind,
        actor: { id: input.actor.id, role: input.actor.role, name: input.actor.name ?? null },
        propertyId: input.propertyId,
        propertyLabel: input.propertyLabel,
        userId: input.userId,
        before: input.before,
        after: input.after,
        note: input.note,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Shorthand for the common case: an entry about a request, with no user, before/after or note unless given. */
export function requestActivity(
  propertyId: string,
  kind: ActivityKind,
  actor: Actor,
  at: string,
  more: Partial<Pick<ActivityInput, 'propertyLabel' | 'userId' | 'before' | 'after' | 'note'>> = {},
) {
  return activityPut({ propertyId, kind, actor, at, propertyLabel: null, userId: null, before: null, after: null, note: null, ...more });
}

const ROLES: readonly ActorRole[] = ['admin', 'seller', 'agent', 'system'];

export function toActivityEntry(item: Item): ActivityEntry {
  const actor = (item.actor ?? {}) as Record<string, unknown>;
  return {
    id: String(item.id),
    at: String(item.at),
    kind: String(item.kind) as ActivityKind,
    actor: { id: str(actor.id), role: ROLES.includes(actor.role as ActorRole) ? (actor.role as ActorRole) : 'system', name: str(actor.name) },
    propertyId: str(item.propertyId),
    propertyLabel: str(item.propertyLabel),
    userId: str(item.userId),
    before: str(item.before),
    after: str(item.after),
    note: str(item.note),
  };
}

export const isActivityItem = (item: Item) => String(item.sk).startsWith(keys.dossierPrefixes.activity);

/** A request's entries, oldest first. */
export async function activityOfProperty(propertyId: string): Promise<ActivityEntry[]> {
  const q = keys.activityOfProperty(propertyId);
  const out: ActivityEntry[] = [];
  await queryAll(
    { TableName: table(), KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': q.pk, ':p': q.skPrefix }, ConsistentRead: true },
    (item) => {
      out.push(toActivityEntry(item));
    },
  );
  return out;
}

type FeedKey = { pk: string; sk: string; gsi2pk: string; gsi2sk: string };
const CURSOR_MESSAGE = 'Pagina non valida: ricarica la lista';

function decodeFeedCursor(cursor: string): FeedKey {
  const bad = () => new ValidationError(CURSOR_MESSAGE, { cursor: CURSOR_MESSAGE });
  const k = decodePageCursor(cursor, CURSOR_MESSAGE);
  if (k.gsi2pk !== keys.activityFeed().pk || !['pk', 'sk', 'gsi2sk'].every((f) => typeof k[f] === 'string')) throw bad();
  if (!String(k.sk).startsWith(keys.dossierPrefixes.activity)) throw bad();
  return { pk: String(k.pk), sk: String(k.sk), gsi2pk: String(k.gsi2pk), gsi2sk: String(k.gsi2sk) };
}

/** The admins' feed, newest first, `limit` entries a page. */
export async function activityFeed(cursor?: string, limit = ACTIVITY_PAGE_SIZE): Promise<ActivityPage> {
  const q = keys.activityFeed();
  const res = await ddb().send(
    new QueryCommand({
      TableName: table(),
      IndexName: q.index,
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': q.pk },
      ScanIndexForward: false,
      Limit: limit,
      ...(cursor ? { ExclusiveStartKey: decodeFeedCursor(cursor) } : {}),
    }),
  );
  const items = (res.Items ?? []).map(toActivityEntry);
  const last = res.LastEvaluatedKey as FeedKey | undefined;
  return {
    items,
    ...(last ? { nextCursor: encodePageCursor({ pk: last.pk, sk: last.sk, gsi2pk: last.gsi2pk, gsi2sk: last.gsi2sk }) } : {}),
  };
}
