import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TransactWriteCommand, TransactWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import { resetConfig } from '../../functions/lib/config';
import * as places from '../../functions/domain/places/comuni';
import { makeSubmissionSchema } from '../../functions/domain/property/schema';

/**
 * On DynamoDB two transactions on the same item at the same moment conflict: one is
 * cancelled with TransactionCanceledException / TransactionConflict, and the SDK does not
 * retry it. Every submission adds 1 to the requests counter item in its transaction, so a
 * burst of submissions collides there. DynamoDB Local runs transactions one at a time and
 * never reports a conflict (bench/load.ts: 200 at once, none): a fake client does here.
 */
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

const fake = vi.hoisted(() => {
  type Command = { constructor: { name: string }; input: Record<string, unknown> };
  const state = { conflicts: 0, calls: [] as { name: string; input: Record<string, unknown> }[] };
  const client = {
    async send(command: Command): Promise<unknown> {
      const name = command.constructor.name;
      state.calls.push({ name, input: command.input });
      if (name === 'GetCommand') return {};
      if (name === 'TransactWriteCommand') {
        if (state.conflicts > 0) {
          state.conflicts--;
          const { TransactionCanceledException: Cancelled } = await import('@aws-sdk/client-dynamodb');
          const items = command.input.TransactItems as unknown[];
          // the counter update (last item) collided; the others were not evaluated
          throw new Cancelled({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: items.map((_, i) => ({ Code: i === items.length - 1 ? 'TransactionConflict' : 'None' })) });
        }
        return {};
      }
      if (name === 'UpdateCommand') {
        // the outbox claim: another sender has it (the mail is not sent in this test)
        const { ConditionalCheckFailedException: Failed } = await import('@aws-sdk/client-dynamodb');
        throw new Failed({ message: 'The conditional request failed', $metadata: {} });
      }
      throw new Error(`unexpected ${name}`);
    },
  };
  return { state, client };
});

vi.mock('../../functions/model/db', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../functions/model/db')>();
  return {
    ...actual,
    ddb: () => fake.client,
    transactWrite: (input: Parameters<typeof actual.transactWrite>[0]) =>
      actual.transactWrite(input, { client: fake.client as never, sleep: async () => undefined }),
  };
});

const { isConditionFailure, isTransactionConflict, transactWrite, TRANSACT_ATTEMPTS } = await vi.importActual<typeof import('../../functions/model/db')>(
  '../../functions/model/db',
);
const { submitProperty } = await import('../../functions/properties/property-submission');

/** A client that answers each TransactWriteCommand with the next outcome (an error is thrown). */
function scripted(outcomes: unknown[]) {
  const sent: TransactWriteCommand[] = [];
  return {
    sent,
    client: {
      async send(command: TransactWriteCommand): Promise<TransactWriteCommandOutput> {
        sent.push(command);
        const next = outcomes.shift();
        if (next instanceof Error) throw next;
        return { $metadata: {} };
      },
    },
  };
}
const noWait = async () => undefined;
const input = { TransactItems: [{ Update: { TableName: 't', Key: { pk: 'STATS#PROPERTIES', sk: 'COUNT' }, UpdateExpression: 'ADD #n :one' } }] };

