/**
 * `npm run bench:reminders`: the daily reminders job on the local stack. Not a test: it
 * prints the figures and writes them to bench/results/reminders.json.
 *
 * The stack as `npm start` runs it (DynamoDB Local with -dbPath in a temporary data folder),
 * 1,000 requests seeded straight into the table in a realistic mix of states (PROPERTY items
 * as the submission writes them, with rooms, the first valuation and the invitation token;
 * estimate sent in the last 3 weeks, partly registered, part of the onboarding done; options
 * notified and unsigned; signed options with keys, and without keys with their availability
 * link, slots and month quotas; co-owner links; the tokens of older requests already expired), then
 * the scheduled handler twice with the real clock: the first run sends, the second finds
 * everything sent (idempotent). The mails go through the outbox to the SES emulator.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startLocalStack } from '../infra/local/stack';
import { ddb } from '../functions/model/db';
import { resetAws } from '../functions/lib/aws';
import { resetConfig } from '../functions/lib/config';
import { BatchWriter } from '../functions/model/batch-writer';
import { logger } from '../functions/lib/logger';
import { keys, normalizeForSort } from '../functions/model/keys';
import { availabilityMonth, DAY_MS } from '../functions/domain/reminders/rules';
import { handler as sendReminders } from '../functions/notifications/send-reminders';
import type { ReminderSummary } from '../functions/notifications/reminders';
import { writeResults } from './support';

const SEED = 1000;
const log = (...a: unknown[]) => console.log(...a);
process.removeAllListeners('warning');
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
// one log line per mail would bury the figures (the logger is made before this line runs)
logger.setLogLevel('WARN');

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const FIRST = ['Giulia', 'Marco', 'Francesca', 'Luca', 'Chiara', 'Andrea', 'Sara', 'Matteo', 'Elena', 'Niccolò', 'Federica', 'Lorenzo'];
const LAST = ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'De Luca', 'Ferrè'];
const PLACES = [['Milano', 'MI'], ['Roma', 'RM'], ['Torino', 'TO'], ['Napoli', 'NA'], ['Bologna', 'BO'], ['Firenze', 'FI'], ['Forlì', 'FC'], ['Cantù', 'CO']] as const;
const STREETS = ['Via Roma', 'Corso Italia', 'Via Garibaldi', 'Piazza Duomo', 'Via Mazzini', 'Viale Europa'];
const ROOMS = [['Soggiorno', 'soggiorno'], ['Cucina', 'cucina'], ['Camera', 'camera']] as const;

type State = 'submitted' | 'valued' | 'estimate' | 'optionUnsigned' | 'signedWithKeys' | 'signedRateale';
/** The mix: [state, share]; an estimate without option is split into registered / not, onboarding partly done. */
const MIX: [State, number][] = [
  ['submitted', 0.3],
  ['valued', 0.1],
  ['estimate', 0.3],
  ['optionUnsigned', 0.12],
  ['signedWithKeys', 0.08],
  ['signedRateale', 0.1],
];

const iso = (ms: number) => new Date(ms).toISOString();
const expiry = (fromMs: number) => Math.floor(fromMs / 1000) + 30 * 86_400;

function pick(rand: () => number): State {
  let x = rand();
  for (const [s, share] of MIX) {
    if (x < share) return s;
    x -= share;
  }
  return 'submitted';
}

