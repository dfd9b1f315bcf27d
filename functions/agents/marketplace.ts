/**
 * What an agent sees of the options: those listed to agents (status pending, no agent
 * assigned: one Query of gsi2 OPTIONS, newest first, filtered), those in the agent's own
 * charge (gsi3 AGENTOPTIONS#{agentId}), each with its property read in one BatchGet, without
 * the seller's personal data; and the photos and videos of one option, only when it is listed
 * or in the caller's charge (anyone else: 404, as for a missing option).
 */
import { toOptionDuration } from '../domain/fees';
import { str } from '../model/item';
import { NotFoundError } from '../lib/errors';
import { listedOptionItems, optionItemsOfAgent, propertyItemsById } from '../model/agent-options';
import { isPropertyId, loadDossier, mapRooms } from '../model/dossier';
import { AGENT_MESSAGES, type AgentOption, type AgentOptionMedia, type AgentRequestStatus } from '../domain/agent-requests';
import { isListed, listRequestsOfAgent, readOption, type Item } from '../model/agent-request';
import { todayInRome } from '../domain/availability';

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
    optionDuration: toOptionDuration(option.optionDuration),
    expiresAt: str(option.expiresAt),
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
    propertyItemsById(options.map((o) => String(o.propertyId))),
    listRequestsOfAgent(agentId),
  ]);
  const mine = new Map(requests.map((r) => [String(r.propertyId), r]));
  const out: AgentOption[] = [];
  for (const option of options) {
    const property = properties.get(String(option.propertyId));
    if (!property || property.deletingAt) continue;
    out.push(toAgentOption(option, property, agentId, mine));
  }
  return out;
}

/** GET /agent/options: every option listed to agents, newest first. */
export async function listAvailableOptions(agentId: string, now = new Date()): Promise<AgentOption[]> {
  return withProperties(await listedOptionItems(todayInRome(now)), agentId);
}

/** GET /agent/options/assigned: the options in the caller's charge, newest assignment first. */
export async function listAssignedOptions(agentId: string): Promise<AgentOption[]> {
  return withProperties(await optionItemsOfAgent(agentId), agentId);
}

/**
 * GET /agent/options/{propertyId}/media: rooms and media with presigned GET URLs, for an
 * option listed to agents or in the caller's charge (assigned to them, not closed since);
 * anything else 404 'Opzione non trovata'.
 */
export async function optionMedia(agentId: string, propertyId: string, now = new Date()): Promise<AgentOptionMedia> {
  if (!isPropertyId(propertyId)) throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
  const option = await readOption(propertyId);
  if (!option || !(isListed(option, todayInRome(now)) || (option.status === 'assigned' && option.assignedAgentId === agentId))) throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
  const raw = await loadDossier(propertyId);
  if (!raw) throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
  return { rooms: await mapRooms(raw) };
}
