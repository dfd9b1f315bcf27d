/**
 * The daily refresh of the trust anchors (functions/system/refresh-trusted-list.ts) against
 * the local S3: the synthetic trusted list (test/fixtures/trusted-list) served by a local HTTP
 * server in place of AgID's makes exactly its two granted CA certificates anchors, named by
 * their hash, with trust/list.json; a failed download, an answer that is not a list, a list
 * without granted CAs or an older list fails the run and leaves the anchors as they were; a
 * newer list without one certificate deletes that one. The trust store itself
 * (functions/lib/trust-store.ts): idempotent registration of a test CA, the container's cache,
 * objects whose bytes do not match their name left out.
 *
 * Assertions are by hash, never on the number of objects. A refresh deletes every anchor the
 * list does not have, test CAs of other files included: this file holds the stack's data
 * alone (test/support/data-lock.ts), and puts back what the store held before.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3 } from '../../functions/lib/aws/s3';
import { resetConfig } from '../../functions/lib/config';
import { listMediaKeys } from '../../functions/lib/media-storage';
import {
  addTrustAnchor,
  loadTrustAnchors,
  readTrustList,
  replaceTrustAnchors,
  TRUST_ANCHORS_PREFIX,
  TRUST_LIST_KEY,
  type TrustListRecord,
} from '../../functions/lib/trust-store';
import { handler } from '../../functions/system/refresh-trusted-list';
import { triggers } from '../../functions/routes';
import { rateToMs } from '../../infra/local/stack';
import { stack, useStackEnv } from '../support/helpers';
import { derOf, fixtureCert, hashOf, TSL_FIXTURE, withoutCert, withSequence, type FixtureCert } from '../support/trusted-list';

const BUCKET = () => stack().env.MEDIA_BUCKET!;
// the handler reads nothing of EventBridge's event (events/refresh-trusted-list.json)
const run = () => handler();

/** What the local server answers next. */
let answer: (res: http.ServerResponse) => void = (res) => res.end();
let server: http.Server;
let url = '';
let requests = 0;

const serve = (status: number, body: string, type = 'application/xml') => {
  answer = (res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };
};

const anchorKey = (name: FixtureCert) => `${TRUST_ANCHORS_PREFIX}${hashOf(fixtureCert(name))}.cer`;
const storedKeys = async () => new Set(await listMediaKeys(TRUST_ANCHORS_PREFIX));
const loadedHashes = async () => new Set((await loadTrustAnchors({ fresh: true })).map((der) => hashOf(der)));
const objectBytes = async (Key: string) => (await s3().send(new GetObjectCommand({ Bucket: BUCKET(), Key }))).Body!.transformToByteArray();

// what the store held before this file, put back after it
let before: { anchors: Uint8Array[]; list: string | undefined };

