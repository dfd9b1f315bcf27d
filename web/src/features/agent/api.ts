/** Client of the agent routes (functions/agents): the marketplace, the agent's requests and the card payment. */
import type {
  AgentOptionList,
  AgentOptionMedia,
  AgentPaymentLink,
  AgentRequestList,
  CreateAgentRequestResult,
} from '@domain/agent-requests';
import type { AgentDeal, Visit, VisitOutcomeInput } from '@domain/visits';
import { api } from '@/lib/api';

export const agentKeys = {
  all: ['agent'] as const,
  available: ['agent', 'options', 'available'] as const,
  assigned: ['agent', 'options', 'assigned'] as const,
  requests: ['agent', 'requests'] as const,
  media: (propertyId: string) => ['agent', 'options', propertyId, 'media'] as const,
  deal: (propertyId: string) => ['agent', 'options', propertyId, 'deal'] as const,
};

const dealPath = (propertyId: string) => `/agent/options/${encodeURIComponent(propertyId)}`;

export function getDeal(propertyId: string, signal?: AbortSignal): Promise<AgentDeal> {
  return api.get<AgentDeal>(`${dealPath(propertyId)}/deal`, { signal });
}

export function bookVisit(propertyId: string, slotId: string): Promise<Visit> {
  return api.post<Visit>(`${dealPath(propertyId)}/visits`, { slotId });
}

export function moveVisit(propertyId: string, visitId: string, slotId: string): Promise<Visit> {
  return api.put<Visit>(`${dealPath(propertyId)}/visits/${encodeURIComponent(visitId)}`, { slotId });
}

export function cancelVisit(propertyId: string, visitId: string): Promise<Visit> {
  return api.delete<Visit>(`${dealPath(propertyId)}/visits/${encodeURIComponent(visitId)}`);
}

export function recordOutcome(propertyId: string, visitId: string, input: VisitOutcomeInput): Promise<Visit> {
  return api.post<Visit>(`${dealPath(propertyId)}/visits/${encodeURIComponent(visitId)}/outcome`, input);
}

export function listAvailableOptions(signal?: AbortSignal): Promise<AgentOptionList> {
  return api.get<AgentOptionList>('/agent/options', { signal });
}

export function listAssignedOptions(signal?: AbortSignal): Promise<AgentOptionList> {
  return api.get<AgentOptionList>('/agent/options/assigned', { signal });
}

export function getOptionMedia(propertyId: string, signal?: AbortSignal): Promise<AgentOptionMedia> {
  return api.get<AgentOptionMedia>(`/agent/options/${encodeURIComponent(propertyId)}/media`, { signal });
}

export function requestOption(propertyId: string, commissionPercentage: number): Promise<CreateAgentRequestResult> {
  return api.post<CreateAgentRequestResult>(`/agent/options/${encodeURIComponent(propertyId)}/requests`, { commissionPercentage });
}

export function listMyRequests(signal?: AbortSignal): Promise<AgentRequestList> {
  return api.get<AgentRequestList>('/agent/requests', { signal });
}

export function createCardPayment(requestId: string): Promise<AgentPaymentLink> {
  return api.post<AgentPaymentLink>(`/agent/requests/${encodeURIComponent(requestId)}/payment`);
}
