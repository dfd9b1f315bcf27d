import { describe, expect, it } from 'vitest';
import {
  isVideoFileName,
  MAX_UPLOAD_BYTES,
  mediaKey,
  mediaKindOf,
  ONLY_MEDIA_MESSAGE,
  parseMediaKey,
  safeFileName,
  TOO_LARGE_MESSAGE,
  uploadRequestSchema,
} from '../../functions/domain/property';
import { decodePolicy, evaluatePostPolicy } from '../../infra/local/s3-post-policy';

const draft = '2b7f3c1e-8a4d-4f6b-9c2e-1d3a5b7c9e0f';
const room = '7c9e0f2b-3c1e-4a4d-8f6b-9c2e1d3a5b7c';

describe('media names and keys', () => {
  it('makes file names safe for keys', () => {
    expect(safeFileName('Foto Cucina (1).JPG')).toBe('Foto_Cucina_1.jpg');
    expect(safeFileName('perché è così.png')).toBe('perche_e_cosi.png');
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('.htaccess')).toBe('htaccess');
    expect(safeFileName('')).toBe('file');
    expect(safeFileName(`${'a'.repeat(300)}.mp4`).length).toBeLessThanOrEqual(100);
  });

  it('builds keys as {propertyId}/{roomId}/{timestamp}_{safeFileName} and parses them back', () => {
    const key = mediaKey(draft, room, 'Salotto 1.jpeg', 1767225600000);
    expect(key).toBe(`${draft}/${room}/1767225600000_Salotto_1.jpeg`);
    expect(parseMediaKey(key)).toEqual({ propertyId: draft, roomId: room, timestamp: 1767225600000, fileName: 'Salotto_1.jpeg' });
    expect(parseMediaKey(`${draft}/x/1_a.jpg`)).toBeUndefined();
  });

  it('accepts images and videos only', () => {
    expect(mediaKindOf('image/png')).toBe('image');
    expect(mediaKindOf('video/mp4')).toBe('video');
    expect(mediaKindOf('application/x-msdownload')).toBeUndefined();
    expect(mediaKindOf('image/')).toBeUndefined();
    expect(isVideoFileName('a.MOV')).toBe(true);
  });

  it('validates the upload request with Italian messages', () => {
    const ok = { propertyDraftId: draft, roomId: room, fileName: 'a.png', contentType: 'image/png', size: 1000 };
    expect(uploadRequestSchema.safeParse(ok).success).toBe(true);
    const exe = uploadRequestSchema.safeParse({ ...ok, fileName: 'setup.exe', contentType: 'application/x-msdownload' });
    expect(exe.error?.issues[0]?.message).toBe(ONLY_MEDIA_MESSAGE);
    const big = uploadRequestSchema.safeParse({ ...ok, size: MAX_UPLOAD_BYTES + 1 });
    expect(big.error?.issues[0]?.message).toBe(TOO_LARGE_MESSAGE);
    expect(uploadRequestSchema.safeParse({ ...ok, size: MAX_UPLOAD_BYTES }).success).toBe(true);
  });
});

describe('S3 POST policy evaluation', () => {
  const policy = {
    expiration: '2026-01-01T00:10:00Z',
    conditions: [
      { bucket: 'media' },
      { key: 'a/b/1_c.png' },
      { 'Content-Type': 'image/png' },
      ['content-length-range', 1, 20 * 1024 * 1024],
      ['starts-with', '$Content-Type', 'image/'],
    ] as never[],
  };
  const fields = { key: 'a/b/1_c.png', 'Content-Type': 'image/png', Policy: 'x' };
  const at = new Date('2026-01-01T00:00:00Z');

  it('accepts a conforming upload', () => {
    expect(evaluatePostPolicy(policy, fields, 1000, at)).toEqual({ ok: true });
  });
  it('refuses too large, empty, wrong type, other key, expired, uncovered fields', () => {
    expect(evaluatePostPolicy(policy, fields, 21 * 1024 * 1024, at).ok).toBe(false);
    expect(evaluatePostPolicy(policy, fields, 0, at).ok).toBe(false);
    expect(evaluatePostPolicy(policy, { ...fields, 'Content-Type': 'application/x-msdownload' }, 10, at).ok).toBe(false);
    expect(evaluatePostPolicy(policy, { ...fields, key: 'other' }, 10, at).ok).toBe(false);
    expect(evaluatePostPolicy(policy, fields, 10, new Date('2026-01-01T00:11:00Z')).ok).toBe(false);
    expect(evaluatePostPolicy(policy, { ...fields, acl: 'public-read' }, 10, at).ok).toBe(false);
  });
  it('decodes a base64 policy', () => {
    expect(decodePolicy(Buffer.from(JSON.stringify(policy)).toString('base64'))).toEqual(policy);
  });
});
