import { readFileSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../functions/lib/config';
import { omiKeys } from '../../functions/model/keys';
import { MILANO } from '../support/omi-samples';

/**
 * A running OMI job whose heartbeat is older than STALE_AFTER_MS (30 s) is taken over by a
 * redelivered event. The heartbeat must therefore come every few seconds whatever the row
 * rate: here every BatchWriteItem stalls for 45 s (a throttled table), with a fake clock,
 * and the job item must still be touched every HEARTBEAT_MS, and never after the job ended.
 */

const fake = vi.hoisted(() => {
  const jobUpdates: { at: number; expression: string; status?: unknown }[] = [];
  const shardItems = new Map<string, { pk: string; sk: string }[]>();
  const state = { jobId: '', manifests: [] as Record<string, unknown>[] };
  const client = {
    async send(command: { constructor: { name: string }; input: Record<string, unknown> }) {
      const name = command.constructor.name;
      const input = command.input;
      if (name === 'BatchWriteCommand') {
        await new Promise((r) => setTimeout(r, 45_000));
        return { UnprocessedItems: {} };
      }
      if (name === 'UpdateCommand') {
        const key = input.Key as { pk: string; sk: string };
        if (key.pk === `OMIJOB#${state.jobId}`) {
          const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
          jobUpdates.push({ at: Date.now(), expression: String(input.UpdateExpression), status: values?.[':status'] });
        }
        return {};
      }
      if (name === 'QueryCommand') return { Items: [] };
      if (name === 'GetCommand' || name === 'PutCommand' || name === 'DeleteCommand') return {};
      if (name === 'BatchGetCommand') return { Responses: {} };
      throw new Error(`unexpected ${name}`);
    },
  };
  return { jobUpdates, shardItems, state, client };
});

vi.mock('../../functions/model/db', async (importOriginal) => ({
  // the real table(); the client and the Query helpers fake
  ...(await importOriginal<typeof import('../../functions/model/db')>()),
  ddb: () => fake.client,
  isConditionFailure: () => false,
  queryPages: async () => undefined,
  queryAll: async (input: { ExpressionAttributeValues: Record<string, string> }, onItem: (item: Record<string, unknown>) => boolean | void) => {
    const pk = input.ExpressionAttributeValues[':pk']!;
    const items: Record<string, unknown>[] = pk === 'OMI#META' ? fake.state.manifests : (fake.shardItems.get(pk) ?? []);
    for (const item of items) if (onItem(item) === false) return;
  },
}));

const milano = readFileSync(MILANO.valori2025);
vi.mock('../../functions/lib/aws/s3', () => ({
  s3: () => ({
    async send() {
      return { ContentLength: milano.length, Body: Readable.from([milano]) };
    },
  }),
}));

const { HEARTBEAT_MS } = await import('../../functions/omi/heartbeat');
const { STALE_AFTER_MS } = await import('../../functions/model/omi/jobs');
const { runImport } = await import('../../functions/omi/run-import');
const { runClear } = await import('../../functions/omi/run-clear');

const saved = process.env.TABLE_NAME;
beforeAll(() => {
  process.env.TABLE_NAME = 'opzione-casa';
  resetConfig();
});
afterAll(() => {
  if (saved === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = saved;
  resetConfig();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  fake.jobUpdates.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

/** Advances the fake clock one second at a time until the run settles. */
async function runToEnd<T>(run: Promise<T>, limitMs = 10 * 60_000): Promise<T> {
  let settled = false;
  let value: T | undefined;
  let error: unknown;
  run.then(
    (v) => ((settled = true), (value = v)),
    (e: unknown) => ((settled = true), (error = e)),
  );
  for (let t = 0; !settled && t < limitMs; t += 1000) await vi.advanceTimersByTimeAsync(1000);
  if (!settled) throw new Error('the run did not end');
  if (error) throw error;
  return value as T;
}

function expectRegularBeats(started: number) {
  const times = [started, ...fake.jobUpdates.map((u) => u.at)];
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  // the run lasted well over the stale threshold, and no beat was ever missing long
  expect(times.at(-1)! - started).toBeGreaterThan(STALE_AFTER_MS);
  expect(Math.max(...gaps)).toBeLessThan(STALE_AFTER_MS / 2);
  expect(Math.max(...gaps)).toBeLessThanOrEqual(HEARTBEAT_MS + 1000);
}

describe('OMI job heartbeat', () => {
  it('beats often enough that a live job is never taken for stale', () => {
    expect(HEARTBEAT_MS).toBeGreaterThanOrEqual(5_000);
    expect(HEARTBEAT_MS).toBeLessThanOrEqual(10_000);
    expect(HEARTBEAT_MS * 3).toBeLessThanOrEqual(STALE_AFTER_MS);
  });

  it('keeps an import alive while its writes stall, and stops once the job is completed', async () => {
    fake.state.jobId = 'import-1';
    const started = Date.now();
    const outcome = await runToEnd(
      runImport({ bucket: 'drop', key: 'imports/import-1/2025-S1/milano.csv', jobId: 'import-1', semester: undefined, fileName: 'milano.csv', size: statSync(MILANO.valori2025).size }),
    );
    expect(outcome).toMatchObject({ status: 'completed', rowsRead: 446 });
    expectRegularBeats(started);
    const last = fake.jobUpdates.at(-1)!;
    expect(last.status).toBe('completed');
    const count = fake.jobUpdates.length;
    await vi.advanceTimersByTimeAsync(5 * HEARTBEAT_MS);
    expect(fake.jobUpdates).toHaveLength(count);
  });

  it('keeps a clear alive while its deletes stall, and stops once the job is completed', async () => {
    fake.state.jobId = 'clear-1';
    fake.state.manifests = [{ semester: '2024-S1', provinces: new Set(['MI']), dirty: new Set(), index: {} }];
    for (const q of omiKeys.semesterProvince('2024-S1', 'MI')) {
      fake.shardItems.set(q.pk, Array.from({ length: 30 }, (_, i) => ({ pk: q.pk, sk: `Q#MI${String(i).padStart(8, '0')}` })));
    }
    const started = Date.now();
    const outcome = await runToEnd(runClear('clear-1'));
    expect(outcome.status).toBe('completed');
    expectRegularBeats(started);
    expect(fake.jobUpdates.at(-1)!.status).toBe('completed');
    const count = fake.jobUpdates.length;
    await vi.advanceTimersByTimeAsync(5 * HEARTBEAT_MS);
    expect(fake.jobUpdates).toHaveLength(count);
  });
});
