/**
 * The semester manifests (keys in keys.ts, omiKeys): one item per semester naming every
 * province that received its data, the provinces an import is writing or left unfinished
 * (dirty), the jobs registered in each (`runs#{prov}`: a province is clean again when the
 * last of them is released, so a ZONE file finishing beside its VALORI file does not mark
 * the province clean under the other's writes), and the current listing index version of
 * each; and the reads over a semester and province (what it holds, every key of it).
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { chunkEntries, type IndexEntry } from '../../domain/omi/listing-index';
import { ddb, isConditionFailure, queryAll, table } from '../db';
import { omiKeys } from '../keys';
import { readIndexChunk, type IndexRef } from './index-chunks';
import { indexEntryOf, readZoneRows } from './quotations';
import type { DigestRef } from './comune-digest';
import { bumpDataState } from './data-state';

export type { IndexRef };

export interface SemesterManifest {
  semester: string;
  /** every province that ever received data of this semester (registered before writing) */
  provinces: string[];
  /** provinces an import is writing or left unfinished (their index may lag their records) */
  dirty: string[];
  /** per province, the jobs registered there and not released yet (none for a dirty province registered before jobs were named) */
  registrations: Record<string, string[]>;
  /** per province, how many registrations were ever made (registerProvince) */
  registrationCounts: Record<string, number>;
  index: Record<string, IndexRef>;
  /**
   * provinces whose every zone item of this semester is in the zones' history index (gsi2):
   * registered by their first import, or indexed afterwards (history-index.ts)
   */
  historyIndexed: string[];
  /** each province's comune digests (comune-digest.ts): none before its first import completes */
  digests: Record<string, DigestRef>;
  updatedAt: string | null;
}

/** The attribute of a province's registered jobs (a string set; DynamoDB's ADD and DELETE work on top-level attributes only). */
const RUNS_PREFIX = 'runs#';
const runsOf = (prov: string) => `${RUNS_PREFIX}${prov}`;
/** The attribute counting a province's registrations ever made: a job sees whether another registered during its run. */
const REGISTRATIONS_COUNT_PREFIX = 'regs#';
const registrationsCountOf = (prov: string) => `${REGISTRATIONS_COUNT_PREFIX}${prov}`;

function toManifest(item: Record<string, unknown>): SemesterManifest {
  return {
    semester: item.semester as string,
    provinces: [...((item.provinces as Set<string> | undefined) ?? [])].sort(),
    dirty: [...((item.dirty as Set<string> | undefined) ?? [])].sort(),
    registrations: Object.fromEntries(
      Object.entries(item)
        .filter(([name]) => name.startsWith(RUNS_PREFIX))
        .map(([name, jobs]) => [name.slice(RUNS_PREFIX.length), [...(jobs as Set<string>)].sort()]),
    ),
    registrationCounts: Object.fromEntries(
      Object.entries(item)
        .filter(([name]) => name.startsWith(REGISTRATIONS_COUNT_PREFIX))
        .map(([name, count]) => [name.slice(REGISTRATIONS_COUNT_PREFIX.length), Number(count)]),
    ),
    index: (item.index as Record<string, IndexRef> | undefined) ?? {},
    historyIndexed: [...((item.historyIndexed as Set<string> | undefined) ?? [])].sort(),
    digests: (item.digests as Record<string, DigestRef> | undefined) ?? {},
    updatedAt: (item.updatedAt as string | undefined) ?? null,
  };
}

export async function getSemester(semester: string): Promise<SemesterManifest | undefined> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: omiKeys.semester(semester), ConsistentRead: true }));
  return res.Item ? toManifest(res.Item) : undefined;
}

/** Every semester's manifest, newest first (one strongly consistent Query). */
export async function listSemesters(): Promise<SemesterManifest[]> {
  const q = omiKeys.semesters();
  const manifests: SemesterManifest[] = [];
  await queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': q.pk, ':prefix': q.skPrefix },
      ScanIndexForward: false,
      ConsistentRead: true,
    },
    (item) => {
      manifests.push(toManifest(item));
    },
  );
  return manifests;
}

/**
 * What the OMI data is now, for the valuation: the semesters, their provinces and digests and
 * the provinces whose import has not finished, read again only when the data state version
 * changes (omiDataState). `version` changes with every import's start and end, every digest
 * rebuild and every clear, so a value read under one version is still true while it is the same.
 */
