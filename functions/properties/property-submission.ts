import { config } from '../lib/config';
import { ValidationError } from '../lib/errors';
import { logger } from '../lib/logger';
import { DRAFT_LINKABLE_HOURS } from '../lib/draft-uploads';
import { copyWithoutTags, deleteMediaObjects, headMedia, mapLimit } from '../lib/media-storage';
import { uploadNonce } from '../lib/presigned-upload';
import { requireUploadBytes } from '../lib/upload-check';
import { deliverOutbox } from '../model/outbox';
import { isSubmissionTaken, storeSubmission, submittedProperty } from '../model/property-submission';
import { sourceNames } from '../model/source';
import { valueSubmission, type Valuator } from '../model/valuation';
import { FIXED_SUBMISSION_ITEMS, MAX_UPLOAD_BYTES, TRANSACTION_MAX_ITEMS } from '../domain/property/limits';
import { EMPTY_FILE_MESSAGE, mediaKey, mediaKindOf, ONLY_MEDIA_MESSAGE, parseMediaKey, TOO_LARGE_MESSAGE } from '../domain/property/media';
import { withRoomNames } from '../domain/property/rooms';
import { propertyAttributes, type PropertySubmission } from '../domain/property/schema';
import type { SubmissionResult } from '../domain/property/submission';
import { renderLeadEmail, type LeadEmailInput } from '../domain/property/lead-email';
import type { ValuationResult } from '../domain/valuation';

export const MEDIA_MISSING_MESSAGE = 'Un file non risulta caricato: rimuovilo e caricalo di nuovo';
/** The lead e-mail's estimate when the valuation failed or timed out (the data was there: not "dati insufficienti"). */
export const VALUATION_FAILED_REASON = "calcolo non riuscito all'invio, da fare dal fascicolo";
/** a wizard upload older than DRAFT_LINKABLE_HOURS: the bucket deletes drafts after a day */
export const DRAFT_EXPIRED_MESSAGE = 'Un file è stato caricato più di un giorno fa e non è più disponibile: rimuovilo e caricalo di nuovo';

async function existingResult(propertyId: string): Promise<SubmissionResult | undefined> {
  const stored = await submittedProperty(propertyId);
  if (!stored) return undefined;
  return { propertyId, createdAt: stored.createdAt, status: 'submitted' };
}

/** True when a property with this id was already submitted. */
export async function isSubmitted(propertyId: string): Promise<boolean> {
  return (await existingResult(propertyId)) !== undefined;
}

interface CheckedMedia {
  roomIndex: number;
  /** the field of the body that named it */
  path: string;
  key: string;
  contentType: string;
  size: number;
  /** the upload's file name, as the person gave it (made safe) */
  fileName: string;
}

/**
 * Every referenced upload: present, an image or a video of at most 20 MB, and a draft young
 * enough that the bucket's lifecycle cannot be about to delete it (lib/draft-uploads.ts). Its
 * bytes are checked on the copy the request links (sealUploads).
 */
async function checkUploads(s: PropertySubmission, now: Date): Promise<CheckedMedia[]> {
  const refs = s.rooms.flatMap((room, roomIndex) =>
    room.media.map((m, mediaIndex) => ({ roomIndex, path: `rooms.${roomIndex}.media.${mediaIndex}.key`, key: m.key })),
  );
  const heads = await mapLimit(refs, 8, (r) => headMedia(r.key));
  const oldest = now.getTime() - DRAFT_LINKABLE_HOURS * 3_600_000;
  const fields: Record<string, string> = {};
  refs.forEach((r, i) => {
    const head = heads[i];
    if (!head) fields[r.path] = MEDIA_MISSING_MESSAGE;
    else if (!mediaKindOf(head.contentType)) fields[r.path] = ONLY_MEDIA_MESSAGE;
    else if (head.size < 1) fields[r.path] = EMPTY_FILE_MESSAGE;
    else if (head.size > MAX_UPLOAD_BYTES) fields[r.path] = TOO_LARGE_MESSAGE;
    else if (head.lastModified && head.lastModified.getTime() < oldest) fields[r.path] = DRAFT_EXPIRED_MESSAGE;
  });
  const first = Object.values(fields)[0];
  if (first) throw new ValidationError(first, fields);
  return refs.map((r, i) => ({ ...r, contentType: heads[i]!.contentType, size: heads[i]!.size, fileName: parseMediaKey(r.key)?.fileName ?? r.key }));
}

/**
 * The checked uploads copied, before the transaction that links them, under keys no upload
 * form names (the same room, a random part: a wizard form lives 10 minutes and posting it
 * again after the submission would change linked bytes and make them a draft again), without
 * the draft tag, and their bytes checked there (lib/upload-check.ts): the request links
 * exactly what was checked. A failure deletes every copy made and the uploads it refused (a
 * text renamed .jpg, an SVG...); the others are left to the bucket's lifecycle (a corrected
 * submission links them).
 */
async function sealUploads(checked: readonly CheckedMedia[]): Promise<CheckedMedia[]> {
  const sealed = checked.map((m) => {
    const parsed = parseMediaKey(m.key)!;
    return { ...m, key: mediaKey(parsed.propertyId, parsed.roomId, `${uploadNonce()}-${m.fileName}`) };
  });
  try {
    const copied = await mapLimit(checked, 8, (m, i) => copyWithoutTags(m.key, sealed[i]!.key));
    const fields: Record<string, string> = {};
    checked.forEach((m, i) => {
      if (!copied[i]) fields[m.path] = MEDIA_MISSING_MESSAGE;
    });
    const first = Object.values(fields)[0];
    if (first) throw new ValidationError(first, fields);
    await requireUploadBytes(sealed.map((m) => ({ key: m.key, contentType: m.contentType, name: m.fileName, field: m.path })));
  } catch (err) {
    const refused = new Set(err instanceof ValidationError ? Object.keys(err.fields ?? {}) : []);
    await deleteMediaObjects([...sealed.map((m) => m.key), ...checked.filter((m) => refused.has(m.path)).map((m) => m.key)], 'submission refused');
    throw err;
  }
  return sealed;
}

