/**
 * Purchase options (one per property, keys.option): the item <-> PurchaseOption mapping, the
 * list of Opzioni di Acquisto Attive (one Query of gsi2 OPTIONS, newest first, plus one
 * BatchGet of the assigned agents' profiles), the admin's create and edit, the seller's
 * notification and the seller's signature. Every write on the option of a property carries
 * the property guard (model/property.ts) at index 0 of its transaction. The option's own
 * files are DOCUMENT items of the dossier (keys.document), written in the same transactions.
 */
import { toOptionDuration } from '../domain/fees';
import { formatDecimal } from '../domain/format';
import { OPTION_LIFECYCLE_MESSAGES, OPTION_TRANSITIONS, RUNNING_OPTION_STATES, isLegacyOptionStatus, isPastExpiry, optionStateOf, type OptionAction, type OptionState } from '../domain/option-lifecycle';
import type { Actor } from '../domain/activity';
import { requestActivity } from './activity';
import { pageCount, str, type Item } from './item';
import { BatchGetCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, queryAll, table } from './db';
import { ConflictError, NotFoundError, ValidationError } from '../lib/errors';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { optionNotExpired, requestsVersionIs } from './agent-request';
import { guardedTransaction, readProperty, unchangedSince } from './property';
import { availabilityLinkItems } from './availability';
import { invitationCondition, invitationLinkItems, type InvitationChange } from './invitation';
import type { PurchaseOption } from '../domain/requests';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import { MIN_ABOVE_MAX_MESSAGE, type OptionListItem } from '../domain/review/schemas';
import { ONBOARDING_MESSAGES } from '../domain/onboarding/rules';
import { KYC_MESSAGES } from '../domain/onboarding/kyc';
import { toDigitalSigners, toSignatureFormat, toSignatureType, type DigitalSignature, type DigitalSigner } from '../domain/onboarding/digital-signature';


