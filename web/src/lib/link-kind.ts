import type { LinkKindAnswer } from '@domain/links';
import { api } from '@/lib/api';

export const linkKindKey = (token: string) => ['link-kind', token] as const;

/** GET /links/{token} (public): which kind of e-mailed link the token is (a co-owner's also its invited address). */
export async function fetchLinkKind(token: string, signal?: AbortSignal): Promise<LinkKindAnswer> {
  return api.get<LinkKindAnswer>(`/links/${encodeURIComponent(token)}`, { signal });
}
