/** Client of GET /admin/options, PATCH /admin/options/{propertyId} and the agents' requests /admin/agent-requests (functions/options). */
import type { AdminAgentRequest, AdminAgentRequestList, OpenAgentRequestStatus } from '@domain/agent-requests';
import type { OptionList, OptionListItem, UpdateOptionInput } from '@domain/review/schemas';
import { api } from '@/lib/api';

export type { OptionListItem };

export const optionKeys = {
  all: ['options'] as const,
  agentRequests: (status: OpenAgentRequestStatus) => ['options', 'agent-requests', status] as const,
};

export function listOptions(signal?: AbortSignal): Promise<OptionList> {
  return api.get<OptionList>('/admin/options', { signal });
}

export function updateOption(propertyId: string, input: UpdateOptionInput): Promise<OptionListItem> {
  return api.patch<OptionListItem>(`/admin/options/${encodeURIComponent(propertyId)}`, input);
}

export function listAgentRequests(status: OpenAgentRequestStatus, signal?: AbortSignal): Promise<AdminAgentRequestList> {
  return api.get<AdminAgentRequestList>('/admin/agent-requests', { query: { status }, signal });
}

export function decideAgentRequest(requestId: string, action: 'approve' | 'reject' | 'paid'): Promise<AdminAgentRequest> {
  return api.post<AdminAgentRequest>(`/admin/agent-requests/${encodeURIComponent(requestId)}/${action}`);
}
