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
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '../lib/errors';
import { lifecycleOf, LIFECYCLE, LIFECYCLE_ORDER, type Lifecycle } from '../domain/requests';
import { ONBOARDING_MESSAGES, type ReopenableStep, type StepReopening } from '../domain/onboarding/rules';
import { ddb, isConditionFailure, table } from './db';
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
  /**
   * the onboarding step the write changes: allowed before the option is created (the option's
   * document names the owners and shares as they were then), after it only while an admin has
   * reopened that step (after the signature)
   */
  step?: ReopenableStep;
  /**
   * 'signature': the step stays open until the option is signed instead (a co-owner's own
   * identity check: the option may be created before every co-owner verified)
   */
  stepOpenUntil?: 'signature';
}

/** The lifecycle states before the signature (a seller deleting their account erases the property then). */
export const BEFORE_SIGNATURE: readonly Lifecycle[] = LIFECYCLE.filter((s) => s !== 'opzione_firmata');

/** The lifecycle states in which the onboarding steps are the seller's to change: before the option exists. */
export const BEFORE_OPTION: readonly Lifecycle[] = LIFECYCLE.slice(0, LIFECYCLE.indexOf('opzione_creata'));

/**
 * Where a step's reopening lives on the PROPERTY item: `reopened` ({reason, by, at}) while an
 * admin has it open, `completedAt` the last time the seller completed it (the write that
 * completes it removes `reopened`: the step is closed again), `reopenings` the history.
 */
export const STEP_ATTRIBUTES: Record<ReopenableStep, { reopened: string; completedAt: string }> = {
  identity: { reopened: 'identityReopened', completedAt: 'identityCompletedAt' },
  coOwners: { reopened: 'coOwnersReopened', completedAt: 'coOwnersCompletedAt' },
  delegations: { reopened: 'delegationsReopened', completedAt: 'delegationsCompletedAt' },
};

/**
 * The update fragment of a write that completes `step`: its completedAt set, its reopening
 * removed (names `#stepDone`, `#stepOpen`, value `:stepDoneAt`). Compose the `set` part into the
 * SET clause and the `remove` part into the REMOVE clause of the PROPERTY's Update.
 */
