import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table, transactWrite } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { guardedTransaction, propertyCheck, propertyCondition, readProperty, type PropertyGuard } from '../../functions/model/property';
import { LIFECYCLE, type Lifecycle } from '../../functions/domain/requests';
import { useStackEnv } from '../support/helpers';

/**
 * The one guard of every write on a property (functions/model/property.ts), against DynamoDB
 * Local: what it accepts and refuses is decided by the write's own condition, so these
 * tests write real items and run real conditional writes.
 */
beforeAll(() => useStackEnv());

const AT = '2026-01-01T00:00:00.000Z';
/** The PROPERTY attributes that put a property in each lifecycle state (a null counts as unset). */
const FACTS: Record<Lifecycle, Record<string, unknown>> = {
  nuova: { valuedAt: null },
  valutata: { valuedAt: AT },
  stima_inviata: { valuedAt: AT, estimateSentAt: AT, optionCreatedAt: null },
  opzione_creata: { valuedAt: AT, estimateSentAt: AT, optionCreatedAt: AT },
  opzione_firmata: { valuedAt: AT, estimateSentAt: AT, optionCreatedAt: AT, optionSignedAt: AT },
};

async function property(facts: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
  const id = randomUUID();
  await ddb().send(new PutCommand({ TableName: table(), Item: { ...keys.property(id), entity: 'property', userId: 'owner-1', ...facts, ...extra } }));
  return id;
}

/** A guarded write of a note under the property (a ConditionCheck on the PROPERTY item first). */
async function writeNote(guard: PropertyGuard): Promise<'written' | 'refused'> {
  try {
    await transactWrite(guardedTransaction(guard, [{ Put: { TableName: table(), Item: { ...keys.document(guard.propertyId, 'note'), note: 'x' } } }]));
    return 'written';
  } catch (err) {
    if (isConditionFailure(err, 0)) return 'refused';
    throw err;
  }
}

describe('property guard', () => {
  it('allows exactly the listed lifecycle states, for every state and every single-state rule', async () => {
    const ids = Object.fromEntries(await Promise.all(LIFECYCLE.map(async (s) => [s, await property(FACTS[s])] as const))) as Record<Lifecycle, string>;
    for (const allowed of LIFECYCLE) {
      for (const actual of LIFECYCLE) {
        const outcome = await writeNote({ propertyId: ids[actual], states: [allowed] });
        expect(`${allowed} on ${actual}: ${outcome}`).toBe(`${allowed} on ${actual}: ${allowed === actual ? 'written' : 'refused'}`);
      }
    }
  });

  it('"before the signature" is one argument', async () => {
    const before = LIFECYCLE.filter((s) => s !== 'opzione_firmata');
    expect(await writeNote({ propertyId: await property(FACTS.opzione_creata), states: before })).toBe('written');
    expect(await writeNote({ propertyId: await property(FACTS.opzione_firmata), states: before })).toBe('refused');
  });

  it('refuses another owner, a property being deleted and a missing one', async () => {
    const id = await property(FACTS.nuova);
    expect(await writeNote({ propertyId: id, owner: 'owner-1' })).toBe('written');
    expect(await writeNote({ propertyId: id, owner: 'owner-2' })).toBe('refused');
    expect(await writeNote({ propertyId: await property(FACTS.nuova, { deletingAt: AT }) })).toBe('refused');
    expect(await writeNote({ propertyId: randomUUID() })).toBe('refused');
  });

  it("joins an Update of the PROPERTY item itself (one operation per item) and keeps the write's own condition", async () => {
    const id = await property(FACTS.valutata, { invitationToken: 'old' });
    const update = (token: string) => ({
      Update: {
        TableName: table(),
        Key: keys.property(id),
        UpdateExpression: 'SET invitationToken = :new',
        ConditionExpression: 'invitationToken = :old',
        ExpressionAttributeValues: { ':new': `${token}-next`, ':old': token },
      },
    });
    const note = { Put: { TableName: table(), Item: { ...keys.document(id, 'n2'), note: 'y' } } };
    const input = guardedTransaction({ propertyId: id, owner: 'owner-1', states: ['valutata'] }, [note, update('old')]);
    expect(input.TransactItems).toHaveLength(2);
    expect(input.TransactItems![0]!.Update).toBeDefined();
    await transactWrite(input);
    expect((await readProperty(id))?.invitationToken).toBe('old-next');
    // the write's own condition still holds: the stale token loses at index 0
    await expect(transactWrite(guardedTransaction({ propertyId: id, owner: 'owner-1' }, [note, update('old')]))).rejects.toSatisfy((e) => isConditionFailure(e, 0));
  });

  it('as the condition of a single Update and as a ConditionCheck', async () => {
    const id = await property(FACTS.opzione_firmata);
    const g = { propertyId: id, owner: 'owner-1', states: ['opzione_firmata'] as const };
    await ddb().send(new UpdateCommand({ TableName: table(), Key: keys.property(id), UpdateExpression: 'SET touched = :t', ...merge(propertyCondition(g), { ':t': true }) }));
    expect((await readProperty(id))?.touched).toBe(true);
    await expect(
      ddb().send(new UpdateCommand({ TableName: table(), Key: keys.property(id), UpdateExpression: 'SET touched = :t', ...merge(propertyCondition({ ...g, owner: 'x' }), { ':t': false }) })),
    ).rejects.toSatisfy((e) => isConditionFailure(e));
    expect(propertyCheck(g).ConditionCheck?.Key).toEqual(keys.property(id));
  });

  it('reads the PROPERTY item in one place: missing, deleting, and a malformed id answer undefined', async () => {
    const deleting = await property(FACTS.nuova, { deletingAt: AT });
    expect(await readProperty(deleting)).toBeUndefined();
    expect((await readProperty(deleting, { includeDeleting: true }))?.deletingAt).toBe(AT);
    expect(await readProperty('a#b')).toBeUndefined();
    expect(await readProperty(randomUUID())).toBeUndefined();
  });
});

function merge(c: ReturnType<typeof propertyCondition>, values: Record<string, unknown>) {
  return { ...c, ExpressionAttributeValues: { ...c.ExpressionAttributeValues, ...values } };
}

describe('property guard expressions', () => {
  it("keeps a write's own OR condition apart from the guard's ANDs", async () => {
    const id = await property(FACTS.nuova, { invitationToken: null });
    const set = (cond: string) =>
      transactWrite(
        guardedTransaction({ propertyId: id, owner: 'owner-2' }, [
          { Update: { TableName: table(), Key: keys.property(id), UpdateExpression: 'SET touched = :t', ConditionExpression: cond, ExpressionAttributeValues: { ':t': true, ':null': null } } },
        ]),
      );
    // without the parentheses the OR would let another owner's write through
    await expect(set('attribute_not_exists(invitationToken) OR invitationToken = :null')).rejects.toSatisfy((e) => isConditionFailure(e, 0));
    expect((await readProperty(id))?.touched).toBeUndefined();
  });
});
