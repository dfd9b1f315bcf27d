/**
 * The option's state changes that are not the seller's or a payment's (domain/option-lifecycle):
 * the admin's publish, withdraw, mark exercised and cancel (with a reason), and the daily job's
 * expiry. Withdrawing, cancelling, expiring and marking exercised close the agents' open
 * requests on the option (rejected, each agent e-mailed) in the same transaction as the state,
 * only at the option's requests version read before listing them: a request saved in between
 * raises that version, and the change starts again from a fresh read and closes it too, so
 * none stays open on an option nobody can take. Publishing wants the option not past its
 * expiry day, in the write's condition too. Every closing (withdraw,
 * cancel, expire, exercise) then cancels the visits booked and still to come (their slots
 * free again, seller, agent and back office mailed with the invitation's CANCEL), one visit
 * per transaction whose own condition wants it still booked: a failure is logged, and the
 * visit, whose agent no longer holds the option, is neither reminded nor changeable by them.
 */
import { config } from '../lib/config';
import { ConflictError, NotFoundError } from '../lib/errors';
import { logger } from '../lib/logger';
import { closeRequestWrites, requestsOfOption, requestsVersionOf, toRequestMailFacts } from '../model/agent-request';
import { expiredOptionItems, migrateLegacyOptionStates, readOption, transitionOption } from '../model/option';
import { deliverOutbox } from '../model/outbox';
import { readProperty } from '../model/property';
import { cancelVisitOfClosedOption, upcomingBookedVisitItems } from '../model/visit';
import { deliverNow } from '../model/review';
import type { Item } from '../model/item';
import { optionClosedMail } from '../domain/agent-mail';
import { OPEN_AGENT_REQUEST_STATUSES } from '../domain/agent-requests';
import { SYSTEM_ACTOR, type Actor } from '../domain/activity';
import { OPTION_LIFECYCLE_MESSAGES, isPastExpiry, type AdminOptionAction, type OptionState } from '../domain/option-lifecycle';
import { str } from '../model/item';
import { todayInRome } from '../domain/availability';
import { REVIEW_MESSAGES } from '../domain/review/rules';
import type { OptionTransitionResult } from '../domain/review/schemas';

const CLOSING = { withdraw: 'withdrawn', cancel: 'cancelled', expire: 'expired', exercise: 'exercised' } as const;

/** The actions after which no agent holds the option: its visits still to come are cancelled. */
const ENDS_VISITS: ReadonlySet<AdminOptionAction | 'expire'> = new Set(['withdraw', 'cancel', 'expire', 'exercise']);

/** Cancels the option's visits still to come, each in its own transaction; how many. */
async function cancelUpcomingVisits(propertyId: string, actor: Actor, now: Date): Promise<number> {
  const [property, visits] = await Promise.all([readProperty(propertyId), upcomingBookedVisitItems(propertyId, now)]);
  if (!property) return 0;
  let cancelled = 0;
  for (const visit of visits) {
    try {
      const mails = await cancelVisitOfClosedOption(property, visit, actor, now);
      cancelled++;
      for (const m of mails) await deliverNow(m.id, deliverOutbox);
    } catch (err) {
      logger.error('Visit of a closed option not cancelled', { propertyId, visitId: visit.id, error: err as Error });
    }
  }
  return cancelled;
}

/** The open requests of the option and their closing writes (rejected, each agent e-mailed). */
async function closingOf(propertyId: string, why: (typeof CLOSING)[keyof typeof CLOSING], now: Date) {
  const at = now.toISOString();
  const open = (await requestsOfOption(propertyId)).filter((r) => (OPEN_AGENT_REQUEST_STATUSES as readonly string[]).includes(String(r.status)));
  return open.map((r) => {
    const outboxId = `agentreq-closed-${String(r.id)}-${now.getTime()}`;
    const mail = optionClosedMail({ ...toRequestMailFacts(r), wasApproved: r.status === 'payment_pending', why }, config().APP_URL);
    return { outboxId, writes: closeRequestWrites(r, { reason: why, at, outboxId, kind: 'agent-request-option-closed', mail }) };
  });
}

