import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GetObjectTaggingCommand } from '@aws-sdk/client-s3';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { resetAws } from '../../functions/lib/aws';
import { resetConfig } from '../../functions/lib/config';
import { DRAFT_TAG, DRAFT_LINKABLE_HOURS, draftTagging } from '../../functions/lib/draft-uploads';
import { keys } from '../../functions/model/keys';
import { deliverOutbox, MAX_ATTEMPTS, outboxPut, RETENTION_DAYS } from '../../functions/model/outbox';
import { clientKey } from '../../functions/model/rate-limit';
import { RATE_LIMITS } from '../../functions/domain/property/limits';
import * as places from '../../functions/domain/places/comuni';
import { makeSubmissionSchema } from '../../functions/domain/property/schema';
import { DRAFT_EXPIRED_MESSAGE, submitProperty } from '../../functions/properties/property-submission';
import { ensureIpHashSalt } from '../../infra/local/setup';
import { decodePolicy } from '../../infra/local/s3-post-policy';
import { stack, useStackEnv } from '../support/helpers';
import { apiFrom, dossier, fullBody, newClientIp, newId, pngBytes, postToBucket, upload, type UploadForm } from '../support/submission';

/**
 * Data hygiene: wizard uploads are drafts (tagged, expired by the bucket's lifecycle after a
 * day) until a submission links them; outbox mail copies and rate-limit windows carry a TTL;
 * IP hashes are salted per deployment (locally: per data folder).
 */
beforeAll(() => useStackEnv());
afterEach(() => useStackEnv());

const bucket = () => stack().env.MEDIA_BUCKET!;
const table = () => stack().env.TABLE_NAME!;

async function tagsOf(key: string): Promise<Record<string, string>> {
  const res = await s3().send(new GetObjectTaggingCommand({ Bucket: bucket(), Key: key }));
  return Object.fromEntries((res.TagSet ?? []).map((t) => [t.Key!, t.Value!]));
}
const DRAFT = { [DRAFT_TAG.key]: DRAFT_TAG.value };

describe('wizard uploads are drafts until a submission links them', () => {
  const ip = newClientIp();

  it('the upload form carries the draft tag, and its policy refuses a form without it', async () => {
    const res = await apiFrom<UploadForm>(ip, 'POST', '/uploads', { propertyDraftId: newId(), roomId: newId(), fileName: 'cucina.png', contentType: 'image/png', size: pngBytes().length });
    expect(res.status).toBe(200);
    expect(res.body.fields.tagging).toBe(draftTagging());
    expect(decodePolicy(res.body.fields.Policy!).conditions).toContainEqual({ tagging: draftTagging() });

    const withoutTag = { ...res.body, fields: Object.fromEntries(Object.entries(res.body.fields).filter(([k]) => k !== 'tagging')) };
    const refused = await postToBucket(withoutTag, pngBytes(), 'cucina.png');
    expect(refused.status).toBe(403);
    const otherTag = await postToBucket(res.body, pngBytes(), 'cucina.png', { tagging: '<Tagging><TagSet></TagSet></Tagging>' });
    expect(otherTag.status).toBe(403);

    expect((await postToBucket(res.body, pngBytes(), 'cucina.png')).status).toBe(204);
    expect(await tagsOf(res.body.key)).toEqual(DRAFT);
  });

  it('after a submission the files it links are no drafts (its copies) and its uploads are gone; the files of an abandoned draft still are drafts', async () => {
    const draftId = newId();
    const roomId = newId();
    const kept = [
      await upload(ip, draftId, roomId, 'a.png', 'image/png', pngBytes()),
      await upload(ip, draftId, roomId, 'b.png', 'image/png', pngBytes(6, 6)),
    ];
    const abandonedId = newId();
    const abandoned = await upload(ip, abandonedId, newId(), 'c.png', 'image/png', pngBytes());
    for (const f of [...kept, abandoned]) expect(await tagsOf(f.key)).toEqual(DRAFT);

    const res = await apiFrom(ip, 'POST', '/properties', fullBody(draftId, [{ id: roomId, type: 'cucina', media: kept.map((f) => ({ key: f.key })) }]));
    expect(res.status).toBe(201);
    const linked = (await dossier(draftId)).filter((i) => i.entity === 'media').map((i) => String(i.key));
    expect(linked).toHaveLength(2);
    for (const key of linked) expect(await tagsOf(key)).toEqual({});
    for (const f of kept) expect(linked).not.toContain(f.key);
    for (const f of kept) await expect(tagsOf(f.key)).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    expect(await tagsOf(abandoned.key)).toEqual(DRAFT);
    expect(await dossier(abandonedId)).toEqual([]);
  });

  it(`refuses to link a draft uploaded more than ${DRAFT_LINKABLE_HOURS} hours before (the lifecycle may already delete it)`, async () => {
    const draftId = newId();
    const roomId = newId();
    const file = await upload(ip, draftId, roomId, 'vecchia.png', 'image/png', pngBytes());
    const body = makeSubmissionSchema({ places }).parse(fullBody(draftId, [{ id: roomId, type: 'cucina', media: [{ key: file.key }] }]));
    const later = new Date(Date.now() + (DRAFT_LINKABLE_HOURS * 60 + 5) * 60_000);
    await expect(submitProperty(body, { now: later })).rejects.toMatchObject({
      message: DRAFT_EXPIRED_MESSAGE,
      fields: { 'rooms.0.media.0.key': DRAFT_EXPIRED_MESSAGE },
    });
    expect(await dossier(draftId)).toEqual([]);
    expect(await tagsOf(file.key)).toEqual(DRAFT);
    // within the window the same draft is linked
    const soon = new Date(Date.now() + (DRAFT_LINKABLE_HOURS * 60 - 5) * 60_000);
    await expect(submitProperty(body, { now: soon })).resolves.toMatchObject({ propertyId: draftId, status: 'submitted' });
    const linked = (await dossier(draftId)).find((i) => i.entity === 'media')!;
    expect(await tagsOf(String(linked.key))).toEqual({});
  });
});

