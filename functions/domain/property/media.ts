/**
 * Media of the wizard: photos and videos per room, uploaded to the private bucket under
 * `{propertyId}/{roomId}/{timestamp}_{safeFileName}` (spec 000 section 3).
 */
export const MEDIA_KINDS = ['image', 'video'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

export const ONLY_MEDIA_MESSAGE = 'Sono ammessi solo immagini e video';
export const TOO_LARGE_MESSAGE = 'Il file supera i 20 MB';
export const EMPTY_FILE_MESSAGE = 'Il file è vuoto';

const CONTENT_TYPE = /^(image|video)\/[a-z0-9][a-z0-9.+-]{0,100}$/;

/** 'image' or 'video' for an accepted content type, else undefined (SVG never: it is text that can hold a script). */
export function mediaKindOf(contentType: string | null | undefined): MediaKind | undefined {
  const ct = (contentType ?? '').trim().toLowerCase();
  if (!CONTENT_TYPE.test(ct) || ct === 'image/svg+xml') return undefined;
  return ct.startsWith('image/') ? 'image' : 'video';
}

/**
 * A file name safe in an S3 key and a Content-Disposition: accents dropped, anything but
 * letters, digits, dot, dash and underscore becomes '_', at most 100 characters, the
 * extension kept (lower-case).
 */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[._-]+/, '');
  const dot = cleaned.lastIndexOf('.');
  const stem = (dot > 0 ? cleaned.slice(0, dot) : cleaned).replace(/[._-]+$/, '');
  const ext = dot > 0 ? cleaned.slice(dot + 1).toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 10) : '';
  const safeStem = (stem || 'file').slice(0, 100 - (ext ? ext.length + 1 : 0));
  return ext ? `${safeStem}.${ext}` : safeStem;
}

/** The S3 key of an upload. */
export function mediaKey(propertyId: string, roomId: string, fileName: string, timestamp: number = Date.now()): string {
  return `${propertyId}/${roomId}/${timestamp}_${safeFileName(fileName)}`;
}

const KEY = /^([0-9a-f-]{36})\/([0-9a-f-]{36})\/(\d{10,16})_([A-Za-z0-9._-]{1,100})$/;

/** Parses a key made by mediaKey; undefined if it has another shape. */
export function parseMediaKey(key: string): { propertyId: string; roomId: string; timestamp: number; fileName: string } | undefined {
  const m = KEY.exec(key);
  if (!m) return undefined;
  return { propertyId: m[1]!, roomId: m[2]!, timestamp: Number(m[3]), fileName: m[4]! };
}

/** Video extensions the agent media dialog recognises (spec 001 section 2: mp4, mov, avi, webm). */
export function isVideoFileName(name: string): boolean {
  return /\.(mp4|mov|avi|webm)$/i.test(name);
}