export function stepCompletion(step: ReopenableStep, at: string) {
  return {
    set: '#stepDone = :stepDoneAt',
    remove: '#stepOpen',
    names: { '#stepDone': STEP_ATTRIBUTES[step].completedAt, '#stepOpen': STEP_ATTRIBUTES[step].reopened },
    values: { ':stepDoneAt': at },
  };
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
export function lifecycleCondition(states: readonly Lifecycle[]): Condition {
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

/**
 * A PropertyGuard `and` requiring the PROPERTY item's `attributes` to be as `read` has them
 * (the same value, or still absent): a write based on a read refuses to land when any of them
 * changed in between.
 */
export function unchangedSince(read: Item, attributes: readonly string[]): NonNullable<PropertyGuard['and']> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts = attributes.map((a, i) => {
    names[`#same${i}`] = a;
    if (read[a] === undefined) return `attribute_not_exists(#same${i})`;
    values[`:same${i}`] = read[a];
    return `#same${i} = :same${i}`;
  });
  return { expression: parts.join(' AND '), names, ...(Object.keys(values).length ? { values } : {}) };
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
  if (g.step) {
    // before the option (or the signature), or reopened by an admin
    const lc = lifecycleCondition(g.stepOpenUntil === 'signature' ? BEFORE_SIGNATURE : BEFORE_OPTION);
    parts.push(`(${lc.ConditionExpression} OR attribute_exists(#guardStepOpen))`);
    names = { ...names, ...lc.ExpressionAttributeNames, '#guardStepOpen': STEP_ATTRIBUTES[g.step].reopened };
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

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

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

/**
 * Sends a guarded write (guardedTransaction) and answers its refusals as the onboarding writes
 * do: a failed guard through guardFailure (409 for a step closed by the signature, else
 * `notFound`), any other cancelled condition 409 (a change made meanwhile).
 */
export async function sendGuarded(g: PropertyGuard, writes: readonly TransactItem[], notFound: () => Error): Promise<void> {
  try {
    await ddb().send(new TransactWriteCommand(guardedTransaction(g, writes)));
  } catch (err) {
    if (isConditionFailure(err, 0)) throw await guardFailure(g, notFound);
    if ((err as { name?: string }).name === 'TransactionCanceledException') throw new ConflictError();
    throw err;
  }
}

/** True when `step` of the property is closed by the option (created, or signed and not reopened) for a write open until `until`. */
export function isStepLocked(property: Item, step: ReopenableStep, until?: 'signature'): boolean {
  const open = (until === 'signature' ? BEFORE_SIGNATURE : BEFORE_OPTION).includes(lifecycleOf(property));
  return !open && (property[STEP_ATTRIBUTES[step].reopened] === undefined || property[STEP_ATTRIBUTES[step].reopened] === null);
}

/**
 * The error of a failed guard: the write's condition refused it, this read after it only
 * picks the message. A step closed by the option is 409 ONBOARDING_MESSAGES.stepLockedByOption,
 * by the signature stepLocked (the property is the caller's: telling it exists reveals
 * nothing); anything else `notFound`.
 */
export async function guardFailure(g: PropertyGuard, notFound: () => Error): Promise<Error> {
  if (!g.step) return notFound();
  const p = await readProperty(g.propertyId);
  if (p && (g.owner === undefined || isOwner(p, g.owner)) && isStepLocked(p, g.step, g.stepOpenUntil)) {
    return new ConflictError(lifecycleOf(p) === 'opzione_firmata' ? ONBOARDING_MESSAGES.stepLocked : ONBOARDING_MESSAGES.stepLockedByOption);
  }
  return notFound();
}

/** The reopenings of a PROPERTY item, oldest first, each closed when the seller completed the step after it. */
export function reopeningsOf(property: Item): StepReopening[] {
  const list = Array.isArray(property.reopenings) ? (property.reopenings as Record<string, unknown>[]) : [];
  return list.map((r) => {
    const step = r.step as ReopenableStep;
    const at = String(r.at ?? '');
    const done = property[STEP_ATTRIBUTES[step]?.completedAt ?? ''];
    return {
      step,
      reason: String(r.reason ?? ''),
      by: String(r.by ?? ''),
      at,
      closedAt: typeof done === 'string' && done >= at ? done : null,
    };
  });
}

/**
 * An admin reopens a step closed by the signature: the property must exist, not be being
 * deleted and be signed ('opzione_firmata'; else 409 reopenNotSigned, 404 when missing). One
 * UpdateItem: the step's `reopened` {reason, by, at} and the entry appended to `reopenings`.
 */
export async function reopenStep(propertyId: string, step: ReopenableStep, by: string, reason: string, at: string, notFound: () => Error): Promise<StepReopening> {
  const guard: PropertyGuard = { propertyId, states: ['opzione_firmata'] };
  const cond = propertyCondition(guard);
  const entry = { step, reason, by, at };
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.property(propertyId),
        UpdateExpression: 'SET #open = :open, reopenings = list_append(if_not_exists(reopenings, :none), :entry), updatedAt = :at',
        ...cond,
        ExpressionAttributeNames: { ...cond.ExpressionAttributeNames, '#open': STEP_ATTRIBUTES[step].reopened },
        ExpressionAttributeValues: { ...cond.ExpressionAttributeValues, ':open': { reason, by, at }, ':none': [], ':entry': [entry], ':at': at },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const p = await readProperty(propertyId);
    if (p && lifecycleOf(p) !== 'opzione_firmata') throw new ConflictError(ONBOARDING_MESSAGES.reopenNotSigned);
    throw notFound();
  }
  return { ...entry, closedAt: null };
}

/** The lifecycle of a PROPERTY item (re-exported for the areas that read one). */
export { lifecycleOf };