const num = (v: unknown, fallback = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

export function toPurchaseOption(item: Record<string, unknown>): PurchaseOption {
  const sig = item.signatureData as { signedDocumentKey?: string; uploadedAt?: string; format?: unknown } | null | undefined;
  return {
    id: item.id as string,
    propertyId: item.propertyId as string,
    status: optionStateOf(item),
    assignedAgentId: str(item.assignedAgentId),
    propertyValue: num(item.propertyValue),
    optionAmount: num(item.optionAmount),
    optionDuration: toOptionDuration(item.optionDuration),
    expiresAt: str(item.expiresAt),
    agentCommissionPercentage: num(item.agentCommissionPercentage),
    minAgentCommissionPercentage: num(item.minAgentCommissionPercentage),
    salePricePercentage: num(item.salePricePercentage),
    hasKeys: item.hasKeys === true,
    paymentType: item.paymentType === 'anticipato' ? 'anticipato' : 'rateale',
    installments: typeof item.installments === 'number' ? item.installments : null,
    signatureType: toSignatureType(item.signatureType),
    signedAt: str(item.signedAt),
    signatureData: sig?.signedDocumentKey
      ? { signedDocumentKey: sig.signedDocumentKey, uploadedAt: sig.uploadedAt ?? '', format: toSignatureFormat(sig.format), signers: optionSigners(item) }
      : null,
    minMonthlySlots: num(item.minMonthlySlots, 1),
    createdAt: item.createdAt as string,
    notifiedAt: str(item.notifiedAt),
    availabilityLinkSentAt: str(item.availabilityLinkSentAt),
    documentKey: str(item.documentKey),
    documentPages: pageCount(item.documentPages),
    publishedAt: str(item.publishedAt),
    assignedAt: str(item.assignedAt),
    cancelReason: str(item.cancelReason),
  };
}

/** The verified firma digitale's signers recorded on an OPTION item (empty on paper). */
export const optionSigners = (item: Record<string, unknown>): DigitalSigner[] =>
  toDigitalSigners((item.signatureData as { signers?: unknown } | null | undefined)?.signers);

/** Full names of the given users (profiles), by id; missing profiles are absent. */
export async function profileNames(userIds: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const unique = [...new Set(userIds)];
  for (let i = 0; i < unique.length; i += 100) {
    let request: Record<string, { Keys: Record<string, unknown>[]; ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> }> | undefined = {
      [table()]: { Keys: unique.slice(i, i + 100).map((id) => keys.profile(id)), ProjectionExpression: 'id, fullName, email' },
    };
    for (let round = 0; request && Object.keys(request).length && round < 5; round++) {
      const res = await ddb().send(new BatchGetCommand({ RequestItems: request as never }));
      for (const p of res.Responses?.[table()] ?? []) names.set(p.id as string, (p.fullName as string) || (p.email as string) || '');
      request = res.UnprocessedKeys as typeof request;
    }
  }
  return names;
}

export function toOptionListItem(item: Record<string, unknown>, agents: Map<string, string>): OptionListItem {
  const option = toPurchaseOption(item);
  return {
    ...option,
    propertyAddress: (item.propertyAddress as string) ?? '',
    propertyCity: str(item.propertyCity),
    sellerFirstName: (item.sellerFirstName as string) ?? '',
    sellerLastName: (item.sellerLastName as string) ?? '',
    agentName: option.assignedAgentId ? (agents.get(option.assignedAgentId) ?? 'N/A') : null,
  };
}

/** Every option, newest first, with the property and seller copied on it and the agent's name. */
export async function listOptions(): Promise<OptionListItem[]> {
  const q = keys.allOptions();
  const items: Record<string, unknown>[] = [];
  await queryAll(
    { TableName: table(), IndexName: q.index, KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': q.pk }, ScanIndexForward: false },
    (item) => {
      items.push(item);
    },
  );
  const agentIds = items.map((i) => i.assignedAgentId).filter((v): v is string => typeof v === 'string' && v.length > 0);
  const agents = agentIds.length ? await profileNames(agentIds) : new Map<string, string>();
  return items.map((i) => toOptionListItem(i, agents));
}

export interface OptionChanges {
  agentCommissionPercentage?: number;
  salePricePercentage?: number;
  minAgentCommissionPercentage?: number;
}

const CHANGE_LABELS: Record<keyof OptionChanges, string> = {
  agentCommissionPercentage: 'condivisione agente',
  salePricePercentage: 'prezzo di vendita',
  minAgentCommissionPercentage: 'condivisione minima',
};

/**
 * The admin's edit of the agents' terms (the three percentages) with its activity entry (the
 * values before and after) in ONE transaction; only while the option is not closed and not in
 * an agent's charge. 404 when the property has no option; 409 when it is assigned or closed.
 */
export async function updateOption(propertyId: string, changes: OptionChanges, actor: Actor, now = new Date()): Promise<OptionListItem> {
  const at = now.toISOString();
  const before = await readOption(propertyId);
  if (!before) throw new NotFoundError(REVIEW_MESSAGES.optionNotFound);
  // the minimum against the maximum as they will be stored (a field left out keeps its value);
  // the write wants the option unchanged since this read
  const merged = { ...before, ...changes };
  if (typeof merged.minAgentCommissionPercentage === 'number' && typeof merged.agentCommissionPercentage === 'number' && merged.minAgentCommissionPercentage > merged.agentCommissionPercentage) {
    throw new ValidationError(MIN_ABOVE_MAX_MESSAGE, { minAgentCommissionPercentage: MIN_ABOVE_MAX_MESSAGE });
  }
  const names: Record<string, string> = { '#optStatus': 'status' };
  const values: Record<string, unknown> = { ':now': at, ':assigned': 'assigned', ':exercised': 'exercised', ':expired': 'expired', ':cancelled': 'cancelled', ':read': before.updatedAt ?? null };
  const sets = ['updatedAt = :now'];
  const noted: string[] = [];
  for (const [field, value] of Object.entries(changes) as [keyof OptionChanges, number | undefined][]) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
    const was = typeof before[field] === 'number' ? (before[field] as number) : null;
    if (was !== value) noted.push(`${CHANGE_LABELS[field]}: ${was === null ? '—' : formatDecimal(was)}% → ${formatDecimal(value)}%`);
  }
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction({ propertyId }, [
          {
            Update: {
              TableName: table(),
              Key: keys.option(propertyId),
              UpdateExpression: `SET ${sets.join(', ')}`,
              // the values noted as "before" are the ones replaced: nobody changed them since the read
              ConditionExpression: 'attribute_exists(pk) AND updatedAt = :read AND NOT #optStatus IN (:assigned, :exercised, :expired, :cancelled)',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            },
          },
          requestActivity(propertyId, 'option.updated', actor, at, { propertyLabel: str(before.propertyAddress), note: noted.join('; ') || 'Nessun valore cambiato' }),
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(REVIEW_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1)) {
      const now2 = await readOption(propertyId);
      if (!now2) throw new NotFoundError(REVIEW_MESSAGES.optionNotFound);
      if (now2.updatedAt !== before.updatedAt && !['assigned', 'exercised', 'expired', 'cancelled'].includes(optionStateOf(now2))) throw new ConflictError();
      throw new ConflictError(OPTION_LIFECYCLE_MESSAGES.editClosed);
    }
    throw err;
  }
  const item: Item = { ...before, ...changes, updatedAt: at };
  const agentId = str(item.assignedAgentId);
  return toOptionListItem(item, agentId ? await profileNames([agentId]) : new Map());
}

/**
 * The condition "the option is in a state `action` is allowed from" (domain/option-lifecycle),
 * on the OPTION item: `#optStatus IN (...)` with its own names and values.
 */
export function optionStateCondition(action: OptionAction) {
  const from = OPTION_TRANSITIONS[action].from;
  const values: Record<string, string> = {};
  from.forEach((s, i) => (values[`:from${i}`] = s));
  return {
    expression: `#optStatus IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
    names: { '#optStatus': 'status' },
    values,
  };
}

type TransactItem = Parameters<typeof guardedTransaction>[1][number];

export interface OptionTransition {
  propertyId: string;
  action: OptionAction;
  actor: Actor;
  at: string;
  /** the option as read before (its state and address for the activity entry) */
  option: Item;
  /** more attributes SET on the OPTION item with the state (name -> value) */
  set?: Record<string, unknown>;
  /** more attributes SET on the PROPERTY item (its lifecycle facts, e.g. optionSignedAt) */
  propertySet?: Record<string, unknown>;
  /** a further condition on the PROPERTY item (its own names-free expression and values) */
  propertyCondition?: { expression: string; values: Record<string, unknown> };
  /** attributes REMOVEd from the OPTION item */
  remove?: readonly string[];
  /** the seller's own writes state their ownership */
  owner?: string;
  /** the activity entry's note (a reason) */
  note?: string | null;
  /** more writes of the same change (requests closed, mails), after the option and the entry */
  extra?: readonly TransactItem[];
  /** only if the option's requests version is still this one (model/agent-request.ts): the change closes the requests read at it */
  requestsVersion?: number;
  /** only if the option is not past its expiry day (this day, Europe/Rome) */
  notExpiredOn?: string;
}

/**
 * A change of the option's state in ONE transaction: the PROPERTY's summary `optionState`
 * (with the property guard), the OPTION item (only from the states the action is allowed in),
 * the activity entry and `extra`. A failed guard is 404 'Immobile non trovato'; the option in
 * another state (or at another requests version, or expired) 409 with the action's Italian
 * reason; a failure among `extra` 409 (changed meanwhile). Returns the state reached.
 */
export async function transitionOption(t: OptionTransition): Promise<OptionState> {
  const { propertyId, action, at } = t;
  const to = OPTION_TRANSITIONS[action].to;
  const cond = optionStateCondition(action);
  const names: Record<string, string> = { ...cond.names };
  const values: Record<string, unknown> = { ...cond.values, ':to': to, ':at': at };
  const sets = ['#optStatus = :to', 'updatedAt = :at'];
  for (const [i, [field, value]] of Object.entries(t.set ?? {}).entries()) {
    names[`#set${i}`] = field;
    values[`:set${i}`] = value;
    sets.push(`#set${i} = :set${i}`);
  }
  const removes = (t.remove ?? []).map((field, i) => ((names[`#rm${i}`] = field), `#rm${i}`));
  const conditions = [`attribute_exists(pk)`, cond.expression];
  if (t.requestsVersion !== undefined) {
    const version = requestsVersionIs(t.requestsVersion);
    conditions.push(version.expression);
    Object.assign(values, version.values);
  }
  if (t.notExpiredOn !== undefined) {
    const notExpired = optionNotExpired(t.notExpiredOn);
    conditions.push(notExpired.expression);
    Object.assign(values, notExpired.values);
  }
  const T = table();
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction({ propertyId, ...(t.owner ? { owner: t.owner } : {}) }, [
          {
            Update: {
              TableName: T,
              Key: keys.property(propertyId),
              UpdateExpression: `SET optionState = :state, updatedAt = :at${Object.keys(t.propertySet ?? {}).map((f, i) => `, #pset${i} = :pset${i}`).join('')}`,
              ...(t.propertySet && Object.keys(t.propertySet).length ? { ExpressionAttributeNames: Object.fromEntries(Object.keys(t.propertySet).map((f, i) => [`#pset${i}`, f])) } : {}),
              ...(t.propertyCondition ? { ConditionExpression: t.propertyCondition.expression } : {}),
              ExpressionAttributeValues: {
                ':state': to,
                ':at': at,
                ...Object.fromEntries(Object.values(t.propertySet ?? {}).map((v, i) => [`:pset${i}`, v])),
                ...t.propertyCondition?.values,
              },
            },
          },
          {
            Update: {
              TableName: T,
              Key: keys.option(propertyId),
              UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
              ConditionExpression: conditions.join(' AND '),
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            },
          },
          requestActivity(propertyId, `option.${action}`, t.actor, at, {
            propertyLabel: str(t.option.propertyAddress),
            before: optionStateOf(t.option),
            after: to,
            note: t.note ?? null,
          }),
          ...(t.extra ?? []),
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(REVIEW_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1)) throw new ConflictError(OPTION_LIFECYCLE_MESSAGES[action]);
    if ((err as { name?: string }).name === 'TransactionCanceledException') throw new ConflictError();
    throw err;
  }
  return to;
}

/**
 * Options stored before their state was recorded (status pending/approved/sent/completed)
 * get the state their facts say (domain/option-lifecycle optionStateOf), each only if its
 * status is still the one read. Idempotent; run by the daily option job and the local setup.
 */
export async function migrateLegacyOptionStates(): Promise<number> {
  const q = keys.allOptions();
  const legacy: Item[] = [];
  await queryAll({ TableName: table(), IndexName: q.index, KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': q.pk } }, (item) => {
    if (isLegacyOptionStatus(item.status)) legacy.push(item);
  });
  let migrated = 0;
  for (const item of legacy) {
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: table(),
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: 'SET #s = :state, legacyStatus = :old',
          ConditionExpression: '#s = :old',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':state': optionStateOf(item), ':old': item.status ?? null },
        }),
      );
      migrated++;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }
  return migrated;
}

