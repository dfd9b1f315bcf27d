/**
 * A request's dossier: the PROPERTY item and every item under its pk (rooms, media,
 * valuations, option, identity, co-owners, delegations, slots, quotas, documents), read with
 * ONE strongly consistent Query of keys.propertyDossier. `loadDossier` gives the raw items
 * sorted by kind; `toDossier` maps them to the RequestDossier contract with fresh presigned
 * GET URLs (functions/lib/presigned-download.ts) for every file. The review area reuses both.
 */
import { toDelegationRecord } from './delegation';
import { toActivityEntry } from './activity';
import { toPurchaseOption } from './option';
import { toVisit } from './visit';
import { DEFAULT_DURATION, toOptionDuration } from '../domain/fees';
import { str } from './item';
import { queryAll, table } from './db';
import { NotFoundError } from '../lib/errors';
import { keys } from './keys';
import { isDeleting, isOwner, isPropertyId, reopeningsOf } from './property';
import { ONBOARDING_MESSAGES } from '../domain/onboarding/rules';

export { isDeleting, isPropertyId };
import { presignDownload } from '../lib/presigned-download';
import { mediaKindOf } from '../domain/property/media';
import type { RoomType } from '../domain/property/enums';
import {
  lifecycleOf,
  REQUEST_MESSAGES,
  type DelegationType,
  type DossierCoOwner,
  type DossierDelegation,
  type DossierFile,
  type DossierIdentity,
  type DossierMedia,
  type DossierRoom,
  type DossierSlot,
  type DossierValuation,
  type PurchaseOption,
  type RequestDossier,
} from '../domain/requests';
import type { ValuationResult } from '../domain/valuation';

export { REQUEST_MESSAGES };




/** A stored item as DynamoDB returns it. */
export type DossierItem = Record<string, unknown>;

/** The raw items of a dossier, by kind (each list in sort-key order). */
export interface RawDossier {
  propertyId: string;
  property: DossierItem;
  rooms: DossierItem[];
  media: DossierItem[];
  /** oldest first */
  valuations: DossierItem[];
  option: DossierItem | null;
  identity: DossierItem | null;
  coOwners: DossierItem[];
  delegations: DossierItem[];
  /** by date */
  slots: DossierItem[];
  quotas: DossierItem[];
  documents: DossierItem[];
  /** the activity history, oldest first (model/activity.ts) */
  activity: DossierItem[];
  /** the agents' visits (model/visit.ts) */
  visits: DossierItem[];
  /** anything else under the pk (a future item kind): still deleted with the dossier */
  other: DossierItem[];
}


/**
 * Every item of the dossier (one Query, strongly consistent), or undefined when there is no
 * PROPERTY item. A property being deleted counts as missing unless `includeDeleting`.
 */
export async function loadDossier(propertyId: string, opts: { includeDeleting?: boolean } = {}): Promise<RawDossier | undefined> {
  const raw = await loadDossierItems(propertyId);
  if (!raw.property) return undefined;
  if (!opts.includeDeleting && isDeleting(raw.property)) return undefined;
  return raw as RawDossier;
}

/** Like loadDossier, but the items are returned even when the PROPERTY item is gone (deletion retries). */
export async function loadDossierItems(propertyId: string): Promise<Omit<RawDossier, 'property'> & { property: DossierItem | null; all: DossierItem[] }> {
  const p = keys.dossierPrefixes;
  const out: Omit<RawDossier, 'property'> & { property: DossierItem | null; all: DossierItem[] } = {
    propertyId,
    property: null,
    rooms: [],
    media: [],
    valuations: [],
    option: null,
    identity: null,
    coOwners: [],
    delegations: [],
    slots: [],
    quotas: [],
    documents: [],
    activity: [],
    visits: [],
    other: [],
    all: [],
  };
  await queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.propertyDossier(propertyId).pk },
      ConsistentRead: true,
    },
    (item) => {
      out.all.push(item);
      const sk = String(item.sk);
      if (sk === keys.property(propertyId).sk) out.property = item;
      else if (sk.startsWith(p.room)) out.rooms.push(item);
      else if (sk.startsWith(p.media)) out.media.push(item);
      else if (sk.startsWith(p.valuation)) out.valuations.push(item);
      else if (sk === p.option) out.option = item;
      else if (sk === p.identity) out.identity = item;
      else if (sk.startsWith(p.coOwner)) out.coOwners.push(item);
      else if (sk.startsWith(p.delegation)) out.delegations.push(item);
      else if (sk.startsWith(p.slot)) out.slots.push(item);
      else if (sk.startsWith(p.quota)) out.quotas.push(item);
      else if (sk.startsWith(p.document)) out.documents.push(item);
      else if (sk.startsWith(p.activity)) out.activity.push(item);
      else if (sk.startsWith(p.visit)) out.visits.push(item);
      else out.other.push(item);
    },
  );
  return out;
}

