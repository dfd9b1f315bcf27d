/**
 * What an agent sees of the options: those listed to agents (status pending, no agent
 * assigned: one Query of gsi2 OPTIONS, newest first, filtered), those in the agent's own
 * charge (gsi3 AGENTOPTIONS#{agentId}), each with its property read in one BatchGet, without
 * the seller's personal data; and the photos and videos of one option, only when it is listed
 * or in the caller's charge (anyone else: 404, as for a missing option).
 */
import { str } from '../model/item';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, queryAll } from '../model/db';
import { requireConfig } from '../lib/config';
import { NotFoundError } from '../lib/errors';
import { keys } from '../model/keys';
import { batchGet } from '../omi/omi-store';
import { isPropertyId, loadDossier, mapRooms } from '../model/dossier';
import { AGENT_MESSAGES, type AgentOption, type AgentOptionMedia, type AgentRequestStatus } from '../domain/agent-requests';
import { isListed, listRequestsOfAgent, OPTION_LISTED, type Item } from '../model/agent-request';

const table = () => requireConfig('TABLE_NAME');

const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const num = (v: unknown): number => numOrNull(v) ?? 0;

function toAgentOption(option: Item, property: Item, agentId: string, mine: Map<string, Item>): AgentOption {
  const propertyId = String(option.propertyId);
  const request = mine.get(propertyId);
  return {
    propertyId,
    optionId: String(option.id),
    address: String(property.address ?? option.propertyAddress ?? ''),
    city: str(property.city) ?? str(option.propertyCity),
    province: str(property.province),
    propertyType: str(property.propertyType),
    surfaceArea: numOrNull(property.surfaceArea),
    numRooms: numOrNull(property.numRooms),
    numBathrooms: numOrNull(property.numBathrooms),
    floor: str(property.floor),
    condition: str(property.condition),
    features: Array.isArray(property.features) ? property.features.filter((f): f is string => typeof f === 'string') : [],
    propertyValue: num(option.propertyValue),
    optionAmount: num(option.optionAmount),
    minAgentCommissionPercentage: num(option.minAgentCommissionPercentage),
    agentCommissionPercentage: num(option.agentCommissionPercentage),
    paymentType: option.paymentType === 'anticipato' ? 'anticipato' : 'rateale',
    hasKeys: option.hasKeys === true,
    createdAt: String(option.createdAt ?? ''),
    assignedToMe: option.assignedAgentId === agentId,
    myRequest: request
      ? { id: String(request.id), status: String(request.status) as AgentRequestStatus, requestedCommissionPercentage: num(request.requestedCommissionPercentage) }
      : null,
  };
}

/** The options with their properties (skipping any property missing or being deleted). */
async function withProperties(options: Item[], agentId: string): Promise<AgentOption[]> {
  if (!options.length) return [];
  const [properties, requests] = await Promise.all([
    batchGet(options.map((o) => keys.property(String(o.propertyId)))),
    listRequestsOfAgent(agentId),
  ]);
  const mine = new Map(requests.map((r) => [String(r.propertyId), r]));
  const out: AgentOption[] = [];
  for (const option of options) {
    const key = keys.property(String(option.propertyId));
    const property = properties.get(`${key.pk}|${key.sk}`);
    if (!property || property.deletingAt) continue;
    out.push(toAgentOption(option, property, agentId, mine));
  }
  return out;
}

/** GET /agent/options: every option listed to agents, newest first. */
export async function listAvailableOptions(agentId: string): Promise<AgentOption[]> {
  const q = keys.allOptions();
  const options: Item[] = [];
  await queryAll(
    {
      TableName: table(),
      IndexName: q.index,
      KeyConditionExpression: 'gsi2pk = :pk',
      FilterExpression: OPTION_LISTED,
      ExpressionAttributeNames: { '#optStatus': 'status' },
      ExpressionAttributeValues: { ':pk': q.pk, ':optPending': 'pending', ':nullType': 'NULL' },
      ScanIndexForward: false,
    },
    (item) => {
      options.push(item);
    },
  );
  return withProperties(options, agentId);
}

/** GET /agent/options/assigned: the options in the caller's charge, newest assignment first. */
export async function listAssignedOptions(agentId: string): Promise<AgentOption[]> {
  const q = keys.optionsOfAgent(agentId);
  const options: Item[] = [];
  await queryAll(
    { TableName: table(), IndexName: q.index, KeyConditionExpression: 'gsi3pk = :pk', ExpressionAttributeValues: { ':pk': q.pk }, ScanIndexForward: false },
    (item) => {
      // the index lags the table by a moment; the item itself is the truth
      if (item.assignedAgentId === agentId) options.push(item);
    },
  );
  return withProperties(options, agentId);
}

/**
 * GET /agent/options/{propertyId}/media: rooms and media with presigned GET URLs, for an
 * option listed to agents or in the caller's charge; anything else 404 'Opzione non trovata'.
 */
export async function optionMedia(agentId: string, propertyId: string): Promise<AgentOptionMedia> {
  if (!isPropertyId(propertyId)) throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
  const option = (await ddb().send(new GetCommand({ TableName: table(), Key: keys.option(propertyId), ConsistentRead: true }))).Item;
  if (!option || !(isListed(option) || option.assignedAgentId === agentId)) throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
  const raw = await loadDossier(propertyId);
  if (!raw) throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
  return { rooms: await mapRooms(raw) };
}
