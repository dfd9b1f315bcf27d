/**
 * Limits of the submission (spec 000 sections 5 and 9, docs/architecture.md, file).
 *
 * One submission is written in ONE DynamoDB transaction, which takes at most 100 items:
 * property + invitation + lead e-mail outbox + first valuation + the requests counter = 5,
 * so rooms + media must stay within 95: at most 20 rooms and 75 photos/videos in all.
 */
import { MEDIA_MAX_BYTES, MEDIA_UPLOAD_TTL_SECONDS, megabytes } from '../uploads';

/** A photo or video: at most 20 MB (the one constant is MEDIA_MAX_BYTES in domain/uploads.ts). */
export const MAX_UPLOAD_BYTES = MEDIA_MAX_BYTES;
export const MAX_UPLOAD_MB = megabytes(MEDIA_MAX_BYTES);
export const MAX_ROOMS = 20;
export const MAX_MEDIA = 75;
export const TRANSACTION_MAX_ITEMS = 100;
/** items besides rooms and media: property, invitation, outbox, valuation, requests counter */
export const FIXED_SUBMISSION_ITEMS = 5;

/** Build year options: the current year back 125 years (125 options, spec 000 section 9). */
export const BUILD_YEAR_OPTIONS_COUNT = 125;

export const MAX_NOTES_LENGTH = 2000;
export const MAX_TEXT_LENGTH = 500;
export const MAX_AMOUNT = 1_000_000_000;
export const MAX_SURFACE = 100_000;

/** Presigned upload forms expire after this many seconds. */
export const UPLOAD_URL_TTL_SECONDS = MEDIA_UPLOAD_TTL_SECONDS;

/** Anonymous abuse protection: requests per client IP per fixed window. */
export const RATE_LIMITS = {
  submission: { limit: 10, windowSeconds: 3600 },
  upload: { limit: 300, windowSeconds: 3600 },
} as const;
export type RateLimitScope = keyof typeof RATE_LIMITS;

/** Honeypot field of the submission body: hidden to people, filled by bots. */
export const HONEYPOT_FIELD = 'website';

/** Build years offered: current year first, back 125 years. */
export function buildYearOptions(now: Date = new Date()): number[] {
  const year = now.getFullYear();
  return Array.from({ length: BUILD_YEAR_OPTIONS_COUNT }, (_, i) => year - i);
}

export function buildYearRange(now: Date = new Date()): { min: number; max: number } {
  const max = now.getFullYear();
  return { min: max - (BUILD_YEAR_OPTIONS_COUNT - 1), max };
}
