import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../functions/lib/config';
import { omiKeys } from '../../functions/model/keys';

/**
 * "Cancella Tutti i Dati" deletes the listing index parts and the semester manifests with
 * BatchWriteItem. DynamoDB may answer a batch with UnprocessedItems (throttling, partition
 * limits): those deletes must be sent again until none is left, never dropped. A fake
 * DynamoDB client leaves some requests unprocessed on the first calls.
 */
const fake = vi.hoisted(() => {
  const table = new Map<string, Record<string, unknown>>();
  type Key = { pk: unknown; sk: unknown };
  type WriteRequest = { DeleteRequest?: { Key: Key }; PutRequest?: { Item: Key & Record<string, unknown> } };
  const calls: { name: string; input: Record<string, unknown> }[] = [];
  /** how many more calls answer with (part of) their requests unprocessed */
  const state = { unprocessedCalls: 0 };
  const id = (k: Key) => `${String(k.pk)}|${String(k.sk)}`;
  type Command = { constructor: { name: string }; input: Record<string, unknown> };
  const client: { send: (command: Command) => Promise<unknown> } = {
    async send(command: Command) {
      const name = command.constructor.name;
      calls.push({ name, input: command.input });
      if (name === 'BatchWriteCommand') {
        const [tableName, requests] = Object.entries(command.input.RequestItems as Record<string, WriteRequest[]>)[0]!;
        // the first calls process only their first request
        const done = state.unprocessedCalls > 0 ? requests.slice(0, 1) : requests;
        const left = requests.slice(done.length);
        if (state.unprocessedCalls > 0) state.unprocessedCalls--;
        for (const r of done) {
          if (r.DeleteRequest) table.delete(id(r.DeleteRequest.Key));
          if (r.PutRequest) table.set(id(r.PutRequest.Item), r.PutRequest.Item);
        }
        return { UnprocessedItems: left.length ? { [tableName]: left } : {} };
      }
      if (name === 'DeleteCommand') {
        table.delete(id(command.input.Key as Key));
        return {};
      }
      // the data state's new version after the manifest is gone
      if (name === 'UpdateCommand') return {};
      throw new Error(`unexpected ${name}`);
    },
  };
  return { table, calls, state, id, client };
});

vi.mock('../../functions/model/db', async (importOriginal) => ({
  // the real table(); the client and the Query helpers fake
  ...(await importOriginal<typeof import('../../functions/model/db')>()),
  ddb: () => fake.client,
  isConditionFailure: () => false,
  queryPages: async () => undefined,
  queryAll: async () => undefined,
}));

const { deleteIndexParts } = await import('../../functions/model/omi/index-chunks');
const { deleteSemesterManifest } = await import('../../functions/model/omi/semesters');

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
  fake.table.clear();
  fake.calls.length = 0;
});

describe('OMI clear: BatchWriteItem UnprocessedItems', () => {
  it('deletes every listing index part even when DynamoDB leaves some unprocessed', async () => {
    const ref = { v: 'abcd1234', parts: 60, rows: 1000, zones: 40 };
    const keys = Array.from({ length: ref.parts }, (_, part) => omiKeys.indexChunk('2024-S1', 'MI', ref.v, part));
    for (const k of keys) fake.table.set(fake.id(k), { ...k });
    fake.state.unprocessedCalls = 4;

    await deleteIndexParts('2024-S1', 'MI', ref);

    expect(fake.state.unprocessedCalls).toBe(0);
    expect([...fake.table.keys()]).toEqual([]);
    // each unprocessed request was sent again: more calls than the 3 batches of 25
    expect(fake.calls.filter((c) => c.name === 'BatchWriteCommand').length).toBeGreaterThan(3);
  });

  it('deletes the semester manifest even when the first answer leaves it unprocessed', async () => {
    const key = omiKeys.semester('2024-S1');
    fake.table.set(fake.id(key), { ...key });
    // a single-request batch answered with nothing processed
    fake.client.send = wrapOnce(fake.client.send, (input) => ({ UnprocessedItems: input.RequestItems }));

    await deleteSemesterManifest('2024-S1');

    expect(fake.table.has(fake.id(key))).toBe(false);
    expect(fake.calls.at(-1)).toMatchObject({ name: 'UpdateCommand', input: { Key: omiKeys.dataState() } });
  });
});

/** The first BatchWriteCommand answers `answer(input)` without doing anything; then the fake as before. */
type Command = { constructor: { name: string }; input: Record<string, unknown> };
function wrapOnce(send: (c: Command) => Promise<unknown>, answer: (input: Record<string, unknown>) => unknown) {
  let used = false;
  return async (c: Command) => {
    if (!used && c.constructor.name === 'BatchWriteCommand') {
      used = true;
      fake.calls.push({ name: c.constructor.name, input: c.input });
      return answer(c.input);
    }
    return send(c);
  };
}
