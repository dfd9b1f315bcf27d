/**
 * DynamoDB keys, defined once per entity. No handler builds a key string: it calls these.
 *
 * | entity            | pk                  | sk           | gsi1 (pk / sk)                  | gsi2 (pk / sk)          |
 * |-------------------|---------------------|--------------|---------------------------------|-------------------------|
 * | profile           | USER#{sub}          | PROFILE      | PROFILES / {name}#{sub}         |                         |
 * | property          | PROPERTY#{id}       | PROPERTY     | SELLER#{userId} / {createdAt}   | PROPERTIES / {createdAt}|
 * | invitation token  | INVITE#{token}      | INVITE       |                                 |                         |
 * | room              | PROPERTY#{id}       | ROOM#{roomId}|                                 |                         |
 * | room media        | PROPERTY#{id}       | MEDIA#{roomId}#{mediaId} |                     |                         |
 * | valuation         | PROPERTY#{id}       | VALUATION#{createdAt}    |                     |                         |
 * | mail outbox       | OUTBOX#{id}         | OUTBOX       | gsi3: OUTBOX#PENDING / {nextAttemptAt}#{id} (sparse: only while pending) |
 * | rate-limit window | RATE#{scope}#{client} | WINDOW#{windowStart} | (expiresAt = TTL)     |                         |
 * | OMI entities      | see the OMI table below (omiKeys)                                                          |
 *
 * A property's dossier (rooms, media, valuations, ...) lives under the same pk with
 * its own sk prefix, so one Query returns it whole.
 */
export const keys = {
  profile: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  profileIndex: (fullName: string, userId: string) => ({
    gsi1pk: 'PROFILES',
    gsi1sk: `${normalizeForSort(fullName)}#${userId}`,
  }),
  allProfiles: () => ({ index: 'gsi1' as const, pk: 'PROFILES' }),

  property: (propertyId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: 'PROPERTY' }),
  propertyDossier: (propertyId: string) => ({ pk: `PROPERTY#${propertyId}` }),
  propertyIndexes: (p: { userId?: string | null; createdAt: string }) => ({
    ...(p.userId ? { gsi1pk: `SELLER#${p.userId}`, gsi1sk: p.createdAt } : {}),
    gsi2pk: 'PROPERTIES',
    gsi2sk: p.createdAt,
  }),
  sellerIndex: (userId: string, createdAt: string) => ({ gsi1pk: `SELLER#${userId}`, gsi1sk: createdAt }),
  propertiesOfSeller: (userId: string) => ({ index: 'gsi1' as const, pk: `SELLER#${userId}` }),
  allProperties: () => ({ index: 'gsi2' as const, pk: 'PROPERTIES' }),

  invitation: (token: string) => ({ pk: `INVITE#${token}`, sk: 'INVITE' }),

  room: (propertyId: string, roomId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `ROOM#${roomId}` }),
  media: (propertyId: string, roomId: string, mediaId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `MEDIA#${roomId}#${mediaId}` }),
  /** ISO createdAt: a property's valuations sort oldest first; the latest is the last */
  valuation: (propertyId: string, createdAt: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `VALUATION#${createdAt}` }),
  dossierPrefixes: { room: 'ROOM#', media: 'MEDIA#', valuation: 'VALUATION#' } as const,

  /** a mail to send, written in the same transaction as what caused it (transactional outbox) */
  outbox: (id: string) => ({ pk: `OUTBOX#${id}`, sk: 'OUTBOX' }),
  outboxPendingIndex: (nextAttemptAt: string, id: string) => ({ gsi3pk: 'OUTBOX#PENDING', gsi3sk: `${nextAttemptAt}#${id}` }),
  pendingOutbox: () => ({ index: 'gsi3' as const, pk: 'OUTBOX#PENDING' }),

  /** fixed-window request counter of one client (hashed IP) for one scope */
  rateLimit: (scope: string, client: string, windowStart: number) => ({ pk: `RATE#${scope}#${client}`, sk: `WINDOW#${windowStart}` }),
};