/** Attempts of a closing that met a request saved meanwhile (each reads the option and its requests again). */
const CLOSING_ATTEMPTS = 5;

async function applyOptionAction(
  read: Item,
  action: AdminOptionAction | 'expire',
  reason: string | undefined,
  actor: Actor,
  now: Date,
): Promise<OptionTransitionResult> {
  const propertyId = String(read.propertyId);
  const at = now.toISOString();
  const today = todayInRome(now);
  const why = action in CLOSING ? CLOSING[action as keyof typeof CLOSING] : null;
  if (action === 'publish' && isPastExpiry(str(read.expiresAt), today)) throw new ConflictError(OPTION_LIFECYCLE_MESSAGES.publishExpired);
  const set: Record<string, unknown> =
    action === 'cancel' ? { cancelledAt: at, cancelReason: reason ?? '' } : action === 'exercise' ? { exercisedAt: at } : action === 'publish' ? { publishedAt: at } : action === 'expire' ? { expiredAt: at } : {};
  let status: OptionState;
  let closing: Awaited<ReturnType<typeof closingOf>> = [];
  for (let attempt = 1; ; attempt++) {
    // the option as read (its requests version), then its requests; a closing that met a
    // request saved meanwhile reads the option again
    const option = attempt === 1 ? read : await readOption(propertyId);
    if (!option) throw new NotFoundError(REVIEW_MESSAGES.optionNotFound);
    const version = requestsVersionOf(option);
    closing = why ? await closingOf(propertyId, why, now) : [];
    try {
      status = await transitionOption({
        propertyId,
        action,
        actor,
        at,
        option,
        note: action === 'cancel' ? (reason ?? null) : closing.length ? `Richieste degli agenti chiuse: ${closing.length}` : null,
        set,
        extra: closing.flatMap((c) => c.writes),
        ...(why ? { requestsVersion: version } : {}),
        ...(action === 'publish' ? { notExpiredOn: today } : {}),
      });
      break;
    } catch (err) {
      if (!why || !(err instanceof ConflictError) || attempt >= CLOSING_ATTEMPTS) throw err;
      // a request saved on the option meanwhile: close it too; anything else answers as it is
      const after = await readOption(propertyId);
      if (!after || requestsVersionOf(after) === version) throw err;
    }
  }
  for (const c of closing) await deliverNow(c.outboxId, deliverOutbox);
  const cancelledVisits = ENDS_VISITS.has(action) ? await cancelUpcomingVisits(propertyId, actor, now) : 0;
  logger.info('Option state changed', { propertyId, action, status, closedRequests: closing.length, cancelledVisits });
  return { status, closedRequests: closing.length };
}

/** POST /admin/options/{propertyId}/transitions. */
export async function applyAdminAction(propertyId: string, action: AdminOptionAction, reason: string | undefined, actor: Actor, now = new Date()): Promise<OptionTransitionResult> {
  const option = await readOption(propertyId);
  if (!option) throw new NotFoundError(REVIEW_MESSAGES.optionNotFound);
  return applyOptionAction(option, action, reason, actor, now);
}

export interface ExpiryRun {
  migrated: number;
  expired: number;
  failed: number;
}

/**
 * The daily job: options stored before the lifecycle get their state, then every running
 * option (signed, published, assigned) whose expiry day is past (Europe/Rome) expires. One
 * option's failure is logged and the others go on.
 */
export async function expireOptions(now = new Date()): Promise<ExpiryRun> {
  const migrated = await migrateLegacyOptionStates();
  const due = await expiredOptionItems(todayInRome(now));
  let expired = 0;
  let failed = 0;
  for (const option of due) {
    try {
      await applyOptionAction(option, 'expire', undefined, SYSTEM_ACTOR, now);
      expired++;
    } catch (err) {
      failed++;
      logger.error('Option not expired', { propertyId: option.propertyId, error: err as Error });
    }
  }
  logger.info('Option expiry run', { migrated, due: due.length, expired, failed });
  return { migrated, expired, failed };
}
