/**
 * Purchase options (one per property, keys.option): the item <-> PurchaseOption mapping, the
 * list of Opzioni di Acquisto Attive (one Query of gsi2 OPTIONS, newest first, plus one
 * BatchGet of the assigned agents' profiles) and the admin's edit.
 */
import { str } from './item';
import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, queryAll, table } from './db';
import { NotFoundError } from '../lib/errors';
import { keys } from './keys';
import type { OptionStatus, PurchaseOption } from '../domain/requests';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import type { OptionListItem } from '../domain/review/schemas';


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
