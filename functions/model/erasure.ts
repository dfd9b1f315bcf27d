/**
 * Storage of a seller's account erasure (the use case is functions/seller/erasure.ts): which
 * own properties are kept for their contract, the record of the properties being erased on
 * the profile, the co-owner invitations (COINVITE) of those properties, the erasure of an
 * unsigned property's mark and the keeping of a signed or assigned one, the profile itself.
 * Every write on a property has the property guard (model/property.ts) at index 0.
 */
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, queryAll, table, transactWrite } from './db';
import { batchGet } from './batch-get';
import { str, type Item } from './item';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { BEFORE_SIGNATURE, guardedTransaction, readProperty } from './property';
import { lifecycleOf } from '../domain/requests';
import type { MailMessage } from '../lib/mail';

/** An own property as the erasure sees it. */
export interface ErasureProperty {
  id: string;
  address: string;
  city: string;
  /** signed ('opzione_firmata') or its option assigned to an agent: kept for the contract */
  contract: boolean;
  optionSigned: boolean;
  assignedAgentId: string | null;
  sellerName: string;
  sellerEmail: string;
}

export interface ErasureFacts {
  /** the PROFILE item, undefined when already gone */
  profile: Item | undefined;
  properties: ErasureProperty[];
}

const idOf = (p: Item) => String(p.id ?? String(p.pk).slice('PROPERTY#'.length));

/** The option is in an agent's charge. */
const assignedAgentOf = (option: Item | undefined): string | null => (option ? str(option.assignedAgentId) : null);

/**
 * The profile and the caller's own properties still to handle: those in the seller index and
 * those recorded on the profile by an erasure that died halfway (`deletingPropertyIds`), each
 * with its option; a property being deleted, kept already or owned by someone else is left out.
 */
export async function readErasureFacts(userId: string): Promise<ErasureFacts> {
  const T = table();
  const stored = await ddb().send(new GetCommand({ TableName: T, Key: keys.profile(userId), ConsistentRead: true }));
  const ids = new Set<string>();
  if (stored.Item?.deletingPropertyIds instanceof Set) for (const id of stored.Item.deletingPropertyIds as Set<string>) ids.add(id);
  const q = keys.propertiesOfSeller(userId);
  await queryAll({ TableName: T, IndexName: q.index, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': q.pk } }, (item) => {
    if (item.sk === 'PROPERTY') ids.add(idOf(item));
  });
  const wanted = [...ids].flatMap((id) => [keys.property(id), keys.option(id)]);
  const found = await batchGet(wanted, { consistent: true });
  const get = (k: { pk: string; sk: string }) => found.get(`${k.pk}|${k.sk}`);
  const properties: ErasureProperty[] = [];
  for (const id of ids) {
    const p = get(keys.property(id));
    if (!p || p.deletingAt !== undefined || p.userId !== userId) continue;
    const option = get(keys.option(id));
    const optionSigned = lifecycleOf(p) === 'opzione_firmata';
    const assignedAgentId = assignedAgentOf(option);
    properties.push({
      id,
      address: String(p.address ?? ''),
      city: String(p.city ?? ''),
      contract: optionSigned || assignedAgentId !== null,
      optionSigned,
      assignedAgentId,
      sellerName: [str(p.firstName), str(p.lastName)].filter(Boolean).join(' ') || String(stored.Item?.fullName ?? ''),
      sellerEmail: String(p.email ?? stored.Item?.email ?? ''),
    });
  }
  return { profile: stored.Item, properties };
}

/**
 * Writes the ids of the properties being erased on the profile (`deletingPropertyIds`): erasing
 * one takes it out of the seller index, so after a failure halfway the index alone would not
 * find it again. Never recreates a profile a concurrent erasure has just removed.
 */