/** The dossier or 404 'Immobile non trovato' (also for an id no property can have). */
export async function requireDossier(propertyId: string): Promise<RawDossier> {
  if (!isPropertyId(propertyId)) throw new NotFoundError(REQUEST_MESSAGES.notFound);
  const raw = await loadDossier(propertyId);
  if (!raw) throw new NotFoundError(REQUEST_MESSAGES.notFound);
  return raw;
}

// ---- mapping -----------------------------------------------------------------------------

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean => v === true;

/** Attributes of the PROPERTY item that are storage details, not data. */
const INTERNAL = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'entity', 'searchText', 'deletingAt', 'expiresAt']);

async function fileOf(key: unknown, fileName?: unknown): Promise<DossierFile | undefined> {
  const k = str(key);
  if (!k) return undefined;
  const name = str(fileName) ?? k.split('/').pop() ?? k;
  return { key: k, fileName: name, url: (await presignDownload(k)).url };
}

function mapProperty(item: DossierItem, propertyId: string): RequestDossier['property'] {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) if (!INTERNAL.has(k)) out[k] = v;
  return {
    ...(out as unknown as RequestDossier['property']),
    id: str(item.id) ?? propertyId,
    createdAt: String(item.createdAt ?? ''),
    updatedAt: String(item.updatedAt ?? item.createdAt ?? ''),
    userId: str(item.userId),
    assignedUserId: str(item.assignedUserId),
    invitationToken: str(item.invitationToken),
    privacyConsentAt: str(item.privacyConsentAt),
    erasedAccountAt: str(item.erasedAccountAt),
    sourceName: str(item.sourceName),
    valuedAt: str(item.valuedAt),
    estimateSentAt: str(item.estimateSentAt),
    optionCreatedAt: str(item.optionCreatedAt),
    optionSignedAt: str(item.optionSignedAt),
    // the seller's choice in the simulator / wizard; properties submitted before it: the default
    optionDuration: toOptionDuration(item.optionDuration) ?? DEFAULT_DURATION,
  };
}

async function mapMedia(item: DossierItem): Promise<DossierMedia> {
  const key = String(item.key);
  const contentType = String(item.contentType ?? '');
  return {
    id: String(item.id),
    roomId: String(item.roomId),
    key,
    fileName: str(item.fileName) ?? key.split('/').pop() ?? key,
    contentType,
    kind: item.kind === 'video' || item.kind === 'image' ? item.kind : (mediaKindOf(contentType) ?? 'image'),
    size: num(item.size) ?? 0,
    createdAt: String(item.createdAt ?? ''),
    url: (await presignDownload(key)).url,
  };
}

/** Rooms in wizard order, each with its media (oldest first); media of an unknown room are dropped. */
export async function mapRooms(raw: RawDossier): Promise<DossierRoom[]> {
  const media = await Promise.all(raw.media.map(mapMedia));
  const byRoom = new Map<string, { item: DossierMedia; position: number; createdAt: string }[]>();
  raw.media.forEach((m, i) => {
    const list = byRoom.get(String(m.roomId)) ?? [];
    list.push({ item: media[i]!, position: num(m.position) ?? Number.MAX_SAFE_INTEGER, createdAt: String(m.createdAt ?? '') });
    byRoom.set(String(m.roomId), list);
  });
  return raw.rooms
    .map((r) => ({
      id: String(r.id),
      name: String(r.name ?? ''),
      type: r.type as RoomType,
      position: num(r.position) ?? 0,
      media: (byRoom.get(String(r.id)) ?? [])
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.position - b.position)
        .map((m) => m.item),
    }))
    .sort((a, b) => a.position - b.position);
}

function mapValuation(v: DossierItem): DossierValuation {
  const createdBy = v.createdBy as { userId?: unknown; name?: unknown } | undefined | null;
  const optional = <K extends string>(k: K) => (num(v[k]) === null ? {} : { [k]: num(v[k])! });
  return {
    createdAt: String(v.createdAt ?? ''),
    origin: v.origin === 'admin' ? 'admin' : 'submission',
    createdBy: createdBy && typeof createdBy.userId === 'string' ? { userId: createdBy.userId, name: String(createdBy.name ?? '') } : null,
    available: bool(v.available),
    ...(str(v.reason) ? { reason: str(v.reason)! } : {}),
    ...optional('valuationMin'),
    ...optional('valuationMax'),
    ...optional('valuationAvg'),
    ...optional('cautiousDiscount'),
    ...optional('adjustedMin'),
    ...optional('adjustedMax'),
    ...optional('adjustedAvg'),
    omiSource: str(v.omiSource),
    ...(v.omiDetails ? { omiDetails: v.omiDetails as DossierValuation['omiDetails'] } : {}),
    emailSentAt: str(v.emailSentAt),
    result: v.result as ValuationResult,
  };
}