describe('outbox items carry a TTL once they are done', () => {
  const item = async (id: string) => (await ddb().send(new GetCommand({ TableName: table(), Key: keys.outbox(id), ConsistentRead: true }))).Item!;
  async function enqueue(id: string, to = 'backoffice@opzionecasa.it', attempts = 0) {
    const put = outboxPut({ id, kind: 'test', ref: id, now: new Date().toISOString(), mail: { to: [to], subject: `Prova ${id}`, html: `<p>${id}</p>`, text: id } });
    // due in a year: a run of the scheduled retry meanwhile (another file's, or the local
    // schedule's), which sends every due mail, leaves it to this test's own delivery
    const due = new Date(Date.now() + 365 * 86_400_000).toISOString();
    Object.assign(put.Put.Item, keys.outboxPendingIndex(due, id), { attempts, nextAttemptAt: due });
    await ddb().send(new TransactWriteCommand({ TransactItems: [put as never] }));
  }
  const expectTtl = (expiresAt: unknown) => {
    const expected = Math.floor(Date.now() / 1000) + RETENTION_DAYS * 86_400;
    expect(typeof expiresAt).toBe('number');
    expect(Math.abs((expiresAt as number) - expected)).toBeLessThan(120);
  };

  it(`keeps a pending mail without TTL, and a sent one ${RETENTION_DAYS} days`, async () => {
    const id = `ttl-${newId()}`;
    await enqueue(id);
    expect((await item(id)).expiresAt).toBeUndefined();
    expect(await deliverOutbox(id)).toBe('sent');
    expectTtl((await item(id)).expiresAt);
  });

  it(`keeps a mail that failed for good (attempts exhausted) ${RETENTION_DAYS} days`, async () => {
    const id = `ttl-${newId()}`;
    await enqueue(id, 'backoffice@opzionecasa.it', MAX_ATTEMPTS - 1);
    process.env.SES_ENDPOINT = 'http://127.0.0.1:9'; // nothing listens there
    resetConfig();
    resetAws();
    expect(await deliverOutbox(id)).toBe('failed');
    const failed = await item(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expectTtl(failed.expiresAt);
  });

  it(`keeps a mail refused at once (bad address) ${RETENTION_DAYS} days`, async () => {
    const id = `ttl-${newId()}`;
    await enqueue(id, 'non-un-indirizzo');
    expect(await deliverOutbox(id)).toBe('failed');
    expectTtl((await item(id)).expiresAt);
  });
});

describe('rate-limit windows: salted client hash and TTL', () => {
  it('stores the window under the salted hash of the IP, never the plain one, with a TTL just after the window', async () => {
    const ip = newClientIp();
    const before = Math.floor(Date.now() / 1000);
    const res = await apiFrom(ip, 'POST', '/uploads', { propertyDraftId: newId(), roomId: newId(), fileName: 'x.png', contentType: 'image/png', size: 10 });
    expect(res.status).toBe(200);
    const { windowSeconds } = RATE_LIMITS.upload;
    const windowStart = before - (before % windowSeconds);
    const get = async (client: string) =>
      (await ddb().send(new GetCommand({ TableName: table(), Key: keys.rateLimit('upload', client, windowStart), ConsistentRead: true }))).Item;

    const salted = await get(clientKey(ip));
    expect(salted).toMatchObject({ count: 1, entity: 'rateLimit', expiresAt: windowStart + windowSeconds + 60 });
    expect(JSON.stringify(salted)).not.toContain(ip);
    const plain = createHash('sha256').update(ip).digest('base64url').slice(0, 22);
    expect(await get(plain)).toBeUndefined();
  });

  it('has a salt for this local stack', () => {
    expect(stack().env.IP_HASH_SALT).toMatch(/^[A-Za-z0-9_-]{32,}$/);
  });

  describe('locally, one salt per data folder', () => {
    const dirs: string[] = [];
    afterAll(async () => {
      for (const d of dirs) await rm(d, { recursive: true, force: true });
    });

    it('is made once per folder, kept across restarts, private to the user, and differs between folders', async () => {
      const a = await mkdtemp(path.join(os.tmpdir(), 'salt-a-'));
      const b = await mkdtemp(path.join(os.tmpdir(), 'salt-b-'));
      dirs.push(a, b);
      const first = await ensureIpHashSalt(a);
      expect(first).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      expect(await ensureIpHashSalt(a)).toBe(first);
      const file = (await readFile(path.join(a, 'ip-hash-salt'), 'utf8')).trim();
      expect(file).toBe(first);
      expect((await stat(path.join(a, 'ip-hash-salt'))).mode & 0o077).toBe(0);
      expect(await ensureIpHashSalt(b)).not.toBe(first);
    });
  });
});