export async function recordErasure(userId: string, propertyIds: readonly string[], now: Date): Promise<void> {
  if (propertyIds.length === 0) return;
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.profile(userId),
        UpdateExpression: 'ADD deletingPropertyIds :ids SET accountDeletingAt = if_not_exists(accountDeletingAt, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':ids': new Set(propertyIds), ':now': now.toISOString() },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

/**
 * The keys of the co-owner invitations (COINVITE, with the co-owner's e-mail) of these
 * properties: one Query of the link tokens' expiry index (every token made since that index
 * exists is in it, expired or not), filtered on the property id.
 */
export async function coOwnerInvitationsOf(propertyIds: readonly string[]): Promise<Map<string, { pk: string; sk: string }[]>> {
  const out = new Map<string, { pk: string; sk: string }[]>();
  if (propertyIds.length === 0) return out;
  const q = keys.expiredTokens();
  const wanted = new Set(propertyIds);
  await queryAll(
    {
      TableName: table(),
      IndexName: q.index,
      KeyConditionExpression: 'gsi3pk = :pk',
      FilterExpression: 'begins_with(pk, :co)',
      ExpressionAttributeValues: { ':pk': q.pk, ':co': keys.coOwnerInvitation('').pk },
    },
    (item) => {
      const propertyId = str(item.propertyId);
      if (!propertyId || !wanted.has(propertyId)) return;
      out.set(propertyId, [...(out.get(propertyId) ?? []), { pk: String(item.pk), sk: String(item.sk) }]);
    },
  );
  return out;
}

/**
 * Starts the erasure of a property that has NO contract to keep, in one transaction: the
 * guard (the caller's, not being deleted, not signed: every lifecycle state before
 * 'opzione_firmata') with the property's mark (`deletingAt`, out of every index, as the
 * request deletion marks it), the option not assigned to an agent, the requests counter and
 * the co-owner invitations. 'refused' when the guard or the option's check fails (signed or
 * assigned meanwhile, not the caller's, already marked): the caller reads why.
 * The rest (files, dossier items, the PROPERTY item) is model/request purgeRequest, which
 * finds the property marked and goes on.
 */
export async function markUnsignedForErasure(
  userId: string,
  propertyId: string,
  coOwnerInvitations: readonly { pk: string; sk: string }[],
  now: Date,
): Promise<'marked' | 'refused'> {
  const T = table();
  const input = guardedTransaction({ propertyId, owner: userId, states: BEFORE_SIGNATURE }, [
    {
      Update: {
        TableName: T,
        Key: keys.property(propertyId),
        UpdateExpression: 'SET deletingAt = :now REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk',
        ExpressionAttributeValues: { ':now': now.toISOString() },
      },
    },
    // index 1: nobody has the option in charge (no option at all is fine)
    {
      ConditionCheck: {
        TableName: T,
        Key: keys.option(propertyId),
        ConditionExpression: 'attribute_not_exists(assignedAgentId) OR attribute_type(assignedAgentId, :nullType)',
        ExpressionAttributeValues: { ':nullType': 'NULL' },
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
    ...coOwnerInvitations.map((k) => ({ Delete: { TableName: T, Key: k } })),
  ]);
  try {
    await transactWrite(input);
    return 'marked';
  } catch (err) {
    if (isConditionFailure(err, 0) || isConditionFailure(err, 1)) return 'refused';
    throw err;
  }
}

/** Where a property stands for a retry of the erasure after a refused mark. */
export async function erasureStateOf(userId: string, propertyId: string): Promise<'deleting' | 'kept' | 'owned' | 'gone'> {
  const p = await readProperty(propertyId, { includeDeleting: true, fields: ['userId', 'erasedUserId'] });
  if (!p) return 'gone';
  if (p.deletingAt !== undefined) return 'deleting';
  if (p.erasedUserId === userId) return 'kept';
  return p.userId === userId ? 'owned' : 'gone';
}

/**
 * Keeps a property for its contract, in ONE transaction guarded by the owner (and not kept
 * already): the PROPERTY item is marked as belonging to an erased account (`erasedAccountAt`,
 * `erasedUserId`) and leaves the seller's index and owner (`userId` removed: no seller route
 * reaches it any more), the seller's invitation link, the availability link and the
 * co-owner invitations are deleted, and the back office mail is written to the outbox.
 * Everything else of the dossier (option, signed files, identities, delegations, the agent's
 * request and payment) stays as it is. 'done' once; 'refused' when the guard fails (kept
 * already by a previous attempt, deleted, or not the caller's).
 */
export async function keepForContract(
  userId: string,
  propertyId: string,
  coOwnerInvitations: readonly { pk: string; sk: string }[],
  mail: { outboxId: string; message: MailMessage },
  now: Date,
): Promise<'done' | 'refused'> {
  const T = table();
  const property = await readProperty(propertyId, { fields: ['invitationToken'] });
  const option = await ddb().send(new GetCommand({ TableName: T, Key: keys.option(propertyId), ConsistentRead: true, ProjectionExpression: 'availabilityToken' }));
  const tokens = [
    ...(str(property?.invitationToken) ? [keys.invitation(str(property!.invitationToken)!)] : []),
    ...(str(option.Item?.availabilityToken) ? [keys.availabilityToken(str(option.Item!.availabilityToken)!)] : []),
    ...coOwnerInvitations,
  ];
  const at = now.toISOString();
  const input = guardedTransaction(
    { propertyId, owner: userId, and: { expression: 'attribute_not_exists(#erasedAt)', names: { '#erasedAt': 'erasedAccountAt' } } },
    [
      {
        Update: {
          TableName: T,
          Key: keys.property(propertyId),
          UpdateExpression: 'SET erasedAccountAt = :at, erasedUserId = :u, updatedAt = :at REMOVE userId, gsi1pk, gsi1sk, invitationToken',
          ExpressionAttributeValues: { ':at': at, ':u': userId },
        },
      },
      ...tokens.map((k) => ({ Delete: { TableName: T, Key: k } })),
      outboxPut({ id: mail.outboxId, kind: 'seller-account-erased', ref: propertyId, mail: mail.message, now: at }),
    ],
  );
  try {
    await ddb().send(new TransactWriteCommand(input));
    return 'done';
  } catch (err) {
    if (isConditionFailure(err, 0)) return 'refused';
    throw err;
  }
}

/** The profile, last of the table's data (while it exists a retry finds the recorded properties). */
export async function deleteProfile(userId: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: table(), Key: keys.profile(userId) }));
}