/** Lower-case, accent-free text for sort keys and searches. */
export function normalizeForSort(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

/**
 * OMI market data (issue 3). A quotation record is one (semester, LinkZona, Cod_Tip, Stato)
 * (ARCHITECTURE section 8); its key is made of exactly those, so re-importing a file
 * overwrites the same items (idempotent: a re-run after a crash converges) and another
 * semester adds history. `{stato}` is `-` when the file leaves Stato empty; `{comune}` is
 * `comuneSearchKey` (case/accent/apostrophe-insensitive); `{shard}` = 0..7 from LinkZona.
 *
 * | item                 | pk                       | sk                          | gsi1 (pk / sk)                                          | gsi2 (pk / sk)                                     | gsi3 (pk / sk)          |
 * |----------------------|--------------------------|-----------------------------|---------------------------------------------------------|----------------------------------------------------|-------------------------|
 * | quotation            | OMIQ#{linkZona}          | Q#{codTip}#{stato}#{sem}    | OMIV#{prov}#{comune}#{codTip} / {sem}#{linkZona}#{stato} | OMIS#{sem}#{prov}#{shard} / Q#{linkZona}#{codTip}#{stato} |                 |
 * | zone description     | OMIQ#{linkZona}          | ZONE#{sem}                  | OMIZ#{prov}#{comune} / {sem}#{linkZona}                 | OMIS#{sem}#{prov}#{shard} / Z#{linkZona}           |                         |
 * | semester manifest    | OMI#META                 | SEM#{sem}                   |                                                         |                                                    |                         |
 * | listing index chunk  | OMIIDX#{sem}#{prov}      | {version}#{part}            |                                                         |                                                    |                         |
 * | import / clear job   | OMIJOB#{jobId}           | JOB                         |                                                         |                                                    | OMIJOBS / {createdAt}#{jobId} |
 *
 * Access patterns:
 * - valuation: gsi1 OMIV#{prov}#{comune}#{codTip}, newest first (ScanIndexForward false), stop
 *   after the newest usable semester; the comune's zone descriptions: gsi1 OMIZ#{prov}#{comune};
 *   the chosen zone's history: pk OMIQ#{linkZona}, sk begins_with Q#{codTip}#.
 * - all records of a semester and province (import: existing keys for exact inserted/updated
 *   counts and the listing index; clear: what to delete): gsi2 OMIS#{sem}#{prov}#{0..7},
 *   sk begins_with Q# (quotations) or Z# (zones). Sharded so a national import never
 *   writes more than ~1/8 of a province to one GSI partition key.
 * - OMI data page: the semester manifests (one Query of OMI#META) name the provinces and
 *   the current version of each (semester, province) index chunk: compressed, compact rows
 *   (comune, zone, type, state) that the listing filters in memory (and caches per warm
 *   Lambda by version) for the exact total, then BatchGets the 50 records of the page.
 * - import progress: GetItem OMIJOB#{jobId}; recent jobs: gsi3 OMIJOBS, newest first.
 */
export const OMI_SHARDS = 8;

function omiShard(linkZona: string): number {
  let h = 2166136261;
  for (let i = 0; i < linkZona.length; i++) h = Math.imul(h ^ linkZona.charCodeAt(i), 16777619);
  return (h >>> 0) % OMI_SHARDS;
}

const omiStato = (stato: string | null | undefined) => (stato ? stato : '-');

export const omiKeys = {
  quotation: (q: { linkZona: string; codTip: number; stato: string | null; semester: string }) => ({
    pk: `OMIQ#${q.linkZona}`,
    sk: `Q#${q.codTip}#${omiStato(q.stato)}#${q.semester}`,
  }),
  quotationIndexes: (q: { prov: string; comuneKey: string; linkZona: string; codTip: number; stato: string | null; semester: string }) => ({
    gsi1pk: `OMIV#${q.prov}#${q.comuneKey}#${q.codTip}`,
    gsi1sk: `${q.semester}#${q.linkZona}#${omiStato(q.stato)}`,
    gsi2pk: `OMIS#${q.semester}#${q.prov}#${omiShard(q.linkZona)}`,
    gsi2sk: `Q#${q.linkZona}#${q.codTip}#${omiStato(q.stato)}`,
  }),
  /** valuation candidates: every semester, newest first with ScanIndexForward false */
  quotationsOfComune: (prov: string, comuneKey: string, codTip: number) => ({ index: 'gsi1' as const, pk: `OMIV#${prov}#${comuneKey}#${codTip}` }),
  /** a zone's quotations of one type, every state and semester */
  zoneHistory: (linkZona: string, codTip: number) => ({ pk: `OMIQ#${linkZona}`, skPrefix: `Q#${codTip}#` }),

  zone: (z: { linkZona: string; semester: string }) => ({ pk: `OMIQ#${z.linkZona}`, sk: `ZONE#${z.semester}` }),
  zoneIndexes: (z: { prov: string; comuneKey: string; linkZona: string; semester: string }) => ({
    gsi1pk: `OMIZ#${z.prov}#${z.comuneKey}`,
    gsi1sk: `${z.semester}#${z.linkZona}`,
    gsi2pk: `OMIS#${z.semester}#${z.prov}#${omiShard(z.linkZona)}`,
    gsi2sk: `Z#${z.linkZona}`,
  }),
  zonesOfComune: (prov: string, comuneKey: string) => ({ index: 'gsi1' as const, pk: `OMIZ#${prov}#${comuneKey}` }),

  /** every record of a semester and province: one Query per shard */
  semesterProvinceShards: (semester: string, prov: string) =>
    Array.from({ length: OMI_SHARDS }, (_, shard) => ({ index: 'gsi2' as const, pk: `OMIS#${semester}#${prov}#${shard}` })),
  quotationSkPrefix: 'Q#',
  zoneSkPrefix: 'Z#',
  /** identity of a record inside a semester and province (as in gsi2sk) */
  quotationIdentity: (q: { linkZona: string; codTip: number; stato: string | null }) => `Q#${q.linkZona}#${q.codTip}#${omiStato(q.stato)}`,
  zoneIdentity: (z: { linkZona: string }) => `Z#${z.linkZona}`,

  semester: (semester: string) => ({ pk: 'OMI#META', sk: `SEM#${semester}` }),
  semesters: () => ({ pk: 'OMI#META', skPrefix: 'SEM#' }),

  indexChunk: (semester: string, prov: string, version: string, part: number) => ({
    pk: `OMIIDX#${semester}#${prov}`,
    sk: `${version}#${part}`,
  }),

  job: (jobId: string) => ({ pk: `OMIJOB#${jobId}`, sk: 'JOB' }),
  jobIndex: (createdAt: string, jobId: string) => ({ gsi3pk: 'OMIJOBS', gsi3sk: `${createdAt}#${jobId}` }),
  recentJobs: () => ({ index: 'gsi3' as const, pk: 'OMIJOBS' }),
};
