/**
 * An import reads exactly the object its S3 event announced, or fails: the event's size
 * and ETag are the object as uploaded; what GetObject returns, and then the bytes the
 * stream delivers, are compared with them.
 *
 * ETag: for a single-part upload (PUT, browser POST) S3's ETag is the MD5 of the body,
 * 32 hex digits (quoted in headers: the quotes are dropped). A multipart upload's ETag is
 * `<hex>-<parts>`, the MD5 of the parts' MD5s: the body's MD5 says nothing about it, so
 * then only the size is checked.
 */
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { formatNumber } from '../domain/format';

/** What the event says of the object. */
export interface ExpectedObject {
  size?: number | null;
  etag?: string | null;
}

/** The ETag without quotes, lower case; '' when absent. */
export function normalizeEtag(etag: string | null | undefined): string {
  return (etag ?? '').replace(/"/g, '').trim().toLowerCase();
}

/** A single-part ETag: the body's MD5 (a multipart one, `<hex>-<n>`, is not). */
export function isMd5Etag(etag: string | null | undefined): boolean {
  return /^[0-9a-f]{32}$/.test(normalizeEtag(etag));
}

const RELOAD = 'Ricarica il file.';

/**
 * Before any row is read (nothing written yet): the object GetObject opened is not the one
 * the event announced (fewer bytes: still being written, or another upload replaced it).
 * Null when it is, as far as the response tells.
 */
export function openedObjectMismatch(expected: ExpectedObject, opened: { contentLength?: number | null; etag?: string | null }): string | null {
  const size = expected.size ?? null;
  const length = opened.contentLength ?? null;
  if (size !== null && length !== null && size !== length) {
    return `Il file letto non corrisponde a quello caricato (disponibili ${formatNumber(length)} byte su ${formatNumber(size)}): nessun dato è stato modificato. ${RELOAD}`;
  }
  const want = normalizeEtag(expected.etag);
  const got = normalizeEtag(opened.etag);
  if (want && got && want !== got) {
    return `Il file letto non corrisponde a quello caricato (contenuto diverso da quello caricato): nessun dato è stato modificato. ${RELOAD}`;
  }
  return null;
}

/**
 * After the last byte (rows were written while streaming): the bytes the stream delivered
 * are not the object announced. Null when they are.
 */
export function readBytesMismatch(expected: ExpectedObject, read: { bytes: number; md5: string }): string | null {
  const size = expected.size ?? null;
  const md5Differs = isMd5Etag(expected.etag) && normalizeEtag(expected.etag) !== read.md5;
  if ((size === null || size === read.bytes) && !md5Differs) return null;
  const detail = size !== null && size !== read.bytes ? `letti ${formatNumber(read.bytes)} byte su ${formatNumber(size)}` : 'impronta MD5 diversa';
  return (
    `Il file letto non corrisponde a quello caricato (${detail}): l'importazione è stata interrotta, ` +
    `ma alcune zone potrebbero essere già state riscritte. ${RELOAD}`
  );
}

/**
 * A pass-through that counts and hashes (MD5) the bytes as the parser pulls them: no
 * second read of the object.
 */
export class CountingHash extends Transform {
  private readonly hash: Hash = createHash('md5');
  private digest: string | undefined;
  bytes = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    cb(null, chunk);
  }

  /** The MD5 of every byte that went through (hex); call once the stream has ended. */
  md5(): string {
    this.digest ??= this.hash.digest('hex');
    return this.digest;
  }
}
