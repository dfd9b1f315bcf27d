import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './db';
import { keys } from './keys';
import { logger } from '../lib/logger';
import { count } from '../lib/observability';
import { PermanentMailError, sendMail, type MailMessage } from '../lib/mail';

/**
 * Transactional outbox for e-mail: the mail is written as an item in the SAME transaction
 * as the change that causes it, so it cannot be lost; it is sent right after the commit
 * (`deliverOutbox`) and, if that fails, by the scheduled `retryPendingOutbox`, up to
 * MAX_ATTEMPTS times with a growing delay. A claim with a short lease keeps the immediate
 * send and the scheduled retry from sending the same mail twice. Failures are logged;
 * a mail that exhausts its attempts is marked `failed` and logged as an error. Once a mail
 * is done (sent or failed for good) its item, a copy of personal data, gets a TTL of
 * RETENTION_DAYS; a pending one has none (it must not vanish before it is sent).
 */
export const MAX_ATTEMPTS = 8;
const LEASE_MS = 60_000;
/** Days a sent or finally failed mail stays in the outbox (for support), then DynamoDB TTL removes it. */
export const RETENTION_DAYS = 30;

/** The TTL (epoch seconds, the table's `expiresAt`) of a mail done at `at`. */
export function retentionExpiry(at: number = Date.now()): number {
  return Math.floor(at / 1000) + RETENTION_DAYS * 86_400;
}

export type OutboxStatus = 'pending' | 'sent' | 'failed';

/** Minutes before the next attempt after `attempts` failed ones: 1, 2, 4, ... at most 60. */
export function backoffMinutes(attempts: number): number {
  return Math.min(60, 2 ** Math.max(0, attempts - 1));
}


/** The Put of a new outbox item, for a TransactWriteItems list. */
export function outboxPut(input: { id: string; kind: string; ref: string; mail: MailMessage; now: string }) {
  return {
    Put: {
      TableName: table(),
      Item: {
        ...keys.outbox(input.id),
        ...keys.outboxPendingIndex(input.now, input.id),
        entity: 'outbox',
        id: input.id,
        kind: input.kind,
        ref: input.ref,
        status: 'pending' satisfies OutboxStatus,
        attempts: 0,
        mail: { ...input.mail, to: [...input.mail.to] },
        createdAt: input.now,
        nextAttemptAt: input.now,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * Sends one pending outbox mail. Returns what happened; never throws for a mail failure
 * (it is recorded on the item and logged), only for storage errors.
 */
export async function deliverOutbox(id: string, now: Date = new Date()): Promise<'sent' | 'retry' | 'failed' | 'skipped'> {
  let item: Record<string, unknown> | undefined;
  try {
    const claimed = await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.outbox(id),
        UpdateExpression: 'SET leaseUntil = :lease, attempts = attempts + :one',
        ConditionExpression: '#s = :pending AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':lease': now.getTime() + LEASE_MS, ':one': 1, ':pending': 'pending', ':now': now.getTime() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    item = claimed.Attributes;
  } catch (err) {
    if (isConditionFailure(err)) return 'skipped'; // already sent, failed, or being sent
    throw err;
  }
  const attempts = Number(item?.attempts ?? 1);
  const mail = item?.mail as MailMessage;
  try {
    const { messageId } = await sendMail(mail);
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.outbox(id),
        // a sent mail's copy (personal data) is kept RETENTION_DAYS, then removed by TTL
        UpdateExpression: 'SET #s = :sent, sentAt = :at, messageId = :mid, expiresAt = :ttl REMOVE gsi3pk, gsi3sk, leaseUntil, lastError',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':sent': 'sent',
          ':at': new Date().toISOString(),
          ':mid': messageId,
          ':ttl': retentionExpiry(),
        },
      }),
    );
    logger.info('Outbox mail sent', { outboxId: id, kind: item?.kind, attempts });
    count('MailSent');
    return 'sent';
  } catch (err) {
    const permanent = err instanceof PermanentMailError;
    const exhausted = permanent || attempts >= MAX_ATTEMPTS;
    const message = (err as Error).message ?? String(err);
    if (exhausted) {
      await ddb().send(
        new UpdateCommand({
          TableName: table(),
          Key: keys.outbox(id),
          // kept RETENTION_DAYS for support like a sent one, then removed by TTL
          UpdateExpression: 'SET #s = :failed, failedAt = :at, lastError = :err, expiresAt = :ttl REMOVE gsi3pk, gsi3sk, leaseUntil',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':failed': 'failed', ':at': new Date().toISOString(), ':err': message, ':ttl': retentionExpiry() },
        }),
      );
      logger.error('Outbox mail failed for good', { outboxId: id, kind: item?.kind, ref: item?.ref, attempts, permanent, error: message });
      count('MailFailed');
      return 'failed';
    }
    const next = new Date(now.getTime() + backoffMinutes(attempts) * 60_000).toISOString();
    const index = keys.outboxPendingIndex(next, id);
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.outbox(id),
        UpdateExpression: 'SET lastError = :err, nextAttemptAt = :next, gsi3sk = :g3sk REMOVE leaseUntil',
        ExpressionAttributeValues: { ':err': message, ':next': next, ':g3sk': index.gsi3sk },
      }),
    );
    logger.warn('Outbox mail not sent, will retry', { outboxId: id, kind: item?.kind, ref: item?.ref, attempts, nextAttemptAt: next, error: message });
    count('MailRetry');
    return 'retry';
  }
}

/** The scheduled retry: every pending mail whose next attempt is due, oldest first. */
export async function retryPendingOutbox(now: Date = new Date(), max = 50): Promise<Record<string, number>> {
  const q = keys.pendingOutbox();
  const res = await ddb().send(
    new QueryCommand({
      TableName: table(),
      IndexName: q.index,
      KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk <= :due',
      ExpressionAttributeValues: { ':pk': q.pk, ':due': `${now.toISOString()}#\uffff` },
      Limit: max,
    }),
  );
  const counts: Record<string, number> = { sent: 0, retry: 0, failed: 0, skipped: 0 };
  for (const item of res.Items ?? []) {
    const outcome = await deliverOutbox(item.id as string, now).catch((err: unknown) => {
      logger.error('Outbox delivery error', { outboxId: item.id, error: err as Error });
      return 'retry' as const;
    });
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
}
