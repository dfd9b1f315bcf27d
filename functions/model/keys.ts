/**
 * DynamoDB keys, defined once per entity. No handler builds a key string: it calls these.
 *
 * | entity            | pk                  | sk           | gsi1 (pk / sk)                  | gsi2 (pk / sk)          |
 * |-------------------|---------------------|--------------|---------------------------------|-------------------------|
 * | profile           | USER#{sub}          | PROFILE      | PROFILES / {name}#{sub}         |                         |
 * | property          | PROPERTY#{id}       | PROPERTY     | SELLER#{userId} / {createdAt}   | PROPERTIES / {createdAt}|
 * |   (came from a source link) ...                    gsi3: SOURCE#{sourceId} / {createdAt} (sparse: only with a sourceId) |
 * | invitation token  | INVITE#{token}      | INVITE       |                                 |                         |
 * | co-owner invite   | COINVITE#{token}    | COINVITE     | (propertyId, coOwnerId; expiresAt = TTL)                  |
 * | availability link | AVAIL#{token}       | AVAIL        | (propertyId, optionId; expiresAt = TTL)                   |
 * |   (every link token above) ...                     gsi3: TOKENS#EXPIRY / {expiresAt as ISO} (sparse: tokens made since the reminders job) |
 * | room              | PROPERTY#{id}       | ROOM#{roomId}|                                 |                         |
 * | room media        | PROPERTY#{id}       | MEDIA#{roomId}#{mediaId} |                     |                         |
 * | valuation         | PROPERTY#{id}       | VALUATION#{createdAt}    |                     |                         |
 * | purchase option   | PROPERTY#{id}       | OPTION       | OPTION#{optionId} / OPTION      | OPTIONS / {createdAt}#{id} |
 * | seller identity   | PROPERTY#{id}       | IDENTITY     |                                 | IDREVIEWS / {checkedAt}#{id} (only in review) |
 * | co-owner          | PROPERTY#{id}       | COOWNER#{coOwnerId}      |                     |                         |
 * | delegation        | PROPERTY#{id}       | DELEGATION#{type}        |                     |                         |
 * | availability slot | PROPERTY#{id}       | SLOT#{yyyy-MM-dd}#{slotId} | (date, start, end HH:mm, isBooked) |          |
 * | monthly quota     | PROPERTY#{id}       | QUOTA#{yyyy}-{MM}        | (year, month, slotsCount, quotaReached, version) |  |
 * | document          | PROPERTY#{id}       | DOCUMENT#{documentId}    |                     |                         |
 * | agent request     | PROPERTY#{id}       | AGENTREQ#{agentId} | AGENTREQS#{agentId} / {createdAt}#{propertyId} | AGENTREQ_STATUS#{status} / {createdAt}#{propertyId}#{agentId} (sparse: only pending, payment_pending) |
 * |   (one per option and agent) ...                   gsi3: AGENTREQ#{requestId} / AGENTREQ (the request by its id)      |
 * |   option in an agent's charge ...                  on the OPTION item, gsi3: AGENTOPTIONS#{agentId} / {assignedAt}#{propertyId} (once paid) |
 * | mail outbox       | OUTBOX#{id}         | OUTBOX       | gsi3: OUTBOX#PENDING / {nextAttemptAt}#{id} (sparse: only while pending) |
 * | requests counter  | STATS#PROPERTIES    | COUNT        | (count: every request not being deleted) |          |
 * | lead source       | SOURCE#{id}         | SOURCE       |                                 | SOURCES / {createdAt}#{id} |
 * | rate-limit window | RATE#{scope}#{client} | WINDOW#{windowStart} | (expiresAt = TTL)     |                         |
 * | visit             | PROPERTY#{id}       | VISIT#{visitId} | AGENTVISITS#{agentId} / {date}T{start}#{propertyId}#{id} | gsi3: VISITS#{date} / {start}#{propertyId}#{id} (sparse: only booked) |
 * | activity entry    | PROPERTY#{id} or USER#{sub} | ACTIVITY#{at}#{id} |                     | ACTIVITY / {at}#{id}    |
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
  /** the property id of an item under a property's pk, or null for any other pk */
  propertyIdOf: (pk: unknown): string | null => (typeof pk === 'string' && pk.startsWith('PROPERTY#') ? pk.slice('PROPERTY#'.length) : null),
  propertyIndexes: (p: { userId?: string | null; sourceId?: string | null; createdAt: string }) => ({
    ...(p.userId ? { gsi1pk: `SELLER#${p.userId}`, gsi1sk: p.createdAt } : {}),
    gsi2pk: 'PROPERTIES',
    gsi2sk: p.createdAt,
    ...(p.sourceId ? { gsi3pk: `SOURCE#${p.sourceId}`, gsi3sk: p.createdAt } : {}),
  }),
  sellerIndex: (userId: string, createdAt: string) => ({ gsi1pk: `SELLER#${userId}`, gsi1sk: createdAt }),
  propertiesOfSeller: (userId: string) => ({ index: 'gsi1' as const, pk: `SELLER#${userId}` }),
  allProperties: () => ({ index: 'gsi2' as const, pk: 'PROPERTIES' }),
  /**
   * How many requests exist (Dashboard Admin's total without a search): +1 in the submission's
   * transaction, -1 in the one that marks a request deleted.
   */
  requestCount: () => ({ pk: 'STATS#PROPERTIES', sk: 'COUNT' }),
  /** the properties submitted through a source's link (count them with Select COUNT) */
  propertiesOfSource: (sourceId: string) => ({ index: 'gsi3' as const, pk: `SOURCE#${sourceId}` }),

  /** a lead source (Gestione Fonti); its link is the site origin plus `?id={id}` */
  source: (sourceId: string) => ({ pk: `SOURCE#${sourceId}`, sk: 'SOURCE' }),
  sourceIndex: (createdAt: string, sourceId: string) => ({ gsi2pk: 'SOURCES', gsi2sk: `${createdAt}#${sourceId}` }),
  /** every source, newest first with ScanIndexForward false */
  allSources: () => ({ index: 'gsi2' as const, pk: 'SOURCES' }),

  invitation: (token: string) => ({ pk: `INVITE#${token}`, sk: 'INVITE' }),
  /** a co-owner's link to their own identity step (/seller-kyc?token=...); expiresAt = TTL */
  coOwnerInvitation: (token: string) => ({ pk: `COINVITE#${token}`, sk: 'COINVITE' }),
  /** the seller's availability link (/availability/{token}) of a signed option without keys */
  availabilityToken: (token: string) => ({ pk: `AVAIL#${token}`, sk: 'AVAIL' }),
  /**
   * The expiry entry every link token (INVITE, COINVITE, AVAIL) is written with (spread it
   * into the item with `expiresAt`, epoch seconds): the daily reminders job deletes the
   * expired ones with a Query of `expiredTokens` (DynamoDB TTL does it on AWS, up to 48 h
   * late, and never locally).
   */
  tokenExpiryIndex: (expiresAt: number) => ({ gsi3pk: 'TOKENS#EXPIRY', gsi3sk: new Date(expiresAt * 1000).toISOString() }),
  /** every token by expiry, oldest first: `gsi3sk <= now (ISO)` are the expired ones */
  expiredTokens: () => ({ index: 'gsi3' as const, pk: 'TOKENS#EXPIRY' }),

  room: (propertyId: string, roomId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `ROOM#${roomId}` }),
  media: (propertyId: string, roomId: string, mediaId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `MEDIA#${roomId}#${mediaId}` }),
  /** ISO createdAt: a property's valuations sort oldest first; the latest is the last */
  valuation: (propertyId: string, createdAt: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `VALUATION#${createdAt}` }),
  /**
   * The purchase option of a property: one per property (create with attribute_not_exists),
   * under the property's pk so the dossier Query returns it; found by its own id in gsi1;
   * every option newest first in gsi2 OPTIONS.
   */
  option: (propertyId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: 'OPTION' }),
  optionIndexes: (o: { id: string; propertyId: string; createdAt: string }) => ({
    gsi1pk: `OPTION#${o.id}`,
    gsi1sk: 'OPTION',
    gsi2pk: 'OPTIONS',
    gsi2sk: `${o.createdAt}#${o.propertyId}`,
  }),
  optionById: (optionId: string) => ({ index: 'gsi1' as const, pk: `OPTION#${optionId}` }),
  /** every option, newest first with ScanIndexForward false */
  allOptions: () => ({ index: 'gsi2' as const, pk: 'OPTIONS' }),
  /** the seller's identity check (one per property) */
  identity: (propertyId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: 'IDENTITY' }),
  /** on the IDENTITY item while it waits for an admin's review (sparse), oldest first */
  /** the admins' queue of identity checks in review: the owner's (IDENTITY item) or a co-owner's (COOWNER item) */
  identityReviewIndex: (checkedAt: string, propertyId: string, coOwnerId?: string) => ({
    gsi2pk: 'IDREVIEWS',
    gsi2sk: coOwnerId ? `${checkedAt}#${propertyId}#${coOwnerId}` : `${checkedAt}#${propertyId}`,
  }),
  identityReviews: () => ({ index: 'gsi2' as const, pk: 'IDREVIEWS' }),
  coOwner: (propertyId: string, coOwnerId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `COOWNER#${coOwnerId}` }),
  /** one delegation per type (catasto, urbanistica, ipotecario, anagrafe) */
  delegation: (propertyId: string, type: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `DELEGATION#${type}` }),
  /** a visit slot of the property's option; sorts by date */
  slot: (propertyId: string, date: string, slotId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `SLOT#${date}#${slotId}` }),
  /** the slots of one month (Query pk + begins_with sk): `SLOT#{yyyy}-{MM}-` */
  slotsOfMonth: (propertyId: string, year: number, month: number) => ({
    pk: `PROPERTY#${propertyId}`,
    skPrefix: `SLOT#${year}-${String(month).padStart(2, '0')}-`,
  }),
  monthlyQuota: (propertyId: string, year: number, month: number) => ({
    pk: `PROPERTY#${propertyId}`,
    sk: `QUOTA#${year}-${String(month).padStart(2, '0')}`,
  }),
  /** a file of the dossier other than room media (identity images, signed copies, option PDF) */
  document: (propertyId: string, documentId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `DOCUMENT#${documentId}` }),
  /**
   * An agent's request to take charge of a property's option (spec agent_assignment_requests):
   * ONE item per (option, agent), created with attribute_not_exists, so two simultaneous
   * requests of the same agent cannot both succeed; a rejected one is reset to pending.
   */
  agentRequest: (propertyId: string, agentId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `AGENTREQ#${agentId}` }),
  /** every request on a property's option (Query pk + begins_with sk) */
  agentRequestsOfOption: (propertyId: string) => ({ pk: `PROPERTY#${propertyId}`, skPrefix: 'AGENTREQ#' }),
  /** the agent's list (gsi1) and the lookup by id (gsi3); createdAt stays the first request's */
  agentRequestIndexes: (r: { id: string; agentId: string; propertyId: string; createdAt: string }) => ({
    gsi1pk: `AGENTREQS#${r.agentId}`,
    gsi1sk: `${r.createdAt}#${r.propertyId}`,
    gsi3pk: `AGENTREQ#${r.id}`,
    gsi3sk: 'AGENTREQ',
  }),
  /** the admin's lists (gsi2), only while the request is pending or payment_pending */
  agentRequestStatusIndex: (status: string, r: { agentId: string; propertyId: string; createdAt: string }) => ({
    gsi2pk: `AGENTREQ_STATUS#${status}`,
    gsi2sk: `${r.createdAt}#${r.propertyId}#${r.agentId}`,
  }),
  /** an agent's requests, newest first with ScanIndexForward false */
  agentRequestsOfAgent: (agentId: string) => ({ index: 'gsi1' as const, pk: `AGENTREQS#${agentId}` }),
  /** the requests in one open status, newest first with ScanIndexForward false */
  agentRequestsByStatus: (status: string) => ({ index: 'gsi2' as const, pk: `AGENTREQ_STATUS#${status}` }),
  agentRequestById: (requestId: string) => ({ index: 'gsi3' as const, pk: `AGENTREQ#${requestId}` }),
  /** on the OPTION item once an agent has paid: the options in that agent's charge */
  assignedOptionIndex: (agentId: string, assignedAt: string, propertyId: string) => ({
    gsi3pk: `AGENTOPTIONS#${agentId}`,
    gsi3sk: `${assignedAt}#${propertyId}`,
  }),
  /** the options in an agent's charge, newest first with ScanIndexForward false */
  optionsOfAgent: (agentId: string) => ({ index: 'gsi3' as const, pk: `AGENTOPTIONS#${agentId}` }),
  dossierPrefixes: {
    room: 'ROOM#',
    media: 'MEDIA#',
    valuation: 'VALUATION#',
    option: 'OPTION',
    identity: 'IDENTITY',
    coOwner: 'COOWNER#',
    delegation: 'DELEGATION#',
    slot: 'SLOT#',
    quota: 'QUOTA#',
    document: 'DOCUMENT#',
    agentRequest: 'AGENTREQ#',
    activity: 'ACTIVITY#',
    visit: 'VISIT#',
  } as const,

  /** a mail to send, written in the same transaction as what caused it (transactional outbox) */
  outbox: (id: string) => ({ pk: `OUTBOX#${id}`, sk: 'OUTBOX' }),
  outboxPendingIndex: (nextAttemptAt: string, id: string) => ({ gsi3pk: 'OUTBOX#PENDING', gsi3sk: `${nextAttemptAt}#${id}` }),
  pendingOutbox: () => ({ index: 'gsi3' as const, pk: 'OUTBOX#PENDING' }),

  /**
   * A visit the agent in charge booked on one of the seller's slots (domain/visits.ts); the
   * slot item names it (`visitId`, isBooked), so one slot has one booking.
   */
  visit: (propertyId: string, visitId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `VISIT#${visitId}` }),
  visitIndexes: (v: { id: string; propertyId: string; agentId: string; date: string; start: string }) => ({
    gsi1pk: `AGENTVISITS#${v.agentId}`,
    gsi1sk: `${v.date}T${v.start}#${v.propertyId}#${v.id}`,
  }),
  /** on a booked visit only (removed when it is cancelled, declined or done): the day's visits, for the reminder */
  bookedVisitIndex: (v: { id: string; propertyId: string; date: string; start: string }) => ({ gsi3pk: `VISITS#${v.date}`, gsi3sk: `${v.start}#${v.propertyId}#${v.id}` }),
  bookedVisitsOn: (date: string) => ({ index: 'gsi3' as const, pk: `VISITS#${date}` }),
  /** a property's visits (Query pk + begins_with sk) */
  visitsOfProperty: (propertyId: string) => ({ pk: `PROPERTY#${propertyId}`, skPrefix: 'VISIT#' }),

  /**
   * An entry of the activity history (domain/activity.ts): under the request's pk (so the
   * dossier and its deletion include it) or, for a change about a user alone (an agent's
   * approval), under the user's pk; every entry newest first in gsi2 ACTIVITY (the feed).
   */
  activity: (scope: { propertyId: string } | { userId: string }, at: string, id: string) => ({
    pk: 'propertyId' in scope ? `PROPERTY#${scope.propertyId}` : `USER#${scope.userId}`,
    sk: `ACTIVITY#${at}#${id}`,
  }),
  activityIndex: (at: string, id: string) => ({ gsi2pk: 'ACTIVITY', gsi2sk: `${at}#${id}` }),
  /** the admins' feed, newest first with ScanIndexForward false */
  activityFeed: () => ({ index: 'gsi2' as const, pk: 'ACTIVITY' }),
  /** a request's entries (Query pk + begins_with sk), oldest first */
  activityOfProperty: (propertyId: string) => ({ pk: `PROPERTY#${propertyId}`, skPrefix: 'ACTIVITY#' }),
  /** a user's own entries (an agent's approval), oldest first */
  activityOfUser: (userId: string) => ({ pk: `USER#${userId}`, skPrefix: 'ACTIVITY#' }),

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
 * OMI market data. A quotation record is one (semester, LinkZona, Cod_Tip, Stato)
 * (docs/architecture.md, decisioni); records are stored one item per (semester, LinkZona):
 * the zone's quotations of that semester, every type and state (a few dozen at most, a few
 * KB), as lines of the published format. A national semester is ~24,400 items instead of
 * ~162,000, which is what the import's write rate depends on, and the valuation reads a
 * zone in one GetItem. Keys are made of the identity, so re-importing a file overwrites
 * the same items (idempotent: a re-run after a crash converges) and another semester adds
 * history. `{comune}` is the comune's identity (domain/omi/comune-match.ts omiComuneId): the
 * 6-digit ISTAT code of the current comune the row belongs to, or, for a row tied to no
 * current comune, `{prov}#{comuneSearchKey(name)}`; `{shard}` = 0..7 from LinkZona.
 *
 * | item                | pk                          | sk              | gsi1 (pk / sk)                          | gsi2 (pk / sk)                      | gsi3 (pk / sk)                |
 * |---------------------|-----------------------------|-----------------|-----------------------------------------|-------------------------------------|-------------------------------|
 * | zone quotations     | OMIS#{sem}#{prov}#{shard}   | Q#{linkZona}    | OMIV#{comune} / {sem}#{linkZona}        | OMIH#{prov}#{linkZona} / {sem}#Q    |                               |
 * | zone description    | OMIS#{sem}#{prov}#{shard}   | Z#{linkZona}    | OMIZ#{comune} / {sem}#{linkZona}        | OMIH#{prov}#{linkZona} / {sem}#Z    |                               |
 * | comune digests      | OMID#{sem}#{prov}           | {version}#{i}   |                                         |                                     |                               |
 * | data state version  | OMI#META                    | STATE           |                                         |                                     |                               |
 * | semester manifest   | OMI#META                    | SEM#{sem}       |                                         |                                     |                               |
 * | listing index chunk | OMIIDX#{sem}#{prov}         | {version}#{part}|                                         |                                     |                               |
 * | import / clear job  | OMIJOB#{jobId}              | JOB             |                                         |                                     | OMIJOBS / {createdAt}#{jobId} |
 *
 * Access patterns:
 * - valuation: gsi1 OMIV#{comune}, newest first (ScanIndexForward false), stopping after
 *   the newest semester with usable values of the wanted type (the ISTAT code first, then
 *   the province and name); the zone descriptions of that semester only: gsi1
 *   OMIZ#{comune} begins_with {sem}#; the chosen zone's history: one Query of gsi2
 *   OMIH#{prov}#{linkZona} (its quotations and descriptions in every semester), for the
 *   semesters whose manifest lists the province as history-indexed; a BatchGet of its items
 *   in the others (stored before the index: model/omi/history-index.ts backfills them).
 * - valuation, once every province of the semester is digested and no import is under way:
 *   the comune's zone quotations and descriptions of the newest semester in one GetItem of
 *   the digest bucket holding it (OMID#{sem}#{prov} / {version}#{hash(comune) mod buckets},
 *   the version and bucket count named by the manifest; one more per province holding the
 *   comune under an old code), rebuilt from the table by every import
 *   (model/omi/comune-digest.ts), instead of two Queries of gsi1 over every zone item.
 * - every item of a semester and province (import: exact inserted/updated after a run
 *   died; clear: what to delete): Query pk OMIS#{sem}#{prov}#{0..7}, strongly consistent.
 *   Sharded so a national import never writes more than ~1/8 of a province to one key.
 * - OMI data page: the semester manifests (one Query of OMI#META) name the provinces and
 *   the current version of each (semester, province) index chunk: compressed, compact rows
 *   (comune, zone, type, state) that the listing filters in memory (cached per warm
 *   Lambda by version) for the exact total, then BatchGets the zones of the page's rows.
 * - import progress: GetItem OMIJOB#{jobId}; recent jobs: gsi3 OMIJOBS, newest first.
 */
export const OMI_SHARDS = 8;

function omiShardOf(key: string, shards: number): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return (h >>> 0) % shards;
}