export interface OmiDataState {
  version: string;
  /** an import has not finished somewhere: its records may be half written, its digests not rebuilt yet */
  importing: boolean;
  /** the semesters holding data of a province, newest first */
  semestersOf(prov: string): string[];
  /** of those, the semesters whose zone items of the province are all in the zones' history index */
  historyIndexedOf(prov: string): ReadonlySet<string>;
  /**
   * The comune digests to read a comune of the semester from (comune-digest.ts): those of its
   * own province (the form's) and of every province holding it under an old code; undefined
   * while the semester cannot be read from digests (a province of it without them, or an
   * import under way in it: a dead import elsewhere does not stop the others).
   */
  digestsOf(semester: string, comuneId: string, prov: string): { prov: string; ref: DigestRef }[] | undefined;
}

/**
 * How long manifests read under one data state version are reused: the version changes after
 * every change of a manifest (bumpDataState), so this only bounds a change whose writer died
 * between the manifest and the version.
 */
const STATE_TTL_MS = 60_000;

/** The manifests read last, with the data state version they were read under and when. */
let manifestsRead: { head: string | undefined; at: number; manifests: SemesterManifest[] } | undefined;

/**
 * Every semester's manifest, newest first, as of the current data state: one strongly
 * consistent GetItem of its version (a small item) while it stays the same, the manifests
 * themselves (one Query: with 30 national semesters ~364 KB, ~50 ms on DynamoDB Local) only
 * when it changes or every STATE_TTL_MS. Without a version item (data written before it
 * existed), every call reads the manifests. For every valuation and every page of the data.
 */
export async function currentManifests(): Promise<SemesterManifest[]> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: omiKeys.dataState(), ConsistentRead: true }));
  const head = res.Item?.v as string | undefined;
  const now = Date.now();
  if (head !== undefined && manifestsRead?.head === head && now - manifestsRead.at < STATE_TTL_MS) return manifestsRead.manifests;
  const manifests = await listSemesters();
  manifestsRead = { head, at: now, manifests };
  return manifests;
}

/** The last state built, with the manifests it was built from. */
let lastState: (OmiDataState & { manifests: SemesterManifest[] }) | undefined;

/** The state this container read last (undefined before the first read): what a valuation may start reading with while it asks for the current one. */
export const lastOmiDataState = (): OmiDataState | undefined => lastState;

/** The OMI data state, built again only when the manifests are read again (currentManifests). */
export async function omiDataState(): Promise<OmiDataState> {
  const manifests = await currentManifests();
  if (lastState?.manifests === manifests) return lastState;
  const provincesOf = manifests.map((m) => ({
    semester: m.semester,
    provinces: new Set(m.provinces),
    indexed: new Set(m.historyIndexed),
    digests: m.digests,
    dirty: m.dirty.length > 0,
  }));
  const state = {
    // every change of a manifest moves its updatedAt
    version: manifests.map((m) => `${m.semester}@${m.updatedAt ?? ''}`).join('|'),
    importing: provincesOf.some((m) => m.dirty),
    semestersOf: (prov: string) => provincesOf.filter((m) => m.provinces.has(prov)).map((m) => m.semester),
    historyIndexedOf: (prov: string) => new Set(provincesOf.filter((m) => m.provinces.has(prov) && m.indexed.has(prov)).map((m) => m.semester)),
    digestsOf: digestIndex(provincesOf),
    manifests,
  };
  lastState = state;
  return state;
}

/**
 * Where each comune of each semester that is fully digested and has no import under way is
 * read from: its province's digests, and those holding it under an old code.
 */
function digestIndex(manifests: readonly { semester: string; provinces: ReadonlySet<string>; digests: Record<string, DigestRef>; dirty: boolean }[]) {
  const semesters = new Map<string, { digests: Record<string, DigestRef>; foreign: Map<string, string[]> }>();
  for (const m of manifests) {
    if (m.dirty || ![...m.provinces].every((p) => m.digests[p])) continue;
    const foreign = new Map<string, string[]>();
    for (const [prov, ref] of Object.entries(m.digests)) for (const c of ref.f ?? []) foreign.set(c, [...(foreign.get(c) ?? []), prov]);
    semesters.set(m.semester, { digests: m.digests, foreign });
  }
  return (semester: string, comuneId: string, prov: string): { prov: string; ref: DigestRef }[] | undefined => {
    const s = semesters.get(semester);
    if (!s) return undefined;
    const provs = [prov, ...(s.foreign.get(comuneId) ?? [])].filter((p, i, all) => all.indexOf(p) === i);
    return provs.flatMap((p) => (s.digests[p] ? [{ prov: p, ref: s.digests[p] }] : []));
  };
}

