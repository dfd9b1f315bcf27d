/**
 * The reads and the one write of the daily reminders (reminders.ts): candidates from the
 * gsi2 lists (PROPERTIES, OPTIONS) with a filter, never a Scan; the facts of one candidate
 * (onboarding items, this month's slots and quota, the links); and `recordReminder`, the
 * reminder written on its item (`reminders.{kind}` = sentAt) in the SAME transaction as its
 * outbox mail, on condition that it was not sent yet.
 */
export { type Item } from './item';
import { str, type Item } from './item';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, queryAll, table } from './db';
import { keys } from './keys';
import type { MailMessage } from '../lib/mail';
import { outboxPut } from './outbox';
import { PROPERTY_EDITABLE, readProperty } from './property';
import { invitationCondition, invitationLinkItems, type InvitationChange } from './invitation';
import { availabilityLinkCondition, availabilityLinkItems, type AvailabilityLinkChange } from './availability';
import type { ReminderKind } from '../domain/reminders/rules';

export { table } from './db';

/** The map of sent reminders on a PROPERTY or OPTION item: kind -> sentAt (ISO). */
export const REMINDERS_ATTRIBUTE = 'reminders';

/** The property id of a candidate: a PROPERTY item's `id`, an OPTION item's `propertyId` (`id` is the option's), else its pk. */
export const candidatePropertyId = (item: Item, entity: 'property' | 'option'): string =>
  (entity === 'property' ? str(item.id) : str(item.propertyId)) ?? keys.propertyIdOf(item.pk) ?? '';

/** The reminders already recorded on a candidate, by kind (null: the item has no reminders map yet). */
export const sentReminders = (item: Item): Record<string, unknown> | null =>
  item[REMINDERS_ATTRIBUTE] && typeof item[REMINDERS_ATTRIBUTE] === 'object' ? (item[REMINDERS_ATTRIBUTE] as Record<string, unknown>) : null;

/** ProjectionExpression and names for a list of attributes (some are reserved words: status, name). */
function projection(attributes: readonly string[]): { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> } {
  const names: Record<string, string> = {};
  attributes.forEach((a, i) => (names[`#p${i}`] = a));
  return { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names };
}

/** Every page of a Query (one page at a time), the items each page returned and how many it read. */
async function queryFiltered(input: QueryCommandInput): Promise<{ items: Item[]; scanned: number }> {
  const items: Item[] = [];
  let scanned = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb().send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    scanned += res.ScannedCount ?? 0;
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return { items, scanned };
}

const PROPERTY_FIELDS = ['pk', 'id', 'userId', 'email', 'firstName', 'lastName', 'address', 'city', 'invitationToken', 'estimateSentAt', 'singleOwner', REMINDERS_ATTRIBUTE];

/**
 * Properties whose estimate e-mail (the invitation) was sent in (from, to] and that have no
 * option yet: gsi2 PROPERTIES created up to `to` (the estimate follows the submission),
 * filtered on the server. Properties being deleted are out of the index already.
 */
export async function onboardingCandidates(range: { from: string; to: string }): Promise<{ items: Item[]; scanned: number }> {
  const q = keys.allProperties();
  const p = projection(PROPERTY_FIELDS);
  return queryFiltered({
    TableName: table(),
    IndexName: q.index,
    KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :to',
    FilterExpression: 'estimateSentAt > :from AND estimateSentAt <= :to AND NOT attribute_type(optionCreatedAt, :S) AND attribute_not_exists(deletingAt)',
    ...p,
    ExpressionAttributeValues: { ':pk': q.pk, ':from': range.from, ':to': range.to, ':S': 'S' },
  });
}

const OPTION_FIELDS = [
  'pk',
  'id',
  'propertyId',
  'status',
  'paymentType',
  'hasKeys',
  'signedAt',
  'notifiedAt',
  'availabilityLinkSentAt',
  'availabilityToken',
  'expiresAt',
  'minMonthlySlots',
  'optionAmount',
  'optionDuration',
  'propertyValue',
  REMINDERS_ATTRIBUTE,
];

/**
 * Options that may need a reminder: notified in (from, to] and not signed, or signed
 * 'rateale' (availability): gsi2 OPTIONS created up to `createdUpTo`, filtered on the server.
 */
