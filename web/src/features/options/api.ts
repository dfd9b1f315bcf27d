/** Client of GET /admin/options and PATCH /admin/options/{propertyId} (functions/options). */
import type { OptionList, OptionListItem, UpdateOptionInput } from '@domain/review/schemas';
import { api } from '@/lib/api';

export type { OptionListItem };

export const optionKeys = {
  all: ['options'] as const,
};

export function listOptions(signal?: AbortSignal): Promise<OptionList> {
  return api.get<OptionList>('/admin/options', { signal });
}

export function updateOption(propertyId: string, input: UpdateOptionInput): Promise<OptionListItem> {
  return api.patch<OptionListItem>(`/admin/options/${encodeURIComponent(propertyId)}`, input);
}
