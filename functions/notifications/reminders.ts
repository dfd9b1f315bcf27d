/**
 * The daily reminders job (docs/reminders.md), run by the `sendReminders` schedule:
 *
 * 1. onboarding incomplete 3 and 7 days after the invitation (the estimate e-mail);
 * 2. option unsigned 3 days after its notification;
 * 3. availability of a signed 'rateale' option below the quota of the month asked for (the
 *    current one, the next in its last days: availabilityMonth), once per month asked for;
 * 4. link tokens past their expiry deleted (expired-tokens.ts).
 *
 * Candidates come from Queries of the gsi2 lists with a filter (reminder-store.ts); each due
 * reminder is recorded on its item in the same transaction as its outbox mail, on condition
 * that it was not sent yet, so a second or concurrent run sends nothing twice; then the mail
 * is delivered (a failure stays pending for retryOutbox). `now` is injectable for tests and
 * `npm run invoke`; the schedule uses the real clock.
 */
import { toOptionDuration } from '../domain/fees';
import { str } from '../model/item';
import { config } from '../lib/config';
import { logger } from '../lib/logger';
import { mapLimit } from '../lib/media-storage';
import { deliverOutbox } from '../model/outbox';
import { coOwnersDone, delegationsDone, identityDone, STEP_TITLES, type OnboardingStepId } from '../domain/onboarding/rules';
import { renderAvailabilityReminder, renderOnboardingReminder, renderOptionReminder } from '../domain/reminders/emails';
import {
  anchorRange,
  AVAILABILITY_GRACE_DAYS,
  availabilityKind,
  availabilityMonth,
  availabilityReminderApplies,
  DAY_MS,
  dueOnboardingReminder,
  dueOptionReminder,
  groupOf,
  ONBOARDING_REMINDERS,
  OPTION_REMINDER,
  optionAwaitsSignature,
  quotaReached,
  monthLabelOf,
  type ReminderGroup,
  type ReminderKind,
} from '../domain/reminders/rules';
import { deliverNow, sellerEmailOf, sellerNameOf } from '../model/review';
import { deleteExpiredTokens } from '../model/expired-tokens';
import { newToken } from '../model/tokens';
import {
  candidatePropertyId,
  loadProperty,
  monthAvailability,
  onboardingCandidates,
  onboardingItems,
  optionCandidates,
  recordReminder,
  reminderOutboxId,
  sentReminders,
  type Item,
  type ReminderWrite,
} from '../model/reminders';

export interface ReminderSummary {
  /** the run's time (ISO) */
  now: string;
  /** properties and options the index Queries read */
  checked: number;
  /** reminders recorded with their mail, by kind */
  sent: Record<ReminderGroup, number>;
  /** the mails of those reminders: delivered now, or pending for retryOutbox */
  delivery: { sent: number; pending: number };
  /** due reminders already recorded by an earlier run */
  alreadySent: number;
  /** due reminders not sent: recorded meanwhile by another run, onboarding complete, quota reached, no e-mail or link */
  skipped: number;
  /** candidates whose processing failed (logged; the next run retries them) */
  errors: number;
  tokensExpired: number;
  ms: number;
}

export interface ReminderOptions {
  now?: Date;
  /** candidates processed at once (reads, transaction, delivery) */
  concurrency?: number;
}

/**
 * The onboarding steps (1-3) the seller still has to do, by title; empty when there is nothing
 * for them to do. An identity check waiting for an admin's review is not the seller's to do.
 */
function missingSteps(f: Awaited<ReturnType<typeof onboardingItems>>, singleOwner: boolean): string[] {
  const identityStatus = str(f.identity?.status) ?? str(f.identity?.verificationStatus);
  const done: [OnboardingStepId, boolean][] = [
    ['identity', identityStatus === 'review' || identityDone({ identity: identityStatus ? { status: identityStatus } : null })],
    ['coOwners', coOwnersDone({ coOwners: f.coOwners, singleOwner })],
    ['delegations', delegationsDone({ delegations: f.delegations.map((d) => ({ documentKey: str(d.documentKey), signedAt: str(d.signedAt) })) })],
  ];
  return done.filter(([, d]) => !d).map(([id]) => STEP_TITLES[id]);
}

/** One run's clock, settings and counters, and the three things every stage does with a candidate. */
class ReminderRun {
  readonly appUrl = config().APP_URL;
  readonly sent: Record<ReminderGroup, number> = { onboarding3d: 0, onboarding7d: 0, optionUnsigned: 0, availability: 0 };
  readonly delivery = { sent: 0, pending: 0 };
  skipped = 0;
  alreadySent = 0;
  errors = 0;

  constructor(
    readonly now: Date,
    readonly concurrency: number,
  ) {}

  /** records the reminder with its mail, then delivers the mail */
  async send(w: ReminderWrite): Promise<void> {
    if ((await recordReminder(w)) === 'skipped') return this.skip();
    this.sent[groupOf(w.kind)]++;
    const outcome = await deliverNow(reminderOutboxId(w.kind, w.propertyId), (id) => deliverOutbox(id));
    this.delivery[outcome === 'sent' ? 'sent' : 'pending']++;
  }

  skip(): void {
    this.skipped++;
  }

  /** each candidate on its own: a failure is counted and logged, the next run retries it */
  async each(items: readonly Item[], what: string, fn: (item: Item) => Promise<void>): Promise<void> {
    await mapLimit(items, this.concurrency, async (item) => {
      try {
        await fn(item);
      } catch (err) {
        this.errors++;
        logger.error('Reminder not processed', { what, pk: item.pk, error: err as Error });
      }
    });
  }
}

