/**
 * The opaque cursor of a paged list: base64url of the JSON of the index key of the last item
 * served (and what else the list needs to go on). Each list checks the decoded object is one
 * it made; anything else is 400 with the list's Italian message.
 */
import { ValidationError } from '../lib/errors';

export function encodePageCursor(body: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/** The cursor's object, or 400 `message` for something that is not a cursor at all. */
export function decodePageCursor(cursor: string, message: string): Record<string, unknown> {
  const bad = () => new ValidationError(message, { cursor: message });
  if (!/^[A-Za-z0-9_-]{1,600}$/.test(cursor)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw bad();
  return parsed as Record<string, unknown>;
}
