import type { LinkKind, LinkKindAnswer } from '@domain/links';
import { api } from '@/lib/api';

export const linkKindKey = (token: string) => ['link-kind', token] as const;

/** GET /links/{token} (public): which kind of e-mailed link the token is. */
export async function fetchLinkKind(token: string, signal?: AbortSignal): Promise<LinkKind> {
  const res = await api.get<LinkKindAnswer>(`/links/${encodeURIComponent(token)}`, { signal });
  return res.kind;
}