/** The running options (signed, published, assigned) whose expiry day (yyyy-MM-dd) is before `today`. */
export async function expiredOptionItems(today: string): Promise<Item[]> {
  const q = keys.allOptions();
  const out: Item[] = [];
  const running = RUNNING_OPTION_STATES;
  await queryAll(
    {
      TableName: table(),
      IndexName: q.index,
      KeyConditionExpression: 'gsi2pk = :pk',
      FilterExpression: `#s IN (${running.map((_, i) => `:r${i}`).join(', ')}) AND expiresAt < :today`,
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':pk': q.pk, ':today': today, ...Object.fromEntries(running.map((s, i) => [`:r${i}`, s])) },
    },
    (item) => {
      if (isPastExpiry(str(item.expiresAt), today)) out.push(item);
    },
  );
  return out;
}

/** The OPTION item of a property (strongly consistent), or undefined. */
export async function readOption(propertyId: string): Promise<Item | undefined> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: keys.option(propertyId), ConsistentRead: true }));
  return res.Item;
}

/** A file of the option in the dossier (a DOCUMENT item). */
export interface OptionDocument {
  id: string;
  /** 'option' (the generated PDF) or 'signed-option' (the seller's signed copy) */
  kind: string;
  key: string;
  fileName: string;
  contentType: string;
  size: number;
  uploadedAt: string;
  /** SHA-256 of the object's bytes, when the server checked them (the signed copy) */
  sha256?: string;
}

