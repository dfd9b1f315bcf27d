/**
 * Purchase options (one per property, keys.option): the item <-> PurchaseOption mapping, the
 * list of Opzioni di Acquisto Attive (one Query of gsi2 OPTIONS, newest first, plus one
 * BatchGet of the assigned agents' profiles), the admin's create and edit, the seller's
 * notification and the seller's signature. Every write on the option of a property carries
 * the property guard (model/property.ts) at index 0 of its transaction. The option's own
 * files are DOCUMENT items of the dossier (keys.document), written in the same transactions.
 */
import { toOptionDuration } from '../domain/fees';
import { str, type Item } from './item';
import { BatchGetCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, queryAll, table } from './db';
import { ConflictError, NotFoundError } from '../lib/errors';
import { keys } from './keys';
import { outboxPut } from './outbox';
import { guardedTransaction } from './property';
import type { OptionStatus, PurchaseOption } from '../domain/requests';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import type { OptionListItem } from '../domain/review/schemas';
import { ONBOARDING_MESSAGES } from '../domain/onboarding/rules';
import { KYC_MESSAGES } from '../domain/onboarding/kyc';


const num = (v: unknown, fallback = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

export function toPurchaseOption(item: Record<string, unknown>): PurchaseOption {
  const sig = item.signatureData as { signedDocumentKey?: string; uploadedAt?: string } | null | undefined;
  return {
    id: item.id as string,
    propertyId: item.propertyId as string,
    status: item.status as OptionStatus,
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
    signatureType: item.signatureType === 'fisica' ? 'fisica' : null,
    signedAt: str(item.signedAt),
    signatureData: sig?.signedDocumentKey ? { signedDocumentKey: sig.signedDocumentKey, uploadedAt: sig.uploadedAt ?? '' } : null,
    minMonthlySlots: num(item.minMonthlySlots, 1),
    createdAt: item.createdAt as string,
    notifiedAt: str(item.notifiedAt),
    availabilityLinkSentAt: str(item.availabilityLinkSentAt),
    documentKey: str(item.documentKey),
  };
}

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
  status?: OptionStatus;
  agentCommissionPercentage?: number;
  salePricePercentage?: number;
  minAgentCommissionPercentage?: number;
}

/** The admin's edit (any status, the three percentages); 404 when the property has no option. */
export async function updateOption(propertyId: string, changes: OptionChanges, now = new Date()): Promise<OptionListItem> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now.toISOString() };
  const sets = ['updatedAt = :now'];
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  try {
    const res = await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.option(propertyId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    const item = res.Attributes!;
    const agentId = str(item.assignedAgentId);
    return toOptionListItem(item, agentId ? await profileNames([agentId]) : new Map());
  } catch (err) {
    if (isConditionFailure(err)) throw new NotFoundError(REVIEW_MESSAGES.optionNotFound);
    throw err;
  }
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
 * The option created in ONE transaction with the property guard (exists, not being deleted):
 * property.optionCreatedAt, the OPTION item (only once) with its indexes and the list copy,
 * and the DOCUMENT item of its PDF. A failed guard is 404 'Immobile non trovato'; an option
 * already there 409 'Esiste già un'opzione...' (REVIEW_MESSAGES.optionExists).
 */
export async function createOptionRecord(option: PurchaseOption, copy: OptionListCopy, document: OptionDocument): Promise<void> {
  const { id, propertyId, createdAt } = option;
  const T = table();
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction({ propertyId }, [
          {
            Update: {
              TableName: T,
              Key: keys.property(propertyId),
              UpdateExpression: 'SET optionCreatedAt = :at, updatedAt = :at',
              ExpressionAttributeValues: { ':at': createdAt },
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
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(REVIEW_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1)) throw new ConflictError(REVIEW_MESSAGES.optionExists);
    throw err;
  }
}

/**
 * The option's notifiedAt and the notification mail's outbox item in ONE transaction with the
 * property guard. A failed guard is 404 'Immobile non trovato'; no option 409.
 */
export async function recordOptionNotification(propertyId: string, at: string, outbox: Omit<Parameters<typeof outboxPut>[0], 'now'>): Promise<void> {
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction({ propertyId }, [
          {
            Update: {
              TableName: table(),
              Key: keys.option(propertyId),
              UpdateExpression: 'SET notifiedAt = :at, updatedAt = :at',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':at': at },
            },
          },
          outboxPut({ ...outbox, now: at }),
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(REVIEW_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1)) throw new ConflictError(REVIEW_MESSAGES.optionMissing);
    throw err;
  }
}

/**
 * The seller's physical signature in ONE transaction guarded by the owner: the property's
 * optionSignedAt, the OPTION's signatureType 'fisica', signedAt, signatureData (only once) and,
 * for an option with a duration, expiresAt (signature day + duration, computed by the caller)
 * and the DOCUMENT item of the signed copy. A failed guard is 404 'Immobile non trovato'; an
 * option signed meanwhile (or the document already there) 409 'Opzione già firmata'.
 */
export async function signOption(
  guard: { propertyId: string; owner: string },
  signatureData: { signedDocumentKey: string; uploadedAt: string; sha256: string },
  document: OptionDocument,
  expiry: { expiresAt: string; optionDuration: number } | null = null,
): Promise<void> {
  const { propertyId } = guard;
  const at = signatureData.uploadedAt;
  const T = table();
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction(guard, [
          {
            Update: {
              TableName: T,
              Key: keys.property(propertyId),
              UpdateExpression: 'SET optionSignedAt = :at, updatedAt = :at',
              ExpressionAttributeValues: { ':at': at },
            },
          },
          {
            Update: {
              TableName: T,
              Key: keys.option(propertyId),
              // the expiry is computed from the duration read before: the condition holds it unchanged
              UpdateExpression: `SET signatureType = :fisica, signedAt = :at, signatureData = :sig, updatedAt = :at${expiry ? ', expiresAt = :expiresAt' : ''}`,
              ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(signedAt) OR signedAt = :null)${expiry ? ' AND optionDuration = :duration' : ''}`,
              ExpressionAttributeValues: {
                ':fisica': 'fisica',
                ':at': at,
                ':sig': signatureData,
                ':null': null,
                ...(expiry ? { ':expiresAt': expiry.expiresAt, ':duration': expiry.optionDuration } : {}),
              },
            },
          },
          documentPut(propertyId, document),
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw new NotFoundError(ONBOARDING_MESSAGES.propertyNotFound);
    if (isConditionFailure(err, 1) || isConditionFailure(err, 2)) throw new ConflictError(KYC_MESSAGES.optionAlreadySigned);
    throw err;
  }
}
