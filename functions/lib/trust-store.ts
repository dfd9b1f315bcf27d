import { createHash } from 'node:crypto';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from './aws/s3';
import { requireConfig } from './config';
import { logger } from './logger';
import { listMediaKeys, mapLimit, readMediaBytes } from './media-storage';
import { VersionedCache } from './versioned-cache';

/**
 * The trust anchors of the signature checks (functions/lib/digital-signature.ts): the
 * certificates (DER) of the qualified CAs, kept in the private media bucket under `trust/`,
 * a prefix no upload form can sign (upload keys start with a property id):
 * - `trust/anchors/{sha256 hex of the DER}.cer`: one object per anchor, named by its bytes,
 *   so writing one is idempotent and a refresh only puts what is new;
 * - `trust/list.json`: where the last refresh took them from (TrustListRecord).
 * functions/system/refresh-trusted-list.ts replaces them daily from the trusted list;
 * addTrustAnchor registers one more (the local seed and the tests: a test CA), which the
 * next refresh removes again unless the list has it.
 */

export const TRUST_PREFIX = 'trust/';
export const TRUST_ANCHORS_PREFIX = `${TRUST_PREFIX}anchors/`;
export const TRUST_LIST_KEY = `${TRUST_PREFIX}list.json`;
/** how long a container reuses the anchors it read */
export const TRUST_ANCHORS_CACHE_MS = 60_000;

const ANCHOR_KEY = /^trust\/anchors\/([0-9a-f]{64})\.cer$/;
// S3 calls in flight at once (a first refresh puts a few hundred anchors)
const CONCURRENCY = 16;

/** Where the anchors of the last refresh come from. */
export interface TrustListMeta {
  /** the trusted list's URL */
  source: string;
  fetchedAt: string;
  sequenceNumber: number | null;
  nextUpdate: string | null;
  issuedAt?: string | null;
  territory?: string | null;
}

/** `trust/list.json` */
export interface TrustListRecord extends TrustListMeta {
  /** anchors the list gave */
  count: number;
}

export const sha256Hex = (der: Uint8Array): string => createHash('sha256').update(der).digest('hex');

export const trustAnchorKeyOf = (der: Uint8Array): string => `${TRUST_ANCHORS_PREFIX}${sha256Hex(der)}.cer`;

const cache = new VersionedCache<Uint8Array[]>(1, TRUST_ANCHORS_CACHE_MS);

/**
 * The trust anchors (DER), as this container read them at most TRUST_ANCHORS_CACHE_MS ago;
 * `fresh`: read them now. An object whose bytes do not hash to its name is left out.
 * IAM: media ListBucket, GetObject.
 */
export async function loadTrustAnchors(opts: { fresh?: boolean } = {}): Promise<Uint8Array[]> {
  if (opts.fresh) cache.clear();
  return [...(await cache.get('anchors', '', readAnchors))];
}

async function readAnchors(): Promise<Uint8Array[]> {
  const keys = (await listMediaKeys(TRUST_ANCHORS_PREFIX)).filter((k) => ANCHOR_KEY.test(k)).sort();
  const read = await mapLimit(keys, CONCURRENCY, async (Key) => {
    const der = await readMediaBytes(Key);
    if (!der) return undefined; // deleted since the listing (a refresh running)
    if (trustAnchorKeyOf(der) !== Key) {
      logger.warn('Trust anchor left out: its bytes do not match its name', { key: Key });
      return undefined;
    }
    return der;
  });
  return read.filter((d): d is Uint8Array => d !== undefined);
}

/**
 * Makes `certsDer` the anchors: puts those not stored yet, deletes those no longer among
 * them (any other object under trust/anchors/ too, test CAs included), then writes
 * trust/list.json. A failed call throws; what it already did is a consistent subset that
 * the next call completes. IAM: media ListBucket, PutObject, DeleteObject.
 */
export async function replaceTrustAnchors(certsDer: readonly Uint8Array[], meta: TrustListMeta): Promise<{ record: TrustListRecord; added: number; removed: number }> {
  const Bucket = requireConfig('MEDIA_BUCKET');
  const wanted = new Map(certsDer.map((der) => [trustAnchorKeyOf(der), der] as const));
  const stored = new Set(await listMediaKeys(TRUST_ANCHORS_PREFIX));
  const toPut = [...wanted].filter(([key]) => !stored.has(key));
  const toDelete = [...stored].filter((key) => !wanted.has(key));
  // new anchors first: a failure in between leaves the old and the new ones, never neither
  await mapLimit(toPut, CONCURRENCY, ([Key, der]) => putAnchor(Bucket, Key, der));
  await mapLimit(toDelete, CONCURRENCY, (Key) => s3().send(new DeleteObjectCommand({ Bucket, Key })));
  const record: TrustListRecord = { ...meta, count: wanted.size };
  await s3().send(new PutObjectCommand({ Bucket, Key: TRUST_LIST_KEY, Body: JSON.stringify(record, null, 2), ContentType: 'application/json' }));
  cache.clear();
  return { record, added: toPut.length, removed: toDelete.length };
}

/**
 * Registers one more anchor (idempotent: the key is the hash of its bytes); the key written.
 * trust/list.json is not touched: it describes the last refresh. IAM: media PutObject.
 */
export async function addTrustAnchor(der: Uint8Array): Promise<string> {
  const Key = trustAnchorKeyOf(der);
  await putAnchor(requireConfig('MEDIA_BUCKET'), Key, der);
  cache.clear();
  return Key;
}

/**
 * trust/list.json, or undefined before the first refresh. Listed before it is read: the
 * refresh may list only under `trust/` (a prefix-conditioned ListBucket), and whether S3 then
 * answers a GetObject of a missing key with 404 rather than 403 is not documented.
 * IAM: media ListBucket, GetObject.
 */
export async function readTrustList(): Promise<TrustListRecord | undefined> {
  if (!(await listMediaKeys(TRUST_LIST_KEY)).includes(TRUST_LIST_KEY)) return undefined;
  const bytes = await readMediaBytes(TRUST_LIST_KEY);
  return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as TrustListRecord) : undefined;
}

async function putAnchor(Bucket: string, Key: string, der: Uint8Array): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket, Key, Body: der, ContentType: 'application/pkix-cert' }));
}

