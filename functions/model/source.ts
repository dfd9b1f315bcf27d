/**
 * Lead sources: one item per source (keys.source), listed newest first from gsi2 SOURCES.
 * The requests a source brought are the properties whose sourceId is its id: the submission
 * indexes them sparsely in gsi3 SOURCE#{id}, so each count is one Query with Select COUNT.
 */
import { randomBytes } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from './batch-get';
import { ddb, isConditionFailure, queryAll, queryPages, table } from './db';
import { NotFoundError } from '../lib/errors';
import { keys } from './keys';
import { SOURCE_ID_PATTERN, SOURCE_MESSAGES, type Source, type SourceListItem } from '../domain/sources';


/** 12 URL-safe characters (72 random bits): matches SOURCE_ID_PATTERN, short enough for a link. */
export const newSourceId = () => randomBytes(9).toString('base64url');

function toSource(item: Record<string, unknown>): Source {
  return { id: item.id as string, name: item.name as string, userId: item.userId as string, createdAt: item.createdAt as string };
}

export async function createSource(input: { name: string; userId: string; now?: Date }): Promise<Source> {
  const id = newSourceId();
  const createdAt = (input.now ?? new Date()).toISOString();
  const source: Source = { id, name: input.name, userId: input.userId, createdAt };
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: { ...keys.source(id), ...keys.sourceIndex(createdAt, id), entity: 'source', ...source },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return source;
}

/** How many properties were submitted through the source's link. */
export async function countRequests(sourceId: string): Promise<number> {
  const q = keys.propertiesOfSource(sourceId);
  let count = 0;
  await queryPages(
    { TableName: table(), IndexName: q.index, KeyConditionExpression: 'gsi3pk = :pk', ExpressionAttributeValues: { ':pk': q.pk }, Select: 'COUNT' },
    (page) => {
      count += page.Count ?? 0;
    },
  );
  return count;
}

/** Every source, newest first, each with its request count (counted in parallel). */
export async function listSources(): Promise<SourceListItem[]> {
  const q = keys.allSources();
  const sources: Source[] = [];
  await queryAll(
    { TableName: table(), IndexName: q.index, KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': q.pk }, ScanIndexForward: false },
    (item) => {
      sources.push(toSource(item));
    },
  );
  const counts = await Promise.all(sources.map((s) => countRequests(s.id)));
  return sources.map((s, i) => ({ ...s, requests: counts[i] ?? 0 }));
}

/** Deletes the source; its properties keep their sourceId. 404 when there is none. */
export async function deleteSource(sourceId: string): Promise<void> {
  // an id no source can have (the link's shape) is a missing source, not a bad request
  if (!SOURCE_ID_PATTERN.test(sourceId)) throw new NotFoundError(SOURCE_MESSAGES.notFound);
  try {
    await ddb().send(
      new DeleteCommand({ TableName: table(), Key: keys.source(sourceId), ConditionExpression: 'attribute_exists(pk)' }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new NotFoundError(SOURCE_MESSAGES.notFound);
    throw err;
  }
}

/**
 * The names of the sources with these ids (one BatchGetItem, duplicates read once); an id
 * with no source (deleted, or never one) is missing from the map.
 */
export async function sourceNames(sourceIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(sourceIds)].filter((id) => SOURCE_ID_PATTERN.test(id));
  const out = new Map<string, string>();
  if (!ids.length) return out;
  const found = await batchGet(
    ids.map((id) => keys.source(id)),
    { projection: 'pk, sk, #id, #name', names: { '#id': 'id', '#name': 'name' } },
  );
  for (const item of found.values()) if (typeof item.id === 'string' && typeof item.name === 'string') out.set(item.id, item.name);
  return out;
}