/** Every item of one seeded request, and the counters of what it is. */
function seedRequest(i: number, rand: () => number, now: number, count: Record<string, number>): Record<string, unknown>[] {
  const id = randomUUID();
  const state = pick(rand);
  count[state] = (count[state] ?? 0) + 1;
  // the estimate (or the option) is recent, the request a little older
  const estimateAgo = state === 'submitted' || state === 'valued' ? null : rand() * 20 * DAY_MS;
  const created = now - (estimateAgo ?? 0) - rand() * 40 * DAY_MS - 60_000;
  const createdAt = iso(created);
  const first = FIRST[Math.floor(rand() * FIRST.length)]!;
  const last = LAST[Math.floor(rand() * LAST.length)]!;
  const [city, province] = PLACES[Math.floor(rand() * PLACES.length)]!;
  const email = `${normalizeForSort(first)}.${normalizeForSort(last).replace(/\s+/g, '')}${i}@example.it`;
  const invitedAt = estimateAgo === null ? created : now - estimateAgo;
  const token = randomUUID().replace(/-/g, '');
  const withOption = state === 'optionUnsigned' || state === 'signedWithKeys' || state === 'signedRateale';
  const registered = withOption || (state === 'estimate' && rand() < 0.6);
  const userId = registered ? randomUUID() : null;
  const items: Record<string, unknown>[] = [];
  const estimateSentAt = estimateAgo === null ? undefined : iso(now - estimateAgo - (withOption ? 5 * DAY_MS : 0));
  const optionAt = withOption ? now - estimateAgo! : null;
  const hasKeys = state === 'signedWithKeys' || (state === 'optionUnsigned' && rand() < 0.5);
  const signedAt = state === 'signedWithKeys' || state === 'signedRateale' ? iso(optionAt! + rand() * 2 * DAY_MS) : null;

  items.push({
    ...keys.property(id),
    ...keys.propertyIndexes({ userId, createdAt }),
    entity: 'property',
    id,
    status: 'submitted',
    userId,
    address: `${STREETS[Math.floor(rand() * STREETS.length)]} ${1 + Math.floor(rand() * 150)}`,
    province,
    city,
    omiCategory: 'abitazioni_civili',
    propertyType: 'appartamento',
    desiredAmount: 80_000 + Math.floor(rand() * 900) * 1000,
    surfaceArea: 40 + Math.floor(rand() * 180),
    numRooms: 1 + Math.floor(rand() * 6),
    numBathrooms: 1 + Math.floor(rand() * 3),
    floor: String(1 + Math.floor(rand() * 8)),
    condition: 'buono',
    buildYear: 1930 + Math.floor(rand() * 95),
    features: ['ascensore', 'cantina'].filter(() => rand() < 0.5),
    notes: rand() < 0.3 ? 'Disponibile per visite nel fine settimana, preferibilmente la mattina.' : null,
    firstName: first,
    lastName: last,
    email,
    phone: `+39347${String(1_000_000 + i).padStart(7, '0')}`,
    privacyConsent: true,
    privacyConsentAt: createdAt,
    searchText: normalizeForSort([first, last, email, city].join(' ')),
    invitationToken: token,
    roomsCount: ROOMS.length,
    mediaCount: 0,
    createdAt,
    updatedAt: createdAt,
    ...(state !== 'submitted' ? { valuedAt: createdAt } : {}),
    ...(estimateSentAt ? { estimateSentAt } : {}),
    ...(optionAt ? { optionCreatedAt: iso(optionAt) } : {}),
    ...(signedAt ? { optionSignedAt: signedAt } : {}),
  });
  ROOMS.forEach(([name, type], position) => {
    const roomId = randomUUID();
    items.push({ ...keys.room(id, roomId), entity: 'room', id: roomId, propertyId: id, name, type, position, createdAt });
  });
  items.push({ ...keys.valuation(id, createdAt), entity: 'valuation', propertyId: id, createdAt, origin: 'submission', available: state !== 'submitted', valuationAvg: 250_000 });
  const inviteExpires = expiry(invitedAt);
  items.push({ ...keys.invitation(token), entity: 'invitation', propertyId: id, createdAt: iso(invitedAt), expiresAt: inviteExpires, ...keys.tokenExpiryIndex(inviteExpires) });
  if (inviteExpires * 1000 <= now) count.expiredTokens = (count.expiredTokens ?? 0) + 1;

  if (registered) {
    // onboarding: complete with an option, otherwise partly done
    const done = withOption || rand() < 0.2;
    const at = iso(invitedAt + DAY_MS);
    if (done || rand() < 0.5) items.push({ ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', confidence: 95, verifiedAt: at });
    if (done || rand() < 0.4) {
      if (rand() < 0.2) {
        const coOwnerId = randomUUID();
        const coToken = randomUUID().replace(/-/g, '');
        const coExpires = expiry(invitedAt + DAY_MS);
        items.push({ ...keys.coOwner(id, coOwnerId), entity: 'coOwner', id: coOwnerId, propertyId: id, email: `co.${i}@example.it`, fullName: 'Anna Verdi', share: 50, invitedAt: at, verifiedAt: null });
        items.push({ ...keys.coOwnerInvitation(coToken), entity: 'coOwnerInvitation', propertyId: id, coOwnerId, email: `co.${i}@example.it`, createdAt: at, expiresAt: coExpires, ...keys.tokenExpiryIndex(coExpires) });
        if (coExpires * 1000 <= now) count.expiredTokens = (count.expiredTokens ?? 0) + 1;
      } else {
        items[0]!.singleOwner = true;
      }
    }
    if (done || rand() < 0.3) {
      items.push({ ...keys.delegation(id, 'catasto'), entity: 'delegation', propertyId: id, type: 'catasto', province, municipality: city, generatedKey: `${id}/delegations/catasto.pdf`, documentKey: `${id}/delegations/signed-catasto.pdf`, signedAt: at });
    }
    if (done && !withOption) count.onboardingComplete = (count.onboardingComplete ?? 0) + 1;
  }

  if (withOption) {
    const optionId = randomUUID();
    const created = iso(optionAt!);
    const option: Record<string, unknown> = {
      ...keys.option(id),
      ...keys.optionIndexes({ id: optionId, propertyId: id, createdAt: created }),
      entity: 'option',
      id: optionId,
      propertyId: id,
      status: 'pending',
      propertyValue: 300_000,
      optionAmount: 3000,
      hasKeys,
      paymentType: hasKeys ? 'anticipato' : 'rateale',
      installments: hasKeys ? null : 12,
      minMonthlySlots: 4,
      signatureType: signedAt ? 'fisica' : null,
      signedAt,
      signatureData: signedAt ? { signedDocumentKey: `${id}/option/signed-1.pdf`, uploadedAt: signedAt } : null,
      createdAt: created,
      notifiedAt: iso(optionAt! + 3_600_000),
      propertyAddress: items[0]!.address,
      propertyCity: city,
      sellerFirstName: first,
      sellerLastName: last,
      updatedAt: created,
    };
    if (state === 'signedRateale') {
      const availToken = randomUUID().replace(/-/g, '');
      const linkAt = Date.parse(signedAt!) + DAY_MS;
      const availExpires = expiry(linkAt);
      option.availabilityToken = availToken;
      option.availabilityLinkSentAt = iso(linkAt);
      items.push({ ...keys.availabilityToken(availToken), entity: 'availability-link', propertyId: id, optionId, createdAt: iso(linkAt), expiresAt: availExpires, ...keys.tokenExpiryIndex(availExpires) });
      // the month the reminder asks for: from no slot to above the minimum of 4
      const month = availabilityMonth(new Date(now));
      const slots = Math.floor(rand() * 7);
      for (let s = 0; s < slots; s++) {
        const date = `${month.key}-${String(1 + ((s * 4) % 28)).padStart(2, '0')}`;
        items.push({ ...keys.slot(id, date, randomUUID()), entity: 'slot', propertyId: id, date, start: '09:00', end: '10:00', isBooked: false, createdAt: iso(linkAt) });
      }
      if (slots) items.push({ ...keys.monthlyQuota(id, month.year, month.month), entity: 'quota', propertyId: id, year: month.year, month: month.month, slotsCount: slots, quotaReached: slots >= 4, version: 1 });
      if (slots < 4) count.ratealeBelowQuota = (count.ratealeBelowQuota ?? 0) + 1;
    }
    items.push(option);
  }
  return items;
}

const summaryLine = (s: ReminderSummary) =>
  `${s.ms} ms: checked ${s.checked}, sent ${JSON.stringify(s.sent)}, delivered ${s.delivery.sent} (pending ${s.delivery.pending}), already sent ${s.alreadySent}, skipped ${s.skipped}, errors ${s.errors}, tokens expired ${s.tokensExpired}`;

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opzione-casa-bench-reminders-'));
  const t0 = Date.now();
  const stack = await startLocalStack({ appOrigin: 'http://localhost:5173', dataDir, seed: false });
  log(`stack up in ${Date.now() - t0} ms (DynamoDB Local -dbPath, as npm start)`);
  Object.assign(process.env, stack.env);
  resetConfig();
  resetAws();
  try {
    const rand = rng(11);
    const now = Date.now();
    const seedStart = Date.now();
    const count: Record<string, number> = {};
    const writer = new BatchWriter(ddb(), stack.env.TABLE_NAME!, { concurrency: 4 });
    let itemCount = 0;
    for (let i = 0; i < SEED; i++) {
      for (const item of seedRequest(i, rand, now, count)) {
        await writer.put(item);
        itemCount++;
      }
    }
    await writer.flush();
    const seedMs = Date.now() - seedStart;
    log(`seeded ${SEED} requests (${itemCount} items) in ${seedMs} ms:`, count);

    const first = await sendReminders({ source: 'aws.events', detail: {} });
    log('first run (sending):   ', summaryLine(first));
    const second = await sendReminders({ source: 'aws.events', detail: {} });
    log('second run (idempotent):', summaryLine(second));
    const sentFirst = Object.values(first.sent).reduce((a, b) => a + b, 0);
    if (Object.values(second.sent).some((n) => n !== 0)) throw new Error('the second run sent reminders again');
    if (first.errors || second.errors) throw new Error('errors in a run');
    const mails = ((await (await fetch(`${stack.urls.ses}/store`)).json()) as { emails: { subject: string }[] }).emails.filter((m) => m.subject.startsWith('Promemoria'));
    if (mails.length !== sentFirst) throw new Error(`${mails.length} reminder mails in the SES emulator, ${sentFirst} recorded`);

    const results = {
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGb: Math.round(os.totalmem() / 1e9), node: process.version, loadAvg: os.loadavg().map((n) => Math.round(n * 10) / 10) },
      dynamodb: '-dbPath (as npm start)',
      seeded: { requests: SEED, items: itemCount, ms: seedMs, mix: count },
      handler: 'notifications/send-reminders in-process (as the schedule calls it), real clock, concurrency 4, mails to the SES emulator through the outbox',
      firstRun: first,
      secondRun: second,
      reminderMailsInSes: mails.length,
      notes:
        'checked = items the Queries read (gsi2 PROPERTIES created up to 3 days ago and gsi2 OPTIONS, filtered on the server); ' +
        'each due reminder: its facts (one Query or GetItem), a TransactWriteItems with the outbox item, the SES send and the outbox update.',
    };
    log(`written ${await writeResults('reminders', results)}`);
  } finally {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