export async function optionCandidates(notified: { from: string; to: string }, createdUpTo: string): Promise<{ items: Item[]; scanned: number }> {
  const q = keys.allOptions();
  const p = projection(OPTION_FIELDS);
  return queryFiltered({
    TableName: table(),
    IndexName: q.index,
    // gsi2sk is {createdAt}#{propertyId}
    KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :upTo',
    FilterExpression:
      '(notifiedAt > :from AND notifiedAt <= :to AND NOT attribute_type(signedAt, :S)) OR (paymentType = :rateale AND attribute_type(signedAt, :S))',
    ...p,
    ExpressionAttributeValues: { ':pk': q.pk, ':upTo': `${createdUpTo}#\uffff`, ':from': notified.from, ':to': notified.to, ':S': 'S', ':rateale': 'rateale' },
  });
}

/** The PROPERTY item (strongly consistent), or undefined when it is gone or being deleted. */
export async function loadProperty(propertyId: string): Promise<Item | undefined> {
  return readProperty(propertyId, { fields: PROPERTY_FIELDS });
}

/** The onboarding items of a property (co-owners, delegations, identity): one Query of the sk range COOWNER# .. IDENTITY. */
export async function onboardingItems(propertyId: string): Promise<{ identity: Item | null; coOwners: Item[]; delegations: Item[] }> {
  const out = { identity: null as Item | null, coOwners: [] as Item[], delegations: [] as Item[] };
  const prefixes = keys.dossierPrefixes;
  const identitySk = keys.identity(propertyId).sk;
  await queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
      ExpressionAttributeValues: { ':pk': keys.propertyDossier(propertyId).pk, ':first': prefixes.coOwner, ':last': identitySk },
      ...projection(['sk', 'status', 'verificationStatus', 'documentKey', 'signedAt']),
      ConsistentRead: true,
    },
    (item) => {
      const sk = String(item.sk);
      if (sk === identitySk) out.identity = item;
      else if (sk.startsWith(prefixes.coOwner)) out.coOwners.push(item);
      else if (sk.startsWith(prefixes.delegation)) out.delegations.push(item);
    },
  );
  return out;
}

