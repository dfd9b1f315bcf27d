import { ConflictError } from '../lib/errors';
import { route } from '../lib/http';
import { presignMediaUpload } from '../lib/media-storage';
import { isSubmitted } from './property-submission';
import { enforceRateLimit } from '../lib/rate-limit';
import { MAX_UPLOAD_BYTES } from '../domain/property/limits';
import { mediaKey, mediaKindOf } from '../domain/property/media';
import { uploadRequestSchema, type UploadForm } from '../domain/property/upload';

/**
 * POST /uploads (public, rate limited): a presigned POST for one photo or video of the
 * anonymous wizard, straight to the private media bucket under
 * `{propertyDraftId}/{roomId}/{timestamp}_{safeFileName}`. The policy enforces the key, the
 * declared content type (image/* or video/*) and 1 byte..20 MB; it expires in 10 minutes.
 */
export const handler = route('createUpload', { body: uploadRequestSchema }, async ({ body, sourceIp }) => {
  await enforceRateLimit('upload', sourceIp);
  if (await isSubmitted(body.propertyDraftId)) throw new ConflictError('Questa richiesta è già stata inviata: non si possono aggiungere file');
  const key = mediaKey(body.propertyDraftId, body.roomId, body.fileName);
  const upload = await presignMediaUpload({ key, contentType: body.contentType, kind: mediaKindOf(body.contentType)! });
  const form: UploadForm = { key, ...upload, maxBytes: MAX_UPLOAD_BYTES };
  return form;
});