/** 1. Onboarding incomplete, 3 and 7 days after the estimate e-mail. */
async function remindOnboarding(run: ReminderRun): Promise<number> {
  const { now } = run;
  const properties = await onboardingCandidates(anchorRange(ONBOARDING_REMINDERS, now));
  await run.each(properties.items, 'onboarding', async (p) => {
    const kind = dueOnboardingReminder(str(p.estimateSentAt), now);
    const done = sentReminders(p);
    if (!kind) return;
    if (done?.[kind]) return void run.alreadySent++;
    const propertyId = candidatePropertyId(p, 'property');
    const to = sellerEmailOf(p);
    if (!to) return run.skip();
    // a fresh link for this mail (the estimate's may have expired or been used)
    const token = newToken();
    const registered = str(p.userId) !== null;
    const missing = registered ? missingSteps(await onboardingItems(propertyId), p.singleOwner === true) : [];
    if (registered && missing.length === 0) return run.skip(); // complete: the option is the admin's move
    await run.send({
      kind,
      propertyId,
      target: 'property',
      hasMap: done !== null,
      still: 'noOptionYet',
      link: { kind: 'invitation', change: { propertyId, token, oldToken: str(p.invitationToken), at: now.toISOString() } },
      to,
      mail: renderOnboardingReminder({
        kind,
        registered,
        missingSteps: missing,
        token,
        appUrl: run.appUrl,
        sellerName: sellerNameOf(p),
        propertyAddress: str(p.address) ?? '',
        propertyCity: str(p.city),
      }),
      now,
    });
  });
  return properties.scanned;
}

/** 2 and 3. Options: unsigned after the notification; availability of signed 'rateale' ones below the quota of the month asked for. */
async function remindOptions(run: ReminderRun): Promise<number> {
  const { now } = run;
  // the month asked for, whose slots and quota are counted
  const month = availabilityMonth(now);
  const availability = availabilityKind(now);
  const createdUpTo = new Date(now.getTime() - Math.min(OPTION_REMINDER.afterDays, AVAILABILITY_GRACE_DAYS) * DAY_MS).toISOString();
  const options = await optionCandidates(anchorRange([OPTION_REMINDER], now), createdUpTo);
  await run.each(options.items, 'option', async (o) => {
    const done = sentReminders(o);
    const propertyId = candidatePropertyId(o, 'option');
    let kind: ReminderKind | null = null;
    if (optionAwaitsSignature(o)) kind = dueOptionReminder(str(o.notifiedAt), now);
    else if (availabilityReminderApplies(o, now)) kind = availability;
    if (!kind) return;
    if (done?.[kind]) return void run.alreadySent++;

    let monthSlots: { slots: number; min: number } | null = null;
    if (kind === availability) {
      const min = typeof o.minMonthlySlots === 'number' && Number.isFinite(o.minMonthlySlots) ? o.minMonthlySlots : 1;
      const { slots, quota } = await monthAvailability(propertyId, month.year, month.month);
      if (quotaReached(slots, min, quota?.quotaReached)) return run.skip();
      monthSlots = { slots, min };
    }
    const property = await loadProperty(propertyId);
    const to = property && sellerEmailOf(property);
    if (!property || !to) return run.skip();
    const seller = { sellerName: sellerNameOf(property), propertyAddress: str(property.address) ?? '', propertyCity: str(property.city), appUrl: run.appUrl };
    const write = { kind, propertyId, target: 'option' as const, hasMap: done !== null, to, now };

    // each mail carries a fresh link of its own
    const token = newToken();
    const at = now.toISOString();
    if (kind === 'option-unsigned') {
      const mail = renderOptionReminder({ ...seller, token, optionAmount: Number(o.optionAmount ?? 0), optionDuration: toOptionDuration(o.optionDuration), propertyValue: Number(o.propertyValue ?? 0) });
      return run.send({ ...write, still: 'unsigned', link: { kind: 'invitation', change: { propertyId, token, oldToken: str(property.invitationToken), at } }, mail });
    }
    const mail = renderAvailabilityReminder({ ...seller, monthLabel: monthLabelOf(month), slotsCount: monthSlots!.slots, minMonthlySlots: monthSlots!.min, token });
    const change = { propertyId, optionId: o.id, token, oldToken: str(o.availabilityToken), optionExpiresAt: str(o.expiresAt), at };
    await run.send({ ...write, still: 'signedRateale', link: { kind: 'availability', change }, mail });
  });
  return options.scanned;
}

export async function sendReminders(opts: ReminderOptions = {}): Promise<ReminderSummary> {
  const started = Date.now();
  const run = new ReminderRun(opts.now ?? new Date(), opts.concurrency ?? 4);
  const checked = (await remindOnboarding(run)) + (await remindOptions(run));
  // 4. expired link tokens
  const tokensExpired = await deleteExpiredTokens(run.now);
  const summary: ReminderSummary = {
    now: run.now.toISOString(),
    checked,
    sent: run.sent,
    delivery: run.delivery,
    alreadySent: run.alreadySent,
    skipped: run.skipped,
    errors: run.errors,
    tokensExpired,
    ms: Date.now() - started,
  };
  if (summary.errors) logger.error('Reminders run with errors', { ...summary });
  else logger.info('Reminders run', { ...summary });
  return summary;
}
