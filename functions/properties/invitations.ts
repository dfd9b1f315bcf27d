import { randomBytes } from 'node:crypto';
import { config } from '../lib/config';

/** An unguessable link token: 144 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(18).toString('base64url');
}

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,64}$/;

/** Epoch seconds at which a token made now expires (TOKEN_TTL_DAYS, default 30). */
export function tokenExpiry(now = Date.now()): number {
  return Math.floor(now / 1000) + config().TOKEN_TTL_DAYS * 86_400;
}

export function isExpired(expiresAt: number | undefined, now = Date.now()): boolean {
  return expiresAt === undefined || expiresAt * 1000 <= now;
}
