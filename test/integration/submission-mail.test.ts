import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../functions/model/db';
import { resetAws } from '../../functions/lib/aws';
import { resetConfig } from '../../functions/lib/config';
import { keys } from '../../functions/model/keys';
import { deliverOutbox, MAX_ATTEMPTS, outboxPut } from '../../functions/model/outbox';
import { handler as retryOutbox } from '../../functions/notifications/retry-outbox';
import { routes, triggers } from '../../functions/routes';
import { sentMail, stack, useStackEnv } from '../support/helpers';
import { newId } from '../support/submission';

/**
 * The lead e-mail is never lost: an outbox item written with the property, sent right after,
 * retried by the scheduled trigger when SES fails, marked failed (and logged) after a bounded
 * number of attempts or at once for a permanent error.
 */
beforeAll(() => useStackEnv());
afterEach(() => useStackEnv());

const table = () => stack().env.TABLE_NAME;
const item = async (id: string) => (await ddb().send(new GetCommand({ TableName: table(), Key: keys.outbox(id), ConsistentRead: true }))).Item;

async function enqueue(id: string, to = 'backoffice@opzionecasa.it', attempts = 0) {
  const put = outboxPut({ id, kind: 'test', ref: id, now: new Date().toISOString(), mail: { to: [to], subject: `Prova ${id}`, html: `<p>${id}</p>`, text: id } });
  (put.Put.Item as Record<string, unknown>).attempts = attempts;
  await ddb().send(new TransactWriteCommand({ TransactItems: [put as never] }));
}

function breakSes() {
  process.env.SES_ENDPOINT = 'http://127.0.0.1:9'; // nothing listens there
  resetConfig();
  resetAws();
}

describe('lead e-mail outbox', () => {
  it('is wired as a rate(5 minutes) schedule and the submission route may send mail', () => {
    expect(triggers.find((t) => t.id === 'retryOutbox')).toMatchObject({ source: 'schedule', schedule: 'rate(5 minutes)', handler: 'notifications/retry-outbox' });
    expect(routes.find((r) => r.id === 'submitProperty')?.iam.ses).toContain('SendEmail');
  });

  it('a failed send stays pending with its error, then the scheduled retry sends it', async () => {
    const id = `t-${newId()}`;
    await enqueue(id);
    breakSes();
    expect(await deliverOutbox(id)).toBe('retry');
    const pending = await item(id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, gsi3pk: 'OUTBOX#PENDING' });
    expect(pending!.lastError).toBeTruthy();
    expect(new Date(pending!.nextAttemptAt as string).getTime()).toBeGreaterThan(Date.now());

    useStackEnv(); // SES is back
    await retryOutbox(); // the schedule now: other files' mails may be due, this one is not
    expect(await item(id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await sentMail()).some((m) => m.subject === `Prova ${id}`)).toBe(false);
    const later = new Date(Date.now() + 5 * 60_000);
    const { retryPendingOutbox } = await import('../../functions/model/outbox');
    const counts = await retryPendingOutbox(later);
    expect(counts.sent).toBeGreaterThanOrEqual(1);
    expect(await item(id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect((await item(id))!.gsi3pk).toBeUndefined();
    const mails = (await sentMail()).filter((m) => m.subject === `Prova ${id}`);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body.html).toBe(`<p>${id}</p>`);
    expect(mails[0]!.body.text).toBe(id);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts and marks the mail failed`, async () => {
    const id = `t-${newId()}`;
    await enqueue(id, 'backoffice@opzionecasa.it', MAX_ATTEMPTS - 1);
    breakSes();
    expect(await deliverOutbox(id)).toBe('failed');
    expect(await item(id)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect((await item(id))!.gsi3pk).toBeUndefined();
  });

  it('refuses an invalid recipient at once (the SES emulator would accept it)', async () => {
    const id = `t-${newId()}`;
    await enqueue(id, 'non-un-indirizzo');
    expect(await deliverOutbox(id)).toBe('failed');
    expect((await item(id))!.lastError).toContain('non valido');
    expect((await sentMail()).filter((m) => m.subject === `Prova ${id}`)).toEqual([]);
  });

  it('never sends the same mail twice (a sent item is skipped)', async () => {
    const id = `t-${newId()}`;
    await enqueue(id);
    expect(await deliverOutbox(id)).toBe('sent');
    expect(await deliverOutbox(id)).toBe('skipped');
    expect((await sentMail()).filter((m) => m.subject === `Prova ${id}`)).toHaveLength(1);
  });
});
