/**
 * The PROPERTY item: its one read, the ownership rule and THE guard of every write on a
 * property. A write that changes anything of a property's dossier (the property itself or
 * an item under its pk) states its guard with `propertyGuard` and composes it into its
 * TransactWriteItems with `guardedTransaction`: the property exists, is not being deleted
 * (the deletion marks `deletingAt` first, so from then on every edit loses its condition),
 * belongs to `owner` when one is given, and is in one of the allowed lifecycle states when
 * they are given. A later rule ("only before the signature") is one argument here.
 */
export { type Item } from './item';
import { type Item } from './item';
import * as z from 'zod';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../lib/errors';
import { lifecycleOf, LIFECYCLE_ORDER, type Lifecycle } from '../domain/requests';
import { ONBOARDING_MESSAGES } from '../domain/onboarding/rules';
import { ddb, table } from './db';
import { keys } from './keys';


/** The property exists and is not being deleted (on the PROPERTY item). */
export const PROPERTY_EDITABLE = 'attribute_exists(pk) AND attribute_not_exists(deletingAt)';

/** Property ids are the wizard's uuids; anything else (e.g. with '#') is a missing property. */
export const PROPERTY_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;
export const isPropertyId = (id: string) => PROPERTY_ID_PATTERN.test(id);

/** The path parameter of every route under /seller/properties/{propertyId}. */
export const propertyParams = z.object({
  propertyId: z.string({ error: ONBOARDING_MESSAGES.propertyNotFound }).min(1, ONBOARDING_MESSAGES.propertyNotFound).max(100, ONBOARDING_MESSAGES.propertyNotFound),
});

/** True when the property is marked for deletion (it answers 404 and refuses edits). */
export function isDeleting(property: Item): boolean {
  return property.deletingAt !== undefined && property.deletingAt !== null;
}

export function isOwner(property: Item | null | undefined, userId: string): boolean {
  return Boolean(property) && !property!.deletingAt && typeof property!.userId === 'string' && property!.userId === userId;
}

/**
 * THE read of the PROPERTY item (strongly consistent): undefined when it is missing, the id
 * is not a property id, or, unless `includeDeleting`, it is being deleted.
 */
export async function readProperty(propertyId: string, opts: { includeDeleting?: boolean; fields?: readonly string[] } = {}): Promise<Item | undefined> {
  if (!isPropertyId(propertyId)) return undefined;
  const projection = opts.fields
    ? {
        ProjectionExpression: [...new Set([...opts.fields, 'pk', 'deletingAt'])].map((_, i) => `#p${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries([...new Set([...opts.fields, 'pk', 'deletingAt'])].map((f, i) => [`#p${i}`, f])),
      }
    : {};
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: keys.property(propertyId), ConsistentRead: true, ...projection }));
  if (!res.Item) return undefined;
  if (!opts.includeDeleting && isDeleting(res.Item)) return undefined;
  return res.Item;
}

/** The PROPERTY item, or NotFoundError(message) (missing or being deleted). */
export async function requireProperty(propertyId: string, message: string): Promise<Item> {
  const p = await readProperty(propertyId);
  if (!p) throw new NotFoundError(message);
  return p;
}

/** The PROPERTY item of the caller's property, or 404 'Immobile non trovato'. */
export async function requireOwnedProperty(propertyId: string, userId: string): Promise<Item> {
  const p = await readProperty(propertyId);
  if (!isOwner(p, userId)) throw new NotFoundError(ONBOARDING_MESSAGES.propertyNotFound);
  return p!;
}

/** What a write on a property requires of the PROPERTY item. */
export interface PropertyGuard {
  propertyId: string;
  /** the property's userId must be this (the seller's own writes) */
  owner?: string;
  /** the property's lifecycle (domain/requests lifecycleOf) must be one of these */
  states?: readonly Lifecycle[];
  /** one more condition on the PROPERTY item, with the names and values it uses */
  and?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
}