/**
 * Records a province as holding data of a semester, as dirty, and `jobId` among the jobs
 * writing there, before any of its records is written (VALORI and ZONE alike; a retry of the
 * same job registers nothing new): clear then finds every record, a run after one that died
 * knows it must read the table rather than trust the listing index, and valuations do not
 * trust the comune digests until every job registered there is released (releaseProvince).
 * A province new to the semester (`fresh`: not in the manifest the run read) is
 * history-indexed from the start: every item it will hold is written with its zone-history keys.
 */
export async function registerProvince(semester: string, prov: string, jobId: string, fresh = false): Promise<{ count: number; others: string[] }> {
  const add = ['provinces :p', 'dirty :p', '#runs :job', '#regs :one', ...(fresh ? ['historyIndexed :p'] : [])];
  const res = await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: omiKeys.semester(semester),
      UpdateExpression: `SET entity = :e, semester = :s, #index = if_not_exists(#index, :empty), updatedAt = :now ADD ${add.join(', ')}`,
      ExpressionAttributeNames: { '#index': 'index', '#runs': runsOf(prov), '#regs': registrationsCountOf(prov) },
      ExpressionAttributeValues: { ':e': 'omiSemester', ':s': semester, ':empty': {}, ':now': new Date().toISOString(), ':p': new Set([prov]), ':job': new Set([jobId]), ':one': 1 },
      ReturnValues: 'ALL_NEW',
    }),
  );
  await bumpDataState();
  const runs = (res.Attributes?.[runsOf(prov)] as Set<string> | undefined) ?? new Set<string>();
  return { count: Number(res.Attributes?.[registrationsCountOf(prov)] ?? 0), others: [...runs].filter((j) => j !== jobId) };
}

/**
 * Whether a job other than the caller registered in the province since the caller's own
 * registration (whose count was `count`), or is registered there now: then the caller's
 * view of the province (read when it started) misses records, and its listing index is built
 * from the table.
 */
export async function othersRegisteredSince(semester: string, prov: string, jobId: string, count: number): Promise<boolean> {
  const res = await ddb().send(
    new GetCommand({
      TableName: table(),
      Key: omiKeys.semester(semester),
      ProjectionExpression: '#regs, #runs',
      ExpressionAttributeNames: { '#regs': registrationsCountOf(prov), '#runs': runsOf(prov) },
      ConsistentRead: true,
    }),
  );
  const runs = (res.Item?.[runsOf(prov)] as Set<string> | undefined) ?? new Set<string>();
  return Number(res.Item?.[registrationsCountOf(prov)] ?? 0) !== count || [...runs].some((j) => j !== jobId);
}

/**
 * The end of a job's writes in a province, once its comune digests (and, for VALORI, its
 * listing index) are rebuilt: its registration goes, and the last job out marks the province
 * clean, with a new data state (valuations read again what they kept). Read, then one write
 * conditioned on the registrations read (releaseRegistrations), again if they changed between.
 * Nothing to do when the job is no longer registered (the repair released it) or the
 * manifest is gone (a clear); a province registered before jobs were named (no set) is clean at once.
 */
export async function releaseProvince(semester: string, prov: string, jobId: string): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const manifest = await getSemester(semester);
    const registered = manifest?.registrations[prov];
    if (!manifest || (registered && !registered.includes(jobId))) return;
    if (await releaseRegistrations(manifest, prov, [jobId])) return;
  }
  throw new Error(`OMI province ${semester}/${prov} not released for job ${jobId}: its registrations kept changing`);
}

/**
 * The repair's end of a province that jobs which died left dirty: clean, and their
 * registrations gone, only while exactly the registrations it read are there (a job that
 * registered since is writing: false, and the province stays dirty).
 */
export function releaseAbandonedProvince(manifest: SemesterManifest, prov: string): Promise<boolean> {
  return releaseRegistrations(manifest, prov, manifest.registrations[prov] ?? []);
}

/**
 * Takes `jobs` out of a province's registrations, in one write conditioned on exactly the
 * registrations `manifest` read being there (none: no set); when none is left the province is
 * clean and the data state new. False when they changed since the read.
 */