const savedTable = process.env.TABLE_NAME;
beforeAll(() => {
  process.env.TABLE_NAME = 'opzione-casa';
  resetConfig();
});
afterAll(() => {
  if (savedTable === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = savedTable;
  resetConfig();
});
beforeEach(() => {
  fake.state.conflicts = 0;
  fake.state.calls.length = 0;
});

describe('transaction conflicts', () => {
  it('tells a conflict from a failed condition', () => {
    expect(isTransactionConflict(cancelled('None', 'TransactionConflict'))).toBe(true);
    expect(isTransactionConflict(cancelled('TransactionConflict'))).toBe(true);
    expect(isTransactionConflict(cancelled('ConditionalCheckFailed', 'None'))).toBe(false);
    // a failed condition and a conflict together: the condition decides, nothing to retry
    expect(isTransactionConflict(cancelled('ConditionalCheckFailed', 'TransactionConflict'))).toBe(false);
    expect(isTransactionConflict(cancelled('None', 'ThrottlingError'))).toBe(false);
    expect(isTransactionConflict(new ConditionalCheckFailedException({ message: 'x', $metadata: {} }))).toBe(false);
    expect(isTransactionConflict(new Error('connect ECONNREFUSED'))).toBe(false);
  });

  it('runs a transaction cancelled by conflicts again, with growing waits, until it goes through', async () => {
    const waits: number[] = [];
    const c = scripted([cancelled('None', 'TransactionConflict'), cancelled('TransactionConflict'), undefined]);
    await transactWrite(input, { client: c.client, sleep: async (ms) => void waits.push(ms) });
    expect(c.sent).toHaveLength(3);
    expect(c.sent.every((s) => s.input === c.sent[0]!.input || JSON.stringify(s.input) === JSON.stringify(input))).toBe(true);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(0);
    expect(waits[0]).toBeLessThanOrEqual(50);
    expect(waits[1]).toBeLessThanOrEqual(100);
  });

  it(`gives up after ${TRANSACT_ATTEMPTS} attempts and throws the conflict`, async () => {
    const c = scripted(Array.from({ length: 20 }, () => cancelled('TransactionConflict')));
    const err = await transactWrite(input, { client: c.client, sleep: noWait }).catch((e: unknown) => e);
    expect(isTransactionConflict(err)).toBe(true);
    expect(c.sent).toHaveLength(TRANSACT_ATTEMPTS);
  });

  it('never retries a failed condition or another error', async () => {
    for (const error of [cancelled('ConditionalCheckFailed', 'None'), cancelled('ConditionalCheckFailed', 'TransactionConflict'), new Error('ValidationException')]) {
      const c = scripted([error, undefined]);
      const err = await transactWrite(input, { client: c.client, sleep: noWait }).catch((e: unknown) => e);
      expect(err).toBe(error);
      expect(c.sent).toHaveLength(1);
    }
    // the callers still read the failed condition as before
    expect(isConditionFailure(cancelled('ConditionalCheckFailed', 'None'), 0)).toBe(true);
  });
});

describe('a submission that collides on the requests counter', () => {
  const schema = makeSubmissionSchema({ places });
  const body = schema.parse({
    propertyDraftId: '2b7f3c1e-8a4d-4f6b-9c2e-1d3a5b7c9e0f',
    address: 'Via Roma 1',
    province: 'MI',
    city: 'Milano',
    firstName: 'Anna',
    lastName: 'Rossi',
    email: 'anna.rossi@example.it',
    phone: '333 123 4567',
    privacyConsent: true,
  });

  it('is stored at the third attempt, the same transaction each time, and answered as a success', async () => {
    fake.state.conflicts = 2;
    const result = await submitProperty(body);
    expect(result).toMatchObject({ propertyId: body.propertyDraftId, status: 'submitted' });
    const transactions = fake.state.calls.filter((c) => c.name === 'TransactWriteCommand');
    expect(transactions).toHaveLength(3);
    expect(new Set(transactions.map((t) => JSON.stringify(t.input))).size).toBe(1);
    // the counter is in it: what the conflicts were about
    expect(JSON.stringify(transactions[0]!.input)).toContain('STATS#PROPERTIES');
  });

  it('still fails (nothing stored) when the conflicts outlast every attempt', async () => {
    fake.state.conflicts = TRANSACT_ATTEMPTS;
    const err = await submitProperty(body).catch((e: unknown) => e);
    expect(isTransactionConflict(err)).toBe(true);
    expect(fake.state.calls.filter((c) => c.name === 'TransactWriteCommand')).toHaveLength(TRANSACT_ATTEMPTS);
  });
});
