import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { ddb } from '../model/db';
import { requireConfig } from '../lib/config';
import { route } from '../lib/http';
import { keys } from '../model/keys';
import type { LinkKind, LinkKindAnswer } from '../domain/links';
import { isExpired, TOKEN_PATTERN } from '../model/tokens';

const params = z.object({ token: z.string({ error: 'Link non valido' }).max(200, 'Link non valido') });

/** The kind of a link token (one BatchGet of the three token items); functions/domain/links.ts. */
export async function linkKind(token: string, now = Date.now()): Promise<LinkKind> {
  if (!TOKEN_PATTERN.test(token)) return 'unknown';
  const T = requireConfig('TABLE_NAME');
  const candidates = [
    { kind: 'invitation', key: keys.invitation(token) },
    { kind: 'coOwner', key: keys.coOwnerInvitation(token) },
    { kind: 'availability', key: keys.availabilityToken(token) },
  ] as const;
  const res = await ddb().send(
    new BatchGetCommand({
      RequestItems: { [T]: { Keys: candidates.map((c) => c.key), ProjectionExpression: 'pk, expiresAt', ConsistentRead: true } },
    }),
  );
  const found = res.Responses?.[T] ?? [];
  for (const c of candidates) {
    const item = found.find((i) => i.pk === c.key.pk);
    if (item && !isExpired(item.expiresAt as number | undefined, now)) return c.kind;
  }
  return 'unknown';
}

/** GET /links/{token}: public, answers only the kind. */
export const handler = route('getLinkKind', { params }, async ({ params }): Promise<LinkKindAnswer> => ({ kind: await linkKind(params.token) }));