const omiShard = (linkZona: string) => omiShardOf(linkZona, OMI_SHARDS);

const omiStato = (stato: string | null | undefined) => (stato ? stato : '-');

export interface OmiZoneId {
  semester: string;
  prov: string;
  linkZona: string;
}

export const omiKeys = {
  /** a zone's quotations of one semester */
  zoneQuotations: (z: OmiZoneId) => ({
    pk: `OMIS#${z.semester}#${z.prov}#${omiShard(z.linkZona)}`,
    sk: `Q#${z.linkZona}`,
  }),
  zoneQuotationsIndex: (z: OmiZoneId & { comuneId: string }) => ({
    gsi1pk: `OMIV#${z.comuneId}`,
    gsi1sk: `${z.semester}#${z.linkZona}`,
  }),
  /** the zone identity in a zone-quotations item's keys */
  parseZoneQuotations: (pk: string, sk: string): OmiZoneId => {
    const [, semester, prov] = pk.split('#');
    return { semester: semester!, prov: prov!, linkZona: sk.slice(2) };
  },
  /** a zone item's entry in its zone's history (gsi2): the quotations (Q) and the description (Z) of each semester */
  zoneHistoryIndex: (z: OmiZoneId, kind: 'quotations' | 'description') => ({
    gsi2pk: `OMIH#${z.prov}#${z.linkZona}`,
    gsi2sk: `${z.semester}#${kind === 'quotations' ? 'Q' : 'Z'}`,
  }),
  /** one zone's items in every semester (gsi2) */
  zoneHistory: (prov: string, linkZona: string) => ({ index: 'gsi2' as const, pk: `OMIH#${prov}#${linkZona}` }),
  /** the comune id in a zone item's gsi1 key (OMIV#{comune} or OMIZ#{comune}) */
  comuneIdOfIndex: (gsi1pk: string) => gsi1pk.slice(gsi1pk.indexOf('#') + 1),
  /** valuation candidates: every semester's zones of a comune, newest first with ScanIndexForward false */
  quotationsOfComune: (comuneId: string) => ({ index: 'gsi1' as const, pk: `OMIV#${comuneId}` }),
  /** identity of a record inside its semester and province */
  quotationIdentity: (q: { linkZona: string; codTip: number; stato: string | null }) => `${q.linkZona}#${q.codTip}#${omiStato(q.stato)}`,
  quotationSkPrefix: 'Q#',

  zone: (z: { semester: string; prov: string; linkZona: string }) => ({
    pk: `OMIS#${z.semester}#${z.prov}#${omiShard(z.linkZona)}`,
    sk: `Z#${z.linkZona}`,
  }),
  zoneIndex: (z: { comuneId: string; linkZona: string; semester: string }) => ({
    gsi1pk: `OMIZ#${z.comuneId}`,
    gsi1sk: `${z.semester}#${z.linkZona}`,
  }),
  /** a comune's zone descriptions; `skPrefix` narrows them to one semester */
  zonesOfComune: (comuneId: string, semester?: string) => ({ index: 'gsi1' as const, pk: `OMIZ#${comuneId}`, skPrefix: semester ? `${semester}#` : '' }),
  zoneIdentity: (z: { linkZona: string }) => `Z#${z.linkZona}`,
  zoneSkPrefix: 'Z#',

  /** every record (quotations and zones) of a semester and province: one Query per shard */
  semesterProvince: (semester: string, prov: string) =>
    Array.from({ length: OMI_SHARDS }, (_, shard) => ({ pk: `OMIS#${semester}#${prov}#${shard}` })),

  /** one bucket of a semester and province's comune digests, under a version (model/omi/comune-digest.ts) */
  digestBucket: (semester: string, prov: string, version: string, bucket: number) => ({ pk: `OMID#${semester}#${prov}`, sk: `${version}#${bucket}` }),
  /** every digest bucket of a semester and province, all versions (clear) */
  digestBuckets: (semester: string, prov: string) => ({ pk: `OMID#${semester}#${prov}` }),
  /** the bucket of `buckets` holding a comune's digest */
  digestBucketOf: (comuneId: string, buckets: number) => omiShardOf(comuneId, buckets),

  /** the version of the OMI data state: a new one after every change of a manifest (semesters.ts bumpDataState) */
  dataState: () => ({ pk: 'OMI#META', sk: 'STATE' }),
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