beforeAll(async () => {
  useStackEnv();
  server = http.createServer((_req, res) => {
    requests++;
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/TL/TSL-IT.xml`;
  process.env.TRUSTED_LIST_URL = url;
  resetConfig();
  const list = await s3()
    .send(new GetObjectCommand({ Bucket: BUCKET(), Key: TRUST_LIST_KEY }))
    .then((r) => r.Body!.transformToString(), () => undefined);
  before = { anchors: await loadTrustAnchors({ fresh: true }), list };
});

afterAll(async () => {
  if (before) {
    await replaceTrustAnchors(before.anchors, { source: 'test', fetchedAt: new Date().toISOString(), sequenceNumber: null, nextUpdate: null });
    if (before.list === undefined) await s3().send(new DeleteObjectCommand({ Bucket: BUCKET(), Key: TRUST_LIST_KEY }));
    else await s3().send(new PutObjectCommand({ Bucket: BUCKET(), Key: TRUST_LIST_KEY, Body: before.list, ContentType: 'application/json' }));
  }
  delete process.env.TRUSTED_LIST_URL;
  resetConfig();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

describe('the scheduled refresh of the trusted list', () => {
  it('is a daily schedule with the media bucket actions, never run by the local timer', () => {
    const def = triggers.find((t) => t.id === 'refreshTrustedList');
    expect(def).toMatchObject({ source: 'schedule', schedule: 'rate(1 day)', handler: 'system/refresh-trusted-list', localSchedule: false });
    expect(rateToMs(def!.schedule)).toBe(86_400_000);
  });

  it('makes the granted qualified CAs of the list the trust anchors, and writes trust/list.json', async () => {
    serve(200, TSL_FIXTURE);
    const at = requests;
    const result = await run();
    expect(requests).toBe(at + 1);
    expect(result).toMatchObject({ source: url, sequenceNumber: 42, nextUpdate: '2027-05-02T09:00:00.000Z', issuedAt: '2026-11-02T09:00:00.000Z', territory: 'IT', count: 2 });

    const keys = await storedKeys();
    for (const kept of ['ca-qc-1', 'ca-qc-2'] as const) {
      expect(keys.has(anchorKey(kept)), kept).toBe(true);
      // the object is the DER itself
      expect(Buffer.from(await objectBytes(anchorKey(kept))).equals(Buffer.from(derOf(fixtureCert(kept))))).toBe(true);
    }
    for (const other of ['withdrawn', 'tsa', 'wsa', 'scheme operator'] as const) expect(keys.has(anchorKey(other)), other).toBe(false);
    const loaded = await loadedHashes();
    expect(loaded.has(hashOf(fixtureCert('ca-qc-1')))).toBe(true);
    expect(loaded.has(hashOf(fixtureCert('ca-qc-2')))).toBe(true);

    const list = await readTrustList();
    expect(list).toEqual({ source: url, fetchedAt: expect.any(String), sequenceNumber: 42, nextUpdate: '2027-05-02T09:00:00.000Z', issuedAt: '2026-11-02T09:00:00.000Z', territory: 'IT', count: 2 } satisfies Record<keyof TrustListRecord, unknown>);
    expect(Date.now() - Date.parse(list!.fetchedAt)).toBeLessThan(60_000);
  });

  it('refuses a failed download, what is not a list, a list without granted CAs and an older list: the anchors stay', async () => {
    const listBefore = await readTrustList();
    const onlyWithdrawn = TSL_FIXTURE.replace(
      'Svcstatus/granted</tsl:ServiceStatus>\n            <tsl:StatusStartingTime>2016-06-30T22:00:00Z</tsl:StatusStartingTime>\n            <tsl:ServiceInformationExtensions>',
      'Svcstatus/withdrawn</tsl:ServiceStatus>\n            <tsl:StatusStartingTime>2026-11-01T00:00:00Z</tsl:StatusStartingTime>\n            <tsl:ServiceInformationExtensions>',
    );
    expect(onlyWithdrawn).not.toBe(TSL_FIXTURE);
    const cases: [string, () => void, RegExp][] = [
      ['HTTP 500', () => serve(500, '<html><body>Errore interno</body></html>', 'text/html'), /download failed \(HTTP 500\)/],
      ['an HTML page', () => serve(200, '<html><body>Manutenzione in corso</body></html>', 'text/html'), /root element is <html>/],
      ['garbage', () => serve(200, '\u0000\u0001 garbage {{{ not xml', 'application/octet-stream'), /Not a trusted list/],
      ['a list cut short', () => serve(200, TSL_FIXTURE.slice(0, 5000)), /malformed XML/],
      ['a list without providers', () => serve(200, withSequence(TSL_FIXTURE.replace(/<tsl:TrustServiceProviderList>[\s\S]*<\/tsl:TrustServiceProviderList>/, ''), 50)), /no certificate/],
      ['a list whose CA is withdrawn', () => serve(200, withSequence(onlyWithdrawn, 50)), /no certificate/],
      ['an older list', () => serve(200, withSequence(withoutCert(TSL_FIXTURE, 'ca-qc-2'), 41)), /sequence number 41 is older than the stored 42/],
    ];
    for (const [what, setUp, why] of cases) {
      setUp();
      await expect(run(), what).rejects.toThrow(why);
      const keys = await storedKeys();
      expect(keys.has(anchorKey('ca-qc-1')), what).toBe(true);
      expect(keys.has(anchorKey('ca-qc-2')), what).toBe(true);
      expect(await readTrustList(), what).toEqual(listBefore);
    }

    // nobody listening
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    process.env.TRUSTED_LIST_URL = `http://127.0.0.1:${port}/TL/TSL-IT.xml`;
    resetConfig();
    try {
      await expect(run()).rejects.toThrow(/download failed/);
    } finally {
      process.env.TRUSTED_LIST_URL = url;
      resetConfig();
    }
    expect((await storedKeys()).has(anchorKey('ca-qc-2'))).toBe(true);
  });

  it('a newer list without a certificate deletes its anchor; a test CA registered meanwhile goes too', async () => {
    const testCa = derOf(fixtureCert('tsa'));
    const testKey = await addTrustAnchor(testCa);
    expect(testKey).toBe(anchorKey('tsa'));
    expect((await loadedHashes()).has(hashOf(testCa))).toBe(true);

    serve(200, withSequence(withoutCert(TSL_FIXTURE, 'ca-qc-2'), 43));
    const result = await run();
    expect(result).toMatchObject({ sequenceNumber: 43, count: 1, added: 0 });
    expect(result.removed).toBeGreaterThanOrEqual(2);
    const keys = await storedKeys();
    expect(keys.has(anchorKey('ca-qc-1'))).toBe(true);
    expect(keys.has(anchorKey('ca-qc-2'))).toBe(false);
    expect(keys.has(testKey)).toBe(false);
    const loaded = await loadedHashes();
    expect(loaded.has(hashOf(fixtureCert('ca-qc-1')))).toBe(true);
    expect(loaded.has(hashOf(fixtureCert('ca-qc-2')))).toBe(false);
    expect(await readTrustList()).toMatchObject({ sequenceNumber: 43, count: 1 });

    // the same list again: nothing to put or delete
    expect(await run()).toMatchObject({ sequenceNumber: 43, count: 1, added: 0, removed: 0 });
  });
});

