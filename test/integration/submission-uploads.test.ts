import { beforeAll, describe, expect, it } from 'vitest';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../functions/lib/aws/s3';
import { decodePolicy, evaluatePostPolicy } from '../../infra/local/s3-post-policy';
import { EMPTY_FILE_MESSAGE, MAX_UPLOAD_BYTES, ONLY_MEDIA_MESSAGE, RATE_LIMITS, TOO_LARGE_MESSAGE, UPLOAD_URL_TTL_SECONDS } from '../../functions/domain/property';
import { stack, useStackEnv } from '../support/helpers';
import { apiFrom, awayFromWindowEdge, dossier, fullBody, newClientIp, newId, pngBytes, postToBucket, type UploadForm } from '../support/submission';

beforeAll(() => useStackEnv());

const MB21 = 21 * 1024 * 1024;

async function form(ip: string, draftId: string, roomId: string, fileName: string, contentType: string, size: number) {
  return apiFrom<UploadForm & { message?: string; fields?: Record<string, string> }>(ip, 'POST', '/uploads', {
    propertyDraftId: draftId,
    roomId,
    fileName,
    contentType,
    size,
  });
}

const exists = async (key: string) =>
  s3().send(new HeadObjectCommand({ Bucket: stack().env.MEDIA_BUCKET, Key: key }))
    .then((h) => ({ contentType: h.ContentType, size: Number(h.ContentLength) }))
    .catch(() => undefined);

describe('POST /uploads: the presigned form', () => {
  const ip = newClientIp();

  it('gives a form for the spec path whose policy enforces key, type family, declared type, 1 byte..20 MB and a short expiry', async () => {
    const draftId = newId();
    const roomId = newId();
    const before = Date.now();
    const res = await form(ip, draftId, roomId, 'Vista terrazzo.PNG', 'image/png', 1234);
    expect(res.status).toBe(200);
    expect(res.body.key).toMatch(new RegExp(`^${draftId}/${roomId}/\\d{13}_Vista_terrazzo\\.png$`));
    expect(res.body.url).toBe(`${stack().urls.s3}/${stack().env.MEDIA_BUCKET}`);
    expect(res.body.maxBytes).toBe(MAX_UPLOAD_BYTES);
    expect(res.body.fields).toMatchObject({ key: res.body.key, 'Content-Type': 'image/png' });
    const policy = decodePolicy(res.body.fields.Policy!);
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1, 20 * 1024 * 1024],
        ['starts-with', '$Content-Type', 'image/'],
        { key: res.body.key },
        { 'Content-Type': 'image/png' },
        { bucket: stack().env.MEDIA_BUCKET },
      ]),
    );
    const ttl = new Date(policy.expiration).getTime() - before;
    expect(ttl).toBeGreaterThan((UPLOAD_URL_TTL_SECONDS - 30) * 1000);
    expect(ttl).toBeLessThanOrEqual((UPLOAD_URL_TTL_SECONDS + 5) * 1000);
    expect(evaluatePostPolicy(policy, res.body.fields, 1234)).toEqual({ ok: true });
  });

  it('refuses a .exe (application/x-msdownload) and a 21 MB file with Italian messages', async () => {
    const exe = await form(ip, newId(), newId(), 'setup.exe', 'application/x-msdownload', 5000);
    expect(exe.status).toBe(400);
    expect(exe.body.message).toBe(ONLY_MEDIA_MESSAGE);
    expect(exe.body.fields).toEqual({ contentType: ONLY_MEDIA_MESSAGE });
    const big = await form(ip, newId(), newId(), 'video.mp4', 'video/mp4', MB21);
    expect(big.status).toBe(400);
    expect(big.body.message).toBe(TOO_LARGE_MESSAGE);
    expect(big.body.fields).toEqual({ size: TOO_LARGE_MESSAGE });
  });
});

/**
 * The upload policy against a 21 MB file and a .exe. On AWS, S3 evaluates the POST policy;
 * the local S3 (s3rver behind the runtime's policy check, infra/local/emulators.ts) answers
 * the same way: 400 EntityTooLarge / 403 AccessDenied, and stores nothing. Should a file
 * reach the bucket by another path, the submission's own check (HeadObject) still refuses it.
 */