function leadEmailInput(
  s: PropertySubmission,
  propertyId: string,
  createdAt: string,
  rooms: { name: string; media: number }[],
  valuation: ValuationResult | 'failed' | undefined,
): LeadEmailInput {
  return {
    ...propertyAttributes(s),
    propertyId,
    createdAt,
    rooms,
    valuation: !valuation
      ? null
      : valuation === 'failed'
        ? { unavailable: VALUATION_FAILED_REASON }
        : valuation.available
        ? { min: valuation.propertyValueMin, max: valuation.propertyValueMax, avg: valuation.propertyValueAvg, source: valuation.omiSource }
        : { unavailable: valuation.reason },
    reviewUrl: `${config().APP_URL.replace(/\/$/, '')}/investigation/${propertyId}`,
  };
}

interface SubmitOptions {
  now?: Date;
  /** a signed-in seller submitting from their dashboard: the property is theirs at once */
  ownerId?: string;
  /** the valuation use case (tests); default: the one wired in submission-valuation.ts */
  valuate?: Valuator;
}

/**
 * The wizard submission use case (spec 000 section 7, issue 4):
 * 1. a property that already exists with this id is a retry: answer its result, write nothing;
 * 2. every referenced upload must exist under `{propertyId}/{roomId}/` and be an image or a
 *    video of at most 20 MB (HeadObject), uploaded less than DRAFT_LINKABLE_HOURS before, whose
 *    first bytes are really an image or a video (a mismatch is deleted from the bucket);
 * 3. the valuation runs when it can; its failure is logged and never blocks;
 * 4. the uploads are copied under keys no upload form names, without the draft tag, and
 *    checked again there (sealUploads), then ONE TransactWriteItems stores the property (every
 *    field), its rooms, its media (the copies), the invitation, the first valuation and the
 *    lead e-mail outbox item: all or nothing; the drafts are deleted after it;
 * 5. the lead e-mail is sent right after; a failure leaves it pending for the scheduled retry.
 */
export async function submitProperty(s: PropertySubmission, opts: SubmitOptions = {}): Promise<SubmissionResult> {
  const propertyId = s.propertyDraftId;
  const done = await existingResult(propertyId);
  if (done) {
    logger.info('Submission retried after success: same result', { propertyId });
    return done;
  }

  const now = opts.now ?? new Date();
  const checked = await checkUploads(s, now);
  const createdAt = now.toISOString();
  // refused bytes answer before the valuation runs
  const sealed = await sealUploads(checked);

  let valuation: ValuationResult | undefined;
  let valuationFailed = false;
  try {
    valuation = await valueSubmission(s, opts.valuate);
  } catch (err) {
    valuationFailed = true;
    logger.warn('Valuation on submission failed; the submission goes on', { propertyId, error: (err as Error).message });
  }

  const rooms = withRoomNames(s.rooms);
  const mediaCount = checked.length;
  const items = FIXED_SUBMISSION_ITEMS + rooms.length + mediaCount;
  if (items > TRANSACTION_MAX_ITEMS) throw new ValidationError('Troppe stanze o troppi file per una sola richiesta');

  const mail = renderLeadEmail(
    leadEmailInput(
      s,
      propertyId,
      createdAt,
      rooms.map((r) => ({ name: r.name, media: r.media.length })),
      valuationFailed ? 'failed' : valuation,
    ),
  );
  const outboxId = `lead-${propertyId}`;

  // the source's name travels with the request: the list still shows it after the source is
  // deleted; a failed read never blocks (the list then reads the name from the source)
  let sourceName: string | undefined;
  if (s.sourceId) {
    try {
      sourceName = (await sourceNames([s.sourceId])).get(s.sourceId);
    } catch (err) {
      logger.warn('Source name not read on submission; the list will read it from the source', { propertyId, error: (err as Error).message });
    }
  }

  try {
    await storeSubmission({
      sourceName,
      submission: s,
      ownerId: opts.ownerId,
      now,
      rooms,
      media: sealed,
      valuation,
      lead: { outboxId, mail: { to: [config().BACKOFFICE_EMAIL], ...mail } },
    });
  } catch (err) {
    // nothing links this attempt's copies
    await deleteMediaObjects(sealed.map((m) => m.key), 'submission not stored');
    // Two identical submissions at once: the other one won; answer its result.
    if (isSubmissionTaken(err)) {
      const other = await existingResult(propertyId);
      if (other) return other;
    }
    logger.error('Submission transaction failed: nothing stored', { propertyId, error: err as Error });
    throw err;
  }
  // the drafts: nothing links them any more (a failure leaves them to the bucket's lifecycle)
  await deleteMediaObjects(checked.map((m) => m.key), 'uploads linked as copies');
  logger.info('Property submitted', { propertyId, rooms: rooms.length, media: mediaCount, valuation: valuation?.available ?? null });

  try {
    await deliverOutbox(outboxId);
  } catch (err) {
    logger.error('Lead notification not sent now; the scheduled retry will send it', { propertyId, outboxId, error: err as Error });
  }
  return { propertyId, createdAt, status: 'submitted' };
}