async function mapIdentity(i: DossierItem | null): Promise<DossierIdentity | null> {
  if (!i) return null;
  const [documentFront, documentBack, facePhoto] = await Promise.all([
    fileOf(i.documentFrontKey),
    fileOf(i.documentBackKey),
    fileOf(i.facePhotoKey),
  ]);
  const status = str(i.status) ?? str(i.verificationStatus);
  return {
    status: status === 'verified' || status === 'rejected' ? status : 'pending',
    documentType: (str(i.documentType) ?? 'carta_identita') as DossierIdentity['documentType'],
    documentNumber: str(i.documentNumber),
    fullName: str(i.fullName),
    confidence: num(i.confidence),
    verifiedAt: str(i.verifiedAt),
    checkedAt: str(i.checkedAt),
    files: { ...(documentFront ? { documentFront } : {}), ...(documentBack ? { documentBack } : {}), ...(facePhoto ? { facePhoto } : {}) },
  };
}

function mapCoOwner(c: DossierItem): DossierCoOwner {
  return {
    id: String(c.id ?? String(c.sk).slice(keys.dossierPrefixes.coOwner.length)),
    email: String(c.email ?? ''),
    fullName: String(c.fullName ?? ''),
    share: num(c.share) ?? 0,
    invitedAt: str(c.invitedAt),
    verifiedAt: str(c.verifiedAt),
    identityStatus: c.identityStatus === 'verified' || c.identityStatus === 'rejected' || c.identityStatus === 'review' ? c.identityStatus : null,
  };
}

async function mapDelegation(d: DossierItem): Promise<DossierDelegation> {
  const type = (str(d.type) ?? str(d.delegationType) ?? String(d.sk).slice(keys.dossierPrefixes.delegation.length)) as DelegationType;
  const documentKey = str(d.documentKey);
  const file = await fileOf(documentKey, d.fileName);
  const { signatureType, signature } = toDelegationRecord(d);
  return {
    type,
    province: String(d.province ?? ''),
    municipality: String(d.municipality ?? ''),
    documentKey,
    signedAt: str(d.signedAt),
    signatureType,
    signers: signature?.signers ?? [],
    ...(file ? { file } : {}),
  };
}

function mapOption(o: DossierItem | null, propertyId: string): PurchaseOption | null {
  return o ? toPurchaseOption({ propertyId, ...o }) : null;
}

/** A SLOT# item as the dossier and the seller's availability page show it. */
export function mapSlot(s: DossierItem): DossierSlot {
  // sk SLOT#{yyyy-MM-dd}#{slotId}
  const [, skDate, skId] = String(s.sk).split('#');
  return {
    id: str(s.id) ?? skId ?? '',
    date: str(s.date) ?? str(s.slotDate) ?? skDate ?? '',
    start: str(s.start) ?? str(s.slotTimeStart) ?? '',
    end: str(s.end) ?? str(s.slotTimeEnd) ?? '',
    isBooked: bool(s.isBooked),
  };
}

async function mapDocument(d: DossierItem): Promise<RequestDossier['documents'][number] | undefined> {
  const file = await fileOf(d.key ?? d.documentKey, d.fileName);
  if (!file) return undefined;
  return { ...file, kind: String(d.kind ?? 'documento'), uploadedAt: String(d.uploadedAt ?? d.createdAt ?? '') };
}

/** The RequestDossier of the raw items, with fresh presigned URLs. */
export async function toDossier(raw: RawDossier): Promise<RequestDossier> {
  const property = mapProperty(raw.property, raw.propertyId);
  const [rooms, identity, delegations, documents] = await Promise.all([
    mapRooms(raw),
    mapIdentity(raw.identity),
    Promise.all(raw.delegations.map(mapDelegation)),
    Promise.all(raw.documents.map(mapDocument)),
  ]);
  return {
    property,
    lifecycle: lifecycleOf(property),
    rooms,
    valuations: raw.valuations.map(mapValuation),
    identity,
    coOwners: raw.coOwners.map(mapCoOwner),
    delegations,
    option: mapOption(raw.option, raw.propertyId),
    slots: raw.slots.map(mapSlot).sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start)),
    documents: documents.filter((d): d is NonNullable<typeof d> => d !== undefined),
    reopenings: reopeningsOf(raw.property),
    activity: raw.activity.map(toActivityEntry),
    visits: raw.visits.map(toVisit).sort((a, b) => `${a.date}T${a.start}`.localeCompare(`${b.date}T${b.start}`)),
  };
}

/** GET /admin/properties/{propertyId}: the whole dossier, or 404. */
export async function getDossier(propertyId: string): Promise<RequestDossier> {
  return toDossier(await requireDossier(propertyId));
}

/** The caller's property dossier (one Query), or 404 'Immobile non trovato'. */
export async function requireOwnedDossier(propertyId: string, userId: string): Promise<RawDossier> {
  const raw = isPropertyId(propertyId) ? await loadDossier(propertyId) : undefined;
  if (!raw || !isOwner(raw.property, userId)) throw new NotFoundError(ONBOARDING_MESSAGES.propertyNotFound);
  return raw;
}