function documentPut(propertyId: string, d: OptionDocument) {
  return {
    Put: {
      TableName: table(),
      Item: {
        ...keys.document(propertyId, d.id),
        entity: 'document',
        id: d.id,
        propertyId,
        kind: d.kind,
        key: d.key,
        fileName: d.fileName,
        contentType: d.contentType,
        size: d.size,
        uploadedAt: d.uploadedAt,
        ...(d.sha256 ? { sha256: d.sha256 } : {}),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The property and seller facts copied on the option for the one-Query list. */
export interface OptionListCopy {
  propertyAddress: string;
  propertyCity: string | null;
  sellerFirstName: string;
  sellerLastName: string;
}

/**
 * The PROPERTY attributes the seller's onboarding steps change (identity, co-owners and shares,
 * delegations): the option's document is written from them, so it is stored only while they
 * are as the admin's read found them. Once it is stored the steps are closed (model/property.ts
 * BEFORE_OPTION).
 */
const ONBOARDING_BASIS = ['identityStatus', 'identityCheckedAt', 'coOwnersUpdatedAt', 'singleOwner', 'sellerShare', 'delegationsUpdatedAt'] as const;

/**
 * The option created in ONE transaction with the property guard (exists, not being deleted, the
 * onboarding as `basis`, the PROPERTY item read, has it: else 409 onboardingChanged):
 * property.optionCreatedAt, the OPTION item (only once) with its indexes and the list copy,
 * and the DOCUMENT item of its PDF. A failed guard is 404 'Immobile non trovato'; an option
 * already there 409 'Esiste già un'opzione...' (REVIEW_MESSAGES.optionExists).
 */
export async function createOptionRecord(option: PurchaseOption, copy: OptionListCopy, document: OptionDocument, actor: Actor, basis: Item): Promise<void> {
  const { id, propertyId, createdAt } = option;
  const T = table();
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction({ propertyId, and: unchangedSince(basis, ONBOARDING_BASIS) }, [
          {
            Update: {
              TableName: T,
              Key: keys.property(propertyId),
              UpdateExpression: 'SET optionCreatedAt = :at, optionState = :state, updatedAt = :at',
              ExpressionAttributeValues: { ':at': createdAt, ':state': option.status },
            },
          },
          {
            Put: {
              TableName: T,
              Item: {
                ...keys.option(propertyId),
                ...keys.optionIndexes({ id, propertyId, createdAt }),
                entity: 'option',
                ...option,
                // copied for the one-Query list of Opzioni di Acquisto Attive
                ...copy,
                updatedAt: createdAt,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          documentPut(propertyId, document),
          requestActivity(propertyId, 'option.created', actor, createdAt, { propertyLabel: copy.propertyAddress, after: option.status }),
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw (await readProperty(propertyId)) ? new ConflictError(REVIEW_MESSAGES.onboardingChanged) : new NotFoundError(REVIEW_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1)) throw new ConflictError(REVIEW_MESSAGES.optionExists);
    throw err;
  }
}

/**
 * The notification to the seller (created or sent -> sent): the option's notifiedAt, the
 * mail's fresh invitation link (the property's invitationToken, the new INVITE item, the old
 * one deleted) and its outbox item in ONE transaction with the property guard and the
 * activity entry. A failed guard (or the link replaced meanwhile) is 404 'Immobile non
 * trovato'; no option 409; an option already signed or closed 409.
 */
export async function recordOptionNotification(
  invitation: InvitationChange,
  outbox: Omit<Parameters<typeof outboxPut>[0], 'now'>,
  actor: Actor,
  option: Item,
): Promise<OptionState> {
  const { propertyId, at } = invitation;
  return transitionOption({
    propertyId,
    action: 'notify',
    actor,
    at,
    option,
    set: { notifiedAt: at },
    propertySet: { invitationToken: invitation.token },
    propertyCondition: invitationCondition(invitation.oldToken),
    extra: [...invitationLinkItems(invitation), outboxPut({ ...outbox, now: at })],
  });
}

/**
 * The seller's physical signature (created or sent -> signed) in ONE transaction guarded by
 * the owner: the property's optionSignedAt, the OPTION's signatureType 'fisica', signedAt,
 * signatureData and, for an option with a duration, expiresAt (signature day + duration,
 * computed by the caller), the DOCUMENT item of the signed copy, the activity entry and, for
 * an option without keys, the availability link (its token item, the option's token and the
 * mail) so the seller can give visit slots at once. A failed guard is 404 'Immobile non
 * trovato'; an option signed meanwhile (or the document already there) 409 'Opzione già firmata'.
 */
export async function signOption(input: {
  guard: { propertyId: string; owner: string };
  option: Item;
  signatureData: { signedDocumentKey: string; uploadedAt: string; sha256: string } & Partial<DigitalSignature>;
  document: OptionDocument;
  expiresAt: string | null;
  /** the availability link sent with the signature (option without keys) */
  availability: { token: string; outbox: Omit<Parameters<typeof outboxPut>[0], 'now'> } | null;
}): Promise<void> {
  const { guard, signatureData, document, availability } = input;
  const at = signatureData.uploadedAt;
  try {
    await transitionOption({
      propertyId: guard.propertyId,
      owner: guard.owner,
      action: 'sign',
      actor: { id: guard.owner, role: 'seller', name: null },
      at,
      option: input.option,
      propertySet: { optionSignedAt: at },
      set: {
        signatureType: signatureData.format ? 'digitale' : 'fisica',
        signedAt: at,
        signatureData,
        ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
        ...(availability ? { availabilityToken: availability.token, availabilityLinkSentAt: at } : {}),
      },
      extra: [
        documentPut(guard.propertyId, document),
        ...(availability
          ? [
              ...availabilityLinkItems({
                propertyId: guard.propertyId,
                optionId: input.option.id,
                token: availability.token,
                oldToken: null,
                optionExpiresAt: input.expiresAt,
                at,
              }),
              outboxPut({ ...availability.outbox, now: at }),
            ]
          : []),
      ],
    });
  } catch (err) {
    if (err instanceof ConflictError) throw new ConflictError(KYC_MESSAGES.optionAlreadySigned);
    if (err instanceof NotFoundError) throw new NotFoundError(ONBOARDING_MESSAGES.propertyNotFound);
    throw err;
  }
}