describe('the trust store', () => {
  it('registers a test CA once, by the hash of its bytes', async () => {
    const der = derOf(fixtureCert('withdrawn'));
    const key = await addTrustAnchor(der);
    expect(await addTrustAnchor(der)).toBe(key);
    expect([...(await storedKeys())].filter((k) => k === key)).toEqual([key]);
    expect((await loadTrustAnchors()).filter((d) => hashOf(d) === hashOf(der))).toHaveLength(1);
  });

  it('reuses what the container read until asked for fresh anchors; leaves out an object that is not its name', async () => {
    await loadTrustAnchors({ fresh: true });
    // written behind the module's back (another container, a refresh elsewhere)
    const der = derOf(fixtureCert('wsa'));
    await s3().send(new PutObjectCommand({ Bucket: BUCKET(), Key: anchorKey('wsa'), Body: der }));
    expect((await loadTrustAnchors()).some((d) => hashOf(d) === hashOf(der))).toBe(false);
    expect((await loadTrustAnchors({ fresh: true })).some((d) => hashOf(d) === hashOf(der))).toBe(true);

    // bytes under another certificate's name: not an anchor
    const forged = `${TRUST_ANCHORS_PREFIX}${'0'.repeat(64)}.cer`;
    await s3().send(new PutObjectCommand({ Bucket: BUCKET(), Key: forged, Body: derOf(fixtureCert('scheme operator')) }));
    try {
      const loaded = await loadTrustAnchors({ fresh: true });
      expect(loaded.some((d) => hashOf(d) === hashOf(fixtureCert('scheme operator')))).toBe(false);
    } finally {
      await s3().send(new DeleteObjectCommand({ Bucket: BUCKET(), Key: forged }));
      await s3().send(new DeleteObjectCommand({ Bucket: BUCKET(), Key: anchorKey('wsa') }));
    }
  });
});
