/**
 * Link tokens (INVITE, COINVITE, AVAIL items): making one, its expiry, and telling which kind
 * of link a token is.
 */
import { randomBytes } from 'node:crypto';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../lib/config';
import { ddb, table } from './db';
import { keys } from './keys';
import type { LinkKindAnswer } from '../domain/links';
import { isIsoDate } from '../domain/availability';
import { romeDayEnd } from '../domain/rome-time';

/** An unguessable link token: 144 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(18).toString('base64url');
}

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,64}$/;

/** Epoch seconds at which a token made now expires (TOKEN_TTL_DAYS, default 30). */
export function tokenExpiry(now = Date.now()): number {
  return Math.floor(now / 1000) + config().TOKEN_TTL_DAYS * 86_400;
}

/**
 * The expiry attributes of a new token item (INVITE, COINVITE, AVAIL): `expiresAt` (DynamoDB
 * TTL) and the entry of the expiry index, so the daily reminders job finds and deletes it
 * once expired. Spread into every token item that is created.
 */
export function tokenExpiryFields(now = Date.now()): { expiresAt: number; gsi3pk: string; gsi3sk: string } {
  return expiryFieldsAt(tokenExpiry(now));
}

function expiryFieldsAt(expiresAt: number): { expiresAt: number; gsi3pk: string; gsi3sk: string } {
  return { expiresAt, ...keys.tokenExpiryIndex(expiresAt) };
}

/**
 * The expiry attributes of an availability link (AVAIL item): it opens the page for as long
 * as the option runs, to the end of its expiry day in Italy (`expiresAt`, yyyy-MM-dd); an
 * option without an expiry date (stored before options had a duration) gets TOKEN_TTL_DAYS.
 */
export function availabilityLinkExpiryFields(optionExpiresAt: string | null, now = Date.now()): { expiresAt: number; gsi3pk: string; gsi3sk: string } {
  if (!optionExpiresAt || !isIsoDate(optionExpiresAt)) return tokenExpiryFields(now);
  return expiryFieldsAt(Math.floor(Date.parse(romeDayEnd(optionExpiresAt)) / 1000));
}

export function isExpired(expiresAt: number | undefined, now = Date.now()): boolean {
  return expiresAt === undefined || expiresAt * 1000 <= now;
}

/**
 * The kind of a link token (functions/domain/links.ts): one BatchGet of the three token items
 * (invitation, co-owner invitation, availability link); an unknown, malformed or expired
 * token is 'unknown'.
 */
export async function linkTokenKind(token: string, now = Date.now()): Promise<LinkKindAnswer> {
  if (!TOKEN_PATTERN.test(token)) return { kind: 'unknown' };
  const T = table();
  const candidates = [
    { kind: 'invitation', key: keys.invitation(token) },
    { kind: 'coOwner', key: keys.coOwnerInvitation(token) },
    { kind: 'availability', key: keys.availabilityToken(token) },
  ] as const;
  const res = await ddb().send(
    new BatchGetCommand({
      RequestItems: { [T]: { Keys: candidates.map((c) => c.key), ProjectionExpression: 'pk, expiresAt, email', ConsistentRead: true } },
    }),
  );
  const found = res.Responses?.[T] ?? [];
  for (const c of candidates) {
    const item = found.find((i) => i.pk === c.key.pk);
    if (!item || isExpired(item.expiresAt as number | undefined, now)) continue;
    if (c.kind === 'coOwner' && typeof item.email === 'string' && item.email) return { kind: c.kind, invitedEmail: item.email };
    return { kind: c.kind };
  }
  return { kind: 'unknown' };
}
