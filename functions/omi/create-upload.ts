import { randomUUID } from 'node:crypto';
import { requireConfig } from '../lib/config';
import { route } from '../lib/http';
import { ConflictError } from '../lib/errors';
import { presignUpload } from '../lib/presigned-upload';
import { activeJob, createJob } from '../model/omi/jobs';
import { importObjectKey } from './drop-keys';
import { uploadBody } from './schemas';
import { OMI_MAX_BYTES, OMI_UPLOAD_TTL_SECONDS, type OmiUploadTicket } from '../domain/uploads';

/**
 * POST /omi/uploads {fileName, semester}: creates the import job and a presigned POST to
 * the OMI drop bucket (key imports/{jobId}/{semester}/{fileName}, at most OMI_MAX_BYTES,
 * 50 MB). When the file lands, S3 starts the import; the page then polls GET /omi/imports/{jobId}.
 */
export const handler = route(
  'omiCreateUpload',
  { body: uploadBody },
  async ({ body, caller }): Promise<OmiUploadTicket> => {
    if (await activeJob('clear')) throw new ConflictError('È in corso la cancellazione dei dati OMI: attendi che finisca prima di importare');
    const jobId = randomUUID();
    const key = importObjectKey(jobId, body.semester, body.fileName);
    await createJob({ id: jobId, kind: 'import', fileName: body.fileName, semester: body.semester, s3Key: key, createdBy: caller?.userId });
    const upload = await presignUpload({ bucket: requireConfig('OMI_BUCKET'), key, maxBytes: OMI_MAX_BYTES, expiresSeconds: OMI_UPLOAD_TTL_SECONDS });
    return { jobId, key, semester: body.semester, fileName: body.fileName, upload };
  },
  { successStatus: 201 },
);
