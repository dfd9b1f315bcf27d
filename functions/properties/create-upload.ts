import { ConflictError } from '../lib/errors';
import { requireConfig } from '../lib/config';
import { draftTagging } from '../lib/draft-uploads';
import { route } from '../lib/http';
import { presignUpload } from '../lib/presigned-upload';
import { isSubmitted } from './property-submission';
import { enforceRateLimit } from '../model/rate-limit';
import { mediaKey, mediaKindOf } from '../domain/property/media';
import { uploadRequestSchema } from '../domain/property/upload';
import { MEDIA_MAX_BYTES, MEDIA_UPLOAD_TTL_SECONDS, type PresignedUpload } from '../domain/uploads';

/**
 * POST /uploads (public, rate limited): a presigned POST for one photo or video of the
 * anonymous wizard, straight to the private media bucket under
 * `{propertyDraftId}/{roomId}/{timestamp}_{safeFileName}`. The policy enforces the key, the
 * declared content type (image/* or video/*), 1 byte..MEDIA_MAX_BYTES (20 MB) and the draft
 * tag (the bucket deletes drafts after a day unless a submission links them,
 * lib/draft-uploads.ts); it expires in 10 minutes.
 */
export const handler = route('createUpload', { body: uploadRequestSchema }, async ({ body, sourceIp }): Promise<PresignedUpload> => {
  await enforceRateLimit('upload', sourceIp);
  if (await isSubmitted(body.propertyDraftId)) throw new ConflictError('Questa richiesta è già stata inviata: non si possono aggiungere file');
  return presignUpload({
    bucket: requireConfig('MEDIA_BUCKET'),
    key: mediaKey(body.propertyDraftId, body.roomId, body.fileName),
    maxBytes: MEDIA_MAX_BYTES,
    expiresSeconds: MEDIA_UPLOAD_TTL_SECONDS,
    contentType: { value: body.contentType, family: mediaKindOf(body.contentType)! },
    tagging: draftTagging(),
  });
});
