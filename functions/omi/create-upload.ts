import { randomUUID } from 'node:crypto';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { s3 } from '../lib/aws/s3';
import { requireConfig } from '../lib/config';
import { route } from '../lib/http';
import { ConflictError } from '../lib/errors';
import { activeJob, createJob } from './omi-jobs';
import { importObjectKey, MAX_UPLOAD_BYTES } from './drop-keys';
import { uploadBody } from './schemas';

export const UPLOAD_EXPIRES_SECONDS = 900;

/**
 * POST /omi/uploads {fileName, semester}: creates the import job and a presigned POST to
 * the OMI drop bucket (key imports/{jobId}/{semester}/{fileName}, at most 50 MB). When the
 * file lands, S3 starts the import; the page then polls GET /omi/imports/{jobId}.
 */
export const handler = route(
  'omiCreateUpload',
  { body: uploadBody },
  async ({ body, caller }) => {
    if (await activeJob('clear')) throw new ConflictError('È in corso la cancellazione dei dati OMI: attendi che finisca prima di importare');
    const jobId = randomUUID();
    const key = importObjectKey(jobId, body.semester, body.fileName);
    const bucket = requireConfig('OMI_BUCKET');
    await createJob({ id: jobId, kind: 'import', fileName: body.fileName, semester: body.semester, s3Key: key, createdBy: caller?.userId });
    const post = await createPresignedPost(s3(), {
      Bucket: bucket,
      Key: key,
      Conditions: [
        ['content-length-range', 1, MAX_UPLOAD_BYTES],
        ['eq', '$key', key],
      ],
      Expires: UPLOAD_EXPIRES_SECONDS,
    });
    return {
      jobId,
      key,
      semester: body.semester,
      fileName: body.fileName,
      upload: { method: 'POST', url: post.url, fields: post.fields },
      maxBytes: MAX_UPLOAD_BYTES,
      expiresIn: UPLOAD_EXPIRES_SECONDS,
    };
  },
  { successStatus: 201 },
);
