/** A seller's identity check through the API, as the KYC page makes it: the photos posted to the bucket, then the check. */
import { expect } from 'vitest';
import type { IdentityCheckResult, IdentityFileKind } from '../../functions/domain/identity';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { api } from './helpers';
import { postToBucket } from './submission';

type Answer<T> = T & { message?: string; fields?: Record<string, string> };
const base = (id: string) => `/seller/properties/${id}/identity`;

async function uploadIdentityFile(token: string, id: string, kind: IdentityFileKind, bytes: Buffer): Promise<string> {
  const form = await api<Answer<PresignedUpload>>('POST', `${base(id)}/uploads`, {
    token,
    body: { kind, fileName: `${kind}.jpg`, contentType: 'image/jpeg', size: bytes.length },
  });
  expect(form.status, JSON.stringify(form.body)).toBe(200);
  const posted = await postToBucket(form.body, bytes, 'foto');
  expect(posted.status, posted.text).toBeLessThan(300);
  return form.body.key;
}

/** The owner's check of property `id` with a face photo and a document front (carta d'identità CA 00000 AA, Anna Bianchi). */
export async function checkIdentity(token: string, id: string, face: Buffer, front: Buffer) {
  const faceKey = await uploadIdentityFile(token, id, 'face', face);
  const documentFrontKey = await uploadIdentityFile(token, id, 'documentFront', front);
  return api<Answer<IdentityCheckResult>>('POST', base(id), {
    token,
    body: { documentType: 'carta_identita', documentNumber: 'CA 00000 AA', fullName: 'Anna Bianchi', faceKey, documentFrontKey },
  });
}
