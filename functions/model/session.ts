/**
 * Whether a user's tokens are still accepted, decided from the server's own record: the
 * profile item (keys.profile) carries `validAfter`, epoch seconds, written when the user's
 * role changes, when the user is deleted and when an agent is approved; a token issued
 * before it (its `iat`), or of a user whose profile is gone, is refused by route()
 * (functions/lib/http.ts, the only module of lib/ allowed to import this one).
 *
 * The lookup is cached per Lambda container for SESSION_CACHE_MS: a change reaches every
 * container within those seconds (a write in this container forgets its entry at once).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './db';
import { keys } from './keys';

/** How long a container trusts what it read: seconds, not minutes. */
export const SESSION_CACHE_MS = 5_000;

/** The profile attribute (epoch seconds): tokens issued before it are refused. */
export const VALID_AFTER_ATTRIBUTE = 'validAfter';

export interface SessionState {
  /** the user's profile exists */
  exists: boolean;
  /** epoch seconds; 0 when never set */
  validAfter: number;
}

const cache = new Map<string, { state: SessionState; at: number }>();
const MAX_ENTRIES = 5_000;

/** The user's session state: one consistent GetItem of two attributes, cached for SESSION_CACHE_MS. */
export async function sessionStateOf(userId: string, now = Date.now()): Promise<SessionState> {
  const hit = cache.get(userId);
  if (hit && now - hit.at < SESSION_CACHE_MS) return hit.state;
  const res = await ddb().send(
    new GetCommand({
      TableName: table(),
      Key: keys.profile(userId),
      ConsistentRead: true,
      ProjectionExpression: 'pk, #va',
      ExpressionAttributeNames: { '#va': VALID_AFTER_ATTRIBUTE },
    }),
  );
  const raw = res.Item?.[VALID_AFTER_ATTRIBUTE];
  const state: SessionState = { exists: Boolean(res.Item), validAfter: typeof raw === 'number' && Number.isFinite(raw) ? raw : 0 };
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(userId, { state, at: now });
  return state;
}

/** Drops this container's cached entry (after a write that ends the user's sessions). */
export function forgetSession(userId: string): void {
  cache.delete(userId);
}

/** The valid-after instant for a change made now: epoch seconds (a JWT's iat has the same grain). */
export function validAfterNow(now = Date.now()): number {
  return Math.floor(now / 1000);
}
