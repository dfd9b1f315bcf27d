import { randomBytes } from 'node:crypto';
import { config } from '../lib/config';
import { keys } from './keys';

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
  const expiresAt = tokenExpiry(now);
  return { expiresAt, ...keys.tokenExpiryIndex(expiresAt) };
}

export function isExpired(expiresAt: number | undefined, now = Date.now()): boolean {
  return expiresAt === undefined || expiresAt * 1000 <= now;
}
