/**
 * Seller area: the caller's own properties (gsi1 SELLER#{userId}) and their own profile name
 * (the account's erasure is model/erasure.ts). Only the caller's own data: every function
 * takes the caller's id from the token, never from the request.
 */
import { optionStateOf } from '../domain/option-lifecycle';
import { toOptionDuration } from '../domain/fees';
import { str } from './item';
import { BatchGetCommand, type BatchGetCommandOutput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, queryAll, table } from './db';
import { ForbiddenError, NotFoundError } from '../lib/errors';
import { keys } from './keys';
import {
  identityStateOf,
  SELLER_MESSAGES,
  type SellerOptionSummary,
  type SellerProperty,
  type SellerPropertyList,
} from '../domain/seller';
import type { Profile } from '../domain/profile';
import { getProfile } from './profile';

const SELLER_TYPE = 'venditore';

type Item = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** BatchGet of many keys: chunks of 100, UnprocessedKeys retried. */
async function batchGet(keyList: { pk: string; sk: string }[]): Promise<Item[]> {
  const out: Item[] = [];
  const T = table();
  for (let i = 0; i < keyList.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = keyList.slice(i, i + 100);
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
      const res: BatchGetCommandOutput = await ddb().send(new BatchGetCommand({ RequestItems: { [T]: { Keys: pending, ConsistentRead: true } } }));
      out.push(...(res.Responses?.[T] ?? []));
      pending = res.UnprocessedKeys?.[T]?.Keys;
      if (attempt > 8 && pending?.length) throw new Error('BatchGet: keys left unprocessed');
    }
  }
  return out;
}

/** The PROPERTY items in the caller's seller index, newest first. */
async function ownPropertyItems(userId: string): Promise<Item[]> {
  const q = keys.propertiesOfSeller(userId);
  const items: Item[] = [];
  await queryAll(
    {
      TableName: table(),
      IndexName: q.index,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': q.pk },
      ScanIndexForward: false,
    },
    (item) => {
      // the index holds PROPERTY items only; a property being deleted has already left it
      if (item.sk === 'PROPERTY' && item.deletingAt === undefined) items.push(item);
    },
  );
  return items;
}

function optionSummary(o: Item | undefined): SellerOptionSummary | null {
  if (!o) return null;
  return {
    status: optionStateOf(o),
    propertyValue: num(o.propertyValue),
    optionAmount: num(o.optionAmount),
    optionDuration: toOptionDuration(o.optionDuration),
    expiresAt: str(o.expiresAt),
    signedAt: str(o.signedAt),
    createdAt: str(o.createdAt),
    hasKeys: o.hasKeys === true,
  };
}

/**
 * GET /seller/properties: the caller's properties, newest first (one Query of gsi1), each
 * with its identity state (the PROPERTY's `identityStatus` when present, else the IDENTITY
 * item) and its option summary, both read with one BatchGet.
 */
export async function listOwnProperties(userId: string): Promise<SellerPropertyList> {
  const properties = await ownPropertyItems(userId);
  const ids = properties.map((p) => String(p.id ?? String(p.pk).slice('PROPERTY#'.length)));
  const wanted: { pk: string; sk: string }[] = [];
  properties.forEach((p, i) => {
    if (p.identityStatus === undefined) wanted.push(keys.identity(ids[i]!));
    wanted.push(keys.option(ids[i]!));
  });
  const extra = new Map<string, Item>();
  for (const item of await batchGet(wanted)) extra.set(`${String(item.pk)}|${String(item.sk)}`, item);
  const get = (k: { pk: string; sk: string }) => extra.get(`${k.pk}|${k.sk}`);

  const items = properties.map((p, i): SellerProperty => {
    const id = ids[i]!;
    const identity = p.identityStatus === undefined ? get(keys.identity(id)) : undefined;
    const identityStatus =
      p.identityStatus !== undefined
        ? identityStateOf(p.identityStatus, false)
        : identityStateOf(identity?.status ?? identity?.verificationStatus, identity !== undefined);
    return {
      id,
      address: String(p.address ?? ''),
      city: String(p.city ?? ''),
      province: String(p.province ?? ''),
      propertyType: str(p.propertyType),
      surfaceArea: num(p.surfaceArea),
      desiredAmount: num(p.desiredAmount),
      createdAt: String(p.createdAt ?? ''),
      identityStatus,
      option: optionSummary(get(keys.option(id))),
    };
  });
  return { items };
}

export async function requireSellerProfile(userId: string): Promise<Profile> {
  const profile = await getProfile(userId);
  if (!profile) throw new NotFoundError(SELLER_MESSAGES.profileNotFound);
  if (profile.userType !== SELLER_TYPE) throw new ForbiddenError(SELLER_MESSAGES.sellersOnly);
  return profile;
}

/** PATCH /me/profile: the caller's full name, keeping the profile's gsi1 name key in step. */
export async function updateOwnProfile(userId: string, fullName: string): Promise<Profile> {
  const profile = await requireSellerProfile(userId);
  const index = keys.profileIndex(fullName || profile.email, userId);
  try {
    const res = await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.profile(userId),
        UpdateExpression: 'SET fullName = :n, gsi1pk = :g1pk, gsi1sk = :g1sk, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':n': fullName, ':g1pk': index.gsi1pk, ':g1sk': index.gsi1sk, ':now': new Date().toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { ...profile, fullName: String(res.Attributes?.fullName ?? fullName) };
  } catch (err) {
    if (isConditionFailure(err)) throw new NotFoundError(SELLER_MESSAGES.profileNotFound);
    throw err;
  }
}