interface Condition {
  ConditionExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * The lifecycle as a condition: the state is the latest lifecycle timestamp present
 * (lifecycleOf), so "in one of `states`" is, for each allowed state, its timestamp present
 * (none for 'nuova') and every later one absent.
 */
function lifecycleCondition(states: readonly Lifecycle[]): Condition {
  const names: Record<string, string> = {};
  const name = (attr: string) => ((names[`#lc_${attr}`] = attr), `#lc_${attr}`);
  const set = (attr: string) => group([`attribute_exists(${name(attr)})`, `NOT attribute_type(${name(attr)}, :lcNull)`], 'AND');
  const unset = (attr: string) => group([`attribute_not_exists(${name(attr)})`, `attribute_type(${name(attr)}, :lcNull)`], 'OR');
  const parts = states.map((state) => {
    const i = LIFECYCLE_ORDER.findIndex((s) => s.state === state);
    const own = LIFECYCLE_ORDER[i]!.attribute;
    return group([...(own ? [set(own)] : []), ...LIFECYCLE_ORDER.slice(i + 1).map((s) => unset(s.attribute!))], 'AND');
  });
  return {
    ConditionExpression: parts.length ? group(parts, 'OR') : 'attribute_not_exists(pk)',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ':lcNull': 'NULL' },
  };
}

/** Terms joined by `op`, parenthesised only when there are several (DynamoDB refuses redundant parentheses). */
function group(terms: readonly string[], op: 'AND' | 'OR'): string {
  return terms.length === 1 ? terms[0]! : `(${terms.join(` ${op} `)})`;
}

/** An expression safe to AND with others: wrapped when it has an OR outside any parentheses. */
function parenthesised(expression: string): string {
  const e = expression.trim();
  let depth = 0;
  for (let k = 0; k < e.length; k++) {
    if (e[k] === '(') depth++;
    else if (e[k] === ')') depth--;
    else if (depth === 0 && /^\sOR\s/i.test(e.slice(k, k + 4))) return `(${e})`;
  }
  return e;
}

/** The guard as a condition on the PROPERTY item. */
export function propertyCondition(g: PropertyGuard): Condition {
  const parts = [PROPERTY_EDITABLE];
  let names: Record<string, string> = {};
  let values: Record<string, unknown> = {};
  if (g.owner !== undefined) {
    parts.push('#guardOwner = :guardOwner');
    names['#guardOwner'] = 'userId';
    values[':guardOwner'] = g.owner;
  }
  if (g.states) {
    const lc = lifecycleCondition(g.states);
    parts.push(lc.ConditionExpression);
    names = { ...names, ...lc.ExpressionAttributeNames };
    values = { ...values, ...lc.ExpressionAttributeValues };
  }
  if (g.and) {
    parts.push(parenthesised(g.and.expression));
    names = { ...names, ...g.and.names };
    values = { ...values, ...g.and.values };
  }
  return {
    ConditionExpression: parts.join(' AND '),
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A ConditionCheck of the guard on the PROPERTY item. */
export function propertyCheck(g: PropertyGuard): TransactItem {
  return { ConditionCheck: { TableName: table(), Key: keys.property(g.propertyId), ...propertyCondition(g) } };
}

/**
 * `guardedTransaction(guard, writes)`: the TransactWriteItems input of a guarded write, the
 * guard ALWAYS at index 0 (isConditionFailure(err, 0) tells a failed guard). When one of the
 * writes is an Update of the PROPERTY item itself, the guard joins that Update's condition
 * (DynamoDB refuses two operations on one item) and the Update moves to index 0; otherwise
 * a ConditionCheck comes first.
 */
export function guardedTransaction(g: PropertyGuard, writes: readonly TransactItem[]): TransactWriteCommandInput {
  const pk = keys.property(g.propertyId);
  const own = writes.findIndex((w) => w.Update && w.Update.Key?.pk === pk.pk && w.Update.Key?.sk === pk.sk);
  if (own < 0) return { TransactItems: [propertyCheck(g), ...writes] };
  const u = writes[own]!.Update!;
  const guard = propertyCondition(g);
  const merged: TransactItem = {
    Update: {
      ...u,
      ConditionExpression: u.ConditionExpression ? `${guard.ConditionExpression} AND ${parenthesised(u.ConditionExpression)}` : guard.ConditionExpression,
      ...(guard.ExpressionAttributeNames || u.ExpressionAttributeNames ? { ExpressionAttributeNames: { ...u.ExpressionAttributeNames, ...guard.ExpressionAttributeNames } } : {}),
      ...(guard.ExpressionAttributeValues || u.ExpressionAttributeValues ? { ExpressionAttributeValues: { ...u.ExpressionAttributeValues, ...guard.ExpressionAttributeValues } } : {}),
    },
  };
  return { TransactItems: [merged, ...writes.filter((_, i) => i !== own)] };
}

/** The lifecycle of a PROPERTY item (re-exported for the areas that read one). */
export { lifecycleOf };
