import type { UploadRequest } from '@domain/property/upload';
import type { PresignedUpload } from '@domain/uploads';
import { api } from '@/lib/api';
import { uploadFile } from '@/lib/upload';

export { UPLOAD_FAILED_MESSAGE } from '@/lib/upload';
export type UploadForm = PresignedUpload;
export type { UploadRequest };

/**
 * One photo or video, straight to the private bucket: POST /api/uploads gives a presigned
 * POST (key, content type and 1 byte..MEDIA_MAX_BYTES enforced by its policy), then the
 * browser sends the file with the one uploader of the SPA (per-file progress).
 */
export function requestUploadForm(input: UploadRequest, signal?: AbortSignal): Promise<UploadForm> {
  return api.post<UploadForm>('/uploads', input, { signal });
}

/** Sends the file to the bucket; `onProgress` gets the share sent, 0..1. */
export function postToBucket(form: UploadForm, file: Blob, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<void> {
  return uploadFile(form, file, { onProgress: (loaded, total) => onProgress(total > 0 ? loaded / total : 1), signal });
}