async function releaseRegistrations(manifest: SemesterManifest, prov: string, jobs: readonly string[]): Promise<boolean> {
  const read = manifest.registrations[prov] ?? [];
  const left = read.filter((j) => !jobs.includes(j));
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: omiKeys.semester(manifest.semester),
        UpdateExpression: left.length ? 'SET updatedAt = :now DELETE #runs :jobs' : 'SET updatedAt = :now REMOVE #runs DELETE dirty :p',
        ConditionExpression: read.length
          ? ['size(#runs) = :n', ...read.map((_j, i) => `contains(#runs, :r${i})`)].join(' AND ')
          : 'attribute_exists(pk) AND attribute_not_exists(#runs)',
        ExpressionAttributeNames: { '#runs': runsOf(prov) },
        ExpressionAttributeValues: {
          ':now': new Date().toISOString(),
          ...(left.length ? { ':jobs': new Set(jobs) } : { ':p': new Set([prov]) }),
          ...(read.length ? { ':n': read.length, ...Object.fromEntries(read.map((j, i) => [`:r${i}`, j])) } : {}),
        },
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
  if (!left.length) await bumpDataState();
  return true;
}

export async function deleteSemesterManifest(semester: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: table(), Key: omiKeys.semester(semester) }));
  await bumpDataState();
}

/** A province's listing as the table holds it (a run that stopped after writing, or died, is rebuilt from this, not from its file). */
export async function listingFromTable(manifest: SemesterManifest | undefined, prov: string): Promise<IndexEntry[]> {
  const { entries } = await loadExisting(manifest, prov, 'quotations', { fromTable: true });
  return [...entries.values()].filter((e): e is IndexEntry => e !== null);
}

/**
 * What a semester and province already hold, identity -> index entry (zones: -> null), so
 * the import counts inserted/updated exactly and rebuilds the listing index:
 * - a province the semester never received: nothing;
 * - a clean province (its last import finished): its listing index, which is exactly its
 *   records (one small read);
 * - a dirty one (an import died or is running): the table itself, strongly consistent;
 * - any, with `fromTable` (a run that stops after writing rebuilds from what is stored): the table.
 */
export async function loadExisting(
  manifest: SemesterManifest | undefined,
  prov: string,
  kind: 'quotations' | 'zones',
  opts: { fromTable?: boolean } = {},
): Promise<{ entries: Map<string, IndexEntry | null>; source: 'none' | 'index' | 'table' }> {
  const entries = new Map<string, IndexEntry | null>();
  if (!manifest || !manifest.provinces.includes(prov)) return { entries, source: 'none' };
  const ref = manifest.index[prov];
  if (kind === 'quotations' && ref && !manifest.dirty.includes(prov) && !opts.fromTable) {
    const chunk = await readIndexChunk(manifest.semester, prov, ref);
    if (chunk) {
      for (const e of chunkEntries(chunk)) entries.set(omiKeys.quotationIdentity(e), e);
      return { entries, source: 'index' };
    }
  }
  const prefix = kind === 'quotations' ? omiKeys.quotationSkPrefix : omiKeys.zoneSkPrefix;
  await Promise.all(
    omiKeys.semesterProvince(manifest.semester, prov).map((q) =>
      queryAll(
        {
          TableName: table(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': q.pk, ':prefix': prefix },
          ProjectionExpression: kind === 'quotations' ? 'sk, #rows' : 'sk',
          ExpressionAttributeNames: kind === 'quotations' ? { '#rows': 'rows' } : undefined,
          ConsistentRead: true,
        },
        (item) => {
          if (kind === 'zones') {
            entries.set(item.sk as string, null);
            return;
          }
          for (const row of readZoneRows(item)) entries.set(omiKeys.quotationIdentity(row), indexEntryOf(row));
        },
      ),
    ),
  );
  return { entries, source: 'table' };
}

/** Every key stored for a semester and province (clear), one shard at a time. */
export function forEachKeyOf(semester: string, prov: string, onKey: (key: { pk: string; sk: string }) => Promise<void>): Promise<void> {
  return forEachKeyIn(omiKeys.semesterProvince(semester, prov), onKey);
}

/** Every key of the given partitions, one partition at a time, read strongly consistent before any `onKey` (which may delete them). */
export async function forEachKeyIn(partitions: readonly { pk: string }[], onKey: (key: { pk: string; sk: string }) => Promise<void>): Promise<void> {
  for (const q of partitions) {
    const keys: { pk: string; sk: string }[] = [];
    await queryAll(
      {
        TableName: table(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': q.pk },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
      },
      (item) => {
        keys.push({ pk: item.pk as string, sk: item.sk as string });
      },
    );
    for (const k of keys) await onKey(k);
  }
}
