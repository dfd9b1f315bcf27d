/**
 * The listing index chunk items (keys in keys.ts, omiKeys): per (semester, province) and
 * version, the chunk of domain/omi/listing-index.ts as columnar JSON, deflated, split in
 * parts below DynamoDB's 400 KB item limit (a national semester is ~107 chunks of a few KB
 * each). The semester manifest (semesters.ts) names each province's current version.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { buildChunk, type IndexChunk, type IndexEntry } from '../../domain/omi/listing-index';
import { comuneSearchKey } from '../../domain/omi/names';
import { batchGet } from '../batch-get';
import { BatchWriter } from '../batch-writer';
import { ddb, isConditionFailure, table } from '../db';
import { omiKeys } from '../keys';
import { bumpDataState } from './data-state';

export const MAX_PART_BYTES = 350_000;

/** The manifest's pointer to the current listing index of a (semester, province). */
export interface IndexRef {
  /** version id of the chunk */
  v: string;
  parts: number;
  /** records (quotations) of the (semester, province) */
  rows: number;
  /** zone-quotations items holding them */
  zones?: number;
  /** when the reads it was built from started (ms): a listing built from earlier reads never replaces it */
  b?: number;
}

export function encodeChunk(chunk: IndexChunk): Buffer[] {
  const json = JSON.stringify({
    v: 1,
    s: chunk.semester,
    p: chunk.prov,
    c: chunk.comuni,
    z: chunk.zoneLinks,
    zn: chunk.zoneNames,
    zc: Array.from(chunk.zoneComune),
    rz: Array.from(chunk.rowZone),
    rt: Array.from(chunk.rowCodTip),
    rs: Array.from(chunk.rowStato),
  });
  const packed = deflateRawSync(Buffer.from(json, 'utf8'), { level: 6 });
  const parts: Buffer[] = [];
  for (let i = 0; i < packed.length; i += MAX_PART_BYTES) parts.push(packed.subarray(i, i + MAX_PART_BYTES));
  return parts.length ? parts : [packed];
}

export function decodeChunk(parts: readonly Uint8Array[]): IndexChunk {
  const raw = JSON.parse(inflateRawSync(Buffer.concat(parts.map((p) => Buffer.from(p)))).toString('utf8')) as {
    s: string; p: string; c: string[]; z: string[]; zn: string[]; zc: number[]; rz: number[]; rt: number[]; rs: number[];
  };
  return {
    semester: raw.s,
    prov: raw.p,
    comuni: raw.c,
    comuneKeys: raw.c.map(comuneSearchKey),
    zoneLinks: raw.z,
    zoneNames: raw.zn,
    zoneComune: Uint32Array.from(raw.zc),
    rowZone: Uint32Array.from(raw.rz),
    rowCodTip: Uint8Array.from(raw.rt),
    rowStato: Uint8Array.from(raw.rs),
    size: raw.rz.length,
  };
}

/**
 * Writes the listing index of a semester and province under a new version, then points the
 * manifest at it, unless a version built from later reads is already there (`builtAt`: when
 * the reads `entries` come from started; then this version is deleted and the one in place
 * returned), then deletes the previous version (readers that still hold the old manifest retry
 * once). The province stays dirty until its import releases it (semesters.ts
 * releaseProvince): readers use this index only then.
 */
export async function writeIndexChunk(semester: string, prov: string, entries: Iterable<IndexEntry>, version: string, builtAt = Date.now()): Promise<IndexRef> {
  const chunk = buildChunk(semester, prov, entries);
  const parts = encodeChunk(chunk);
  await Promise.all(
    parts.map((data, part) =>
      ddb().send(new PutCommand({ TableName: table(), Item: { ...omiKeys.indexChunk(semester, prov, version, part), entity: 'omiIndexChunk', data } })),
    ),
  );
  const ref: IndexRef = { v: version, parts: parts.length, rows: chunk.size, zones: chunk.zoneLinks.length, b: builtAt };
  let res;
  try {
    res = await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: omiKeys.semester(semester),
        UpdateExpression: 'SET #index.#prov = :ref, updatedAt = :now',
        ConditionExpression: 'attribute_not_exists(#index.#prov) OR attribute_not_exists(#index.#prov.#b) OR #index.#prov.#b <= :b',
        ExpressionAttributeNames: { '#index': 'index', '#prov': prov, '#b': 'b' },
        ExpressionAttributeValues: { ':ref': ref, ':now': new Date().toISOString(), ':b': builtAt },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // a listing built from later reads is in place: this one is not needed
    await deleteIndexParts(semester, prov, ref);
    return ref;
  }
  await bumpDataState();
  const old = (res.Attributes?.index as Record<string, IndexRef> | undefined)?.[prov];
  if (old && old.v !== version) await deleteIndexParts(semester, prov, old);
  return ref;
}

/** Deletes one version of a listing index: BatchWriter, so UnprocessedItems are sent again with backoff until none is left. */
export async function deleteIndexParts(semester: string, prov: string, ref: IndexRef): Promise<void> {
  const writer = new BatchWriter(ddb(), table(), { concurrency: 4 });
  for (let part = 0; part < ref.parts; part++) await writer.delete(omiKeys.indexChunk(semester, prov, ref.v, part));
  await writer.flush();
}

/** A (semester, province) listing index chunk, read strongly consistent, or undefined when that version is gone. */
export async function readIndexChunk(semester: string, prov: string, ref: IndexRef): Promise<IndexChunk | undefined> {
  const [chunk] = await readIndexChunks([{ semester, prov, ref }], { consistent: true });
  return chunk;
}

/**
 * Several listing index chunks in one BatchGetItem of all their parts, in the order asked;
 * undefined for a chunk whose version is gone (replaced meanwhile: reload the manifests).
 */
export async function readIndexChunks(
  wanted: readonly { semester: string; prov: string; ref: IndexRef }[],
  opts: { consistent?: boolean } = {},
): Promise<(IndexChunk | undefined)[]> {
  const partKeys = (w: { semester: string; prov: string; ref: IndexRef }) =>
    Array.from({ length: w.ref.parts }, (_, part) => omiKeys.indexChunk(w.semester, w.prov, w.ref.v, part));
  const got = await batchGet(wanted.flatMap(partKeys), opts.consistent ? { consistent: true } : {});
  return wanted.map((w) => {
    const parts: Uint8Array[] = [];
    for (const k of partKeys(w)) {
      const item = got.get(`${k.pk}|${k.sk}`);
      if (!item) return undefined;
      parts.push(item.data as Uint8Array);
    }
    return decodeChunk(parts);
  });
}