/** This month's slots of a property (Select COUNT over SLOT#{yyyy}-{MM}-) and its quota item, if any. */
export async function monthAvailability(propertyId: string, year: number, month: number): Promise<{ slots: number; quota: Item | undefined }> {
  const q = keys.slotsOfMonth(propertyId, year, month);
  let slots = 0;
  const counting = (async () => {
    let start: Record<string, unknown> | undefined;
    do {
      const res = await ddb().send(
        new QueryCommand({
          TableName: table(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': q.pk, ':prefix': q.skPrefix },
          Select: 'COUNT',
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      slots += res.Count ?? 0;
      start = res.LastEvaluatedKey;
    } while (start);
  })();
  const [quota] = await Promise.all([
    ddb().send(new GetCommand({ TableName: table(), Key: keys.monthlyQuota(propertyId, year, month), ConsistentRead: true })).then((r) => r.Item),
    counting,
  ]);
  return { slots, quota };
}

export interface ReminderWrite {
  kind: ReminderKind;
  propertyId: string;
  /** the item the reminder is recorded on */
  target: 'property' | 'option';
  /** the target item already has the reminders map (else it is created first) */
  hasMap: boolean;
  /** the state that makes the reminder due, checked again on the target item in the write */
  still?: ReminderState;
  /**
   * The fresh link the mail carries (each notification has its own), made the current one in
   * the same transaction: the property's invitation (onboarding, unsigned option) or the
   * option's availability link.
   */
  link?: { kind: 'invitation'; change: InvitationChange } | { kind: 'availability'; change: AvailabilityLinkChange };
  to: string;
  mail: Omit<MailMessage, 'to'>;
  /** the run's time: recorded as sentAt and compared with the token's expiry */
  now: Date;
}

/**
 * What must still hold for a reminder when it is written: the onboarding reminders until the
 * option exists, the unsigned-option reminder until the signature, the availability reminder
 * while the option is a signed 'rateale' one.
 */
export type ReminderState = 'noOptionYet' | 'unsigned' | 'signedRateale';
const STILL: Record<ReminderState, { condition: string; values: Record<string, unknown> }> = {
  noOptionYet: { condition: 'NOT attribute_type(optionCreatedAt, :S)', values: { ':S': 'S' } },
  unsigned: { condition: 'NOT attribute_type(signedAt, :S)', values: { ':S': 'S' } },
  signedRateale: { condition: 'paymentType = :rateale AND attribute_type(signedAt, :S)', values: { ':rateale': 'rateale', ':S': 'S' } },
};

/** The outbox id of a reminder: one per kind and property, so a second enqueue cannot happen either. */
export const reminderOutboxId = (kind: ReminderKind, propertyId: string) => `reminder-${kind}-${propertyId}`;

/**
 * Records the reminder and enqueues its mail in ONE transaction: the target item gets
 * `reminders.{kind} = now` only if it has no such entry (and `condition` holds), the
 * property is not being deleted, the mail's fresh link replaces the current one (still the one
 * read). 'queued' when written (the
 * caller delivers the outbox item), 'skipped' when a condition failed: another run sent it
 * first, or the state changed.
 */
export async function recordReminder(w: ReminderWrite): Promise<'queued' | 'skipped'> {
  const T = table();
  const targetKey = w.target === 'property' ? keys.property(w.propertyId) : keys.option(w.propertyId);
  const names = { '#r': REMINDERS_ATTRIBUTE, '#k': w.kind };
  if (!w.hasMap) {
    // SET reminders.#k needs the map; creating it only when missing never overwrites a concurrent run's entry
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: T,
          Key: targetKey,
          UpdateExpression: 'SET #r = :empty',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#r)',
          ExpressionAttributeNames: { '#r': REMINDERS_ATTRIBUTE },
          ExpressionAttributeValues: { ':empty': {} },
        }),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }
  const at = w.now.toISOString();
  const invitation = w.link?.kind === 'invitation' ? w.link.change : null;
  const availability = w.link?.kind === 'availability' ? w.link.change : null;
  const inviteCond = invitation ? invitationCondition(invitation.oldToken) : null;
  const availCond = availability ? availabilityLinkCondition(availability.oldToken) : null;
  // the PROPERTY item: not being deleted and, with a fresh invitation, still at the token read
  const propertyCondition = [PROPERTY_EDITABLE, inviteCond?.expression].filter(Boolean).join(' AND ');
  const propertySet = invitation ? { expression: 'invitationToken = :inviteToken', values: { ':inviteToken': invitation.token, ...inviteCond!.values } } : null;
  const targetCondition = [
    w.target === 'property' ? propertyCondition : 'attribute_exists(pk)',
    'attribute_not_exists(#r.#k)',
    w.still ? STILL[w.still].condition : null,
    w.target === 'option' ? availCond?.expression : null,
  ]
    .filter(Boolean)
    .join(' AND ');
  const targetSets = [
    '#r.#k = :at',
    ...(w.target === 'property' && propertySet ? [propertySet.expression] : []),
    ...(w.target === 'option' && availability ? ['availabilityToken = :availToken'] : []),
  ];
  const outboxId = reminderOutboxId(w.kind, w.propertyId);
  const items: Record<string, unknown>[] = [
    {
      Update: {
        TableName: T,
        Key: targetKey,
        UpdateExpression: `SET ${targetSets.join(', ')}`,
        ConditionExpression: targetCondition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: {
          ':at': at,
          ...(w.target === 'property' && propertySet ? propertySet.values : {}),
          ...(w.target === 'option' && availability ? { ':availToken': availability.token, ...availCond!.values } : {}),
          ...(w.still ? STILL[w.still].values : {}),
        },
      },
    },
    ...(w.target === 'option'
      ? [
          propertySet
            ? {
                Update: {
                  TableName: T,
                  Key: keys.property(w.propertyId),
                  UpdateExpression: `SET ${propertySet.expression}`,
                  ConditionExpression: propertyCondition,
                  ExpressionAttributeValues: propertySet.values,
                },
              }
            : { ConditionCheck: { TableName: T, Key: keys.property(w.propertyId), ConditionExpression: propertyCondition } },
        ]
      : []),
    ...(invitation ? invitationLinkItems(invitation) : []),
    ...(availability ? availabilityLinkItems(availability) : []),
    // the outbox keeps real time (the scheduled retry reads it with the real clock)
    outboxPut({ id: outboxId, kind: `reminder-${w.kind}`, ref: w.propertyId, now: new Date().toISOString(), mail: { to: [w.to], ...w.mail } }),
  ];
  for (let attempt = 1; ; attempt++) {
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: items as never }));
      return 'queued';
    } catch (err) {
      const reasons = (err as { name?: string; CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
      if (reasons.some((r) => r.Code === 'ConditionalCheckFailed')) return 'skipped';
      // two runs at once on the same item: retry, the loser then finds the reminder recorded
      if (reasons.some((r) => r.Code === 'TransactionConflict') && attempt < 4) {
        await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
        continue;
      }
      throw err;
    }
  }
}