describe('the upload policy refuses a 21 MB file and a .exe', () => {
  const ip = newClientIp();

  it('a 21 MB file posted with a form made for a small image', async () => {
    const draftId = newId();
    const roomId = newId();
    const res = await form(ip, draftId, roomId, 'foto.png', 'image/png', 1000);
    expect(res.status).toBe(200);
    const bytes = Buffer.concat([pngBytes(), Buffer.alloc(MB21 - pngBytes().length)]);
    expect(bytes.length).toBe(MB21);

    const verdict = evaluatePostPolicy(decodePolicy(res.body.fields.Policy!), res.body.fields, bytes.length);
    expect(verdict).toMatchObject({ ok: false, reason: expect.stringContaining('EntityTooLarge') });

    const posted = await postToBucket(res.body, bytes, 'foto.png');
    expect(posted.status).toBe(400);
    expect(posted.text).toContain('<Code>EntityTooLarge</Code>');
    expect(await exists(res.body.key)).toBeUndefined();
  });

  it('a .exe posted as application/x-msdownload with a form made for a video', async () => {
    const draftId = newId();
    const roomId = newId();
    const res = await form(ip, draftId, roomId, 'giro.mp4', 'video/mp4', 2048);
    expect(res.status).toBe(200);
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2046)]);
    const fields = { ...res.body.fields, 'Content-Type': 'application/x-msdownload' };
    expect(evaluatePostPolicy(decodePolicy(res.body.fields.Policy!), fields, exe.length).ok).toBe(false);

    const posted = await postToBucket(res.body, exe, 'setup.exe', { 'Content-Type': 'application/x-msdownload' });
    expect(posted.status).toBe(403);
    expect(posted.text).toContain('<Code>AccessDenied</Code>');
    expect(await exists(res.body.key)).toBeUndefined();
  });

  it('a form cannot be reused for another key', async () => {
    const res = await form(ip, newId(), newId(), 'a.png', 'image/png', pngBytes().length);
    const posted = await postToBucket(res.body, pngBytes(), 'a.png', { key: `${newId()}/${newId()}/altro.png` });
    expect(posted.status).toBe(403);
  });

  it('the submission refuses files that reached the bucket by another path', async () => {
    const draftId = newId();
    const roomId = newId();
    const big = await form(ip, draftId, roomId, 'foto.png', 'image/png', 1000);
    await s3().send(new PutObjectCommand({ Bucket: stack().env.MEDIA_BUCKET, Key: big.body.key, Body: Buffer.alloc(MB21), ContentType: 'image/png' }));
    const submitBig = await apiFrom(ip, 'POST', '/properties', fullBody(draftId, [{ id: roomId, type: 'cucina', media: [{ key: big.body.key }] }]));
    expect(submitBig.status).toBe(400);
    expect(submitBig.body).toMatchObject({ message: TOO_LARGE_MESSAGE, fields: { 'rooms.0.media.0.key': TOO_LARGE_MESSAGE } });
    expect(await dossier(draftId)).toEqual([]);

    const draft2 = newId();
    const room2 = newId();
    const exe = await form(ip, draft2, room2, 'giro.mp4', 'video/mp4', 2048);
    await s3().send(new PutObjectCommand({ Bucket: stack().env.MEDIA_BUCKET, Key: exe.body.key, Body: Buffer.from('MZ'), ContentType: 'application/x-msdownload' }));
    const submitExe = await apiFrom(ip, 'POST', '/properties', fullBody(draft2, [{ id: room2, type: 'altro', media: [{ key: exe.body.key }] }]));
    expect(submitExe.status).toBe(400);
    expect(submitExe.body).toMatchObject({ message: ONLY_MEDIA_MESSAGE, fields: { 'rooms.0.media.0.key': ONLY_MEDIA_MESSAGE } });
    expect(await dossier(draft2)).toEqual([]);

    const draft3 = newId();
    const room3 = newId();
    const empty = await form(ip, draft3, room3, 'foto.png', 'image/png', 1000);
    await s3().send(new PutObjectCommand({ Bucket: stack().env.MEDIA_BUCKET, Key: empty.body.key, Body: Buffer.alloc(0), ContentType: 'image/png' }));
    const submitEmpty = await apiFrom(ip, 'POST', '/properties', fullBody(draft3, [{ id: room3, type: 'cucina', media: [{ key: empty.body.key }] }]));
    expect(submitEmpty.status).toBe(400);
    expect(submitEmpty.body).toMatchObject({ message: EMPTY_FILE_MESSAGE, fields: { 'rooms.0.media.0.key': EMPTY_FILE_MESSAGE } });
    expect(await dossier(draft3)).toEqual([]);
  });

  it('the same forms are accepted for what they were made for', async () => {
    const res = await form(ip, newId(), newId(), 'ok.png', 'image/png', pngBytes().length);
    expect(evaluatePostPolicy(decodePolicy(res.body.fields.Policy!), res.body.fields, pngBytes().length)).toEqual({ ok: true });
    expect((await postToBucket(res.body, pngBytes(), 'ok.png')).status).toBe(204);
    expect((await exists(res.body.key))?.size).toBe(pngBytes().length);
  });
});

describe('POST /uploads: rate limit', () => {
  it(`answers 429 after ${RATE_LIMITS.upload.limit} forms per hour from one IP`, async () => {
    await awayFromWindowEdge(RATE_LIMITS.upload.windowSeconds);
    const ip = newClientIp();
    const draftId = newId();
    const roomId = newId();
    for (let i = 0; i < RATE_LIMITS.upload.limit; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(20, RATE_LIMITS.upload.limit - i) }, (_, j) => form(ip, draftId, roomId, `f${i + j}.jpg`, 'image/jpeg', 100)),
      );
      expect(batch.every((r) => r.status === 200)).toBe(true);
    }
    const limited = await form(ip, draftId, roomId, 'troppo.jpg', 'image/jpeg', 100);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Hai fatto troppe richieste in poco tempo\. Riprova tra \d+ minut[oi]\.$/);
    expect((await form(newClientIp(), draftId, roomId, 'altro.jpg', 'image/jpeg', 100)).status).toBe(200);
  });
});
