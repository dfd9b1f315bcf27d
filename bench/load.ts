/**
 * `npm run bench:load` (also part of `npm run bench`): the local stack under load. Not a
 * test: it prints the figures and PASS/FAIL lines for the reliability bars, writes
 * bench/results/load.json, and exits with 1 when a check failed.
 *
 * The stack as `npm start` runs it (DynamoDB Local with -dbPath in a temporary data folder,
 * the `npm start` demo data: Milano OMI quotations and two requests), with the local edge
 * (the CloudFront stand-in, infra/local/web-server.ts) in front of the API. The load comes
 * from a process of its own (bench/load-client.ts), as browsers are not in the server.
 *
 * 1. 200 anonymous visitors submit the wizard at the same time, each from its own address
 *    (the edge passes it on as CloudFront does): two rooms with one 256 KB photo each, then
 *    POST /api/properties. Every accepted submission is read back whole: property, rooms,
 *    media items, invitation, the S3 objects (size and type), the lead e-mail (outbox item
 *    sent, exactly one mail in the SES emulator); a refused one must have stored nothing.
 *    The automatic valuation is counted apart (past its timeout the submission goes on).
 *    Then one more visitor sends 12 submissions: the per-IP limit (10 an hour) must refuse
 *    the last 2 with 429.
 * 2. The main read APIs at 50 concurrent connections (keep-alive), 1,000 calls each after
 *    100 warm-up calls: p50/p95/p99/max and calls per second.
 * For each phase, where the time went: CPU seconds of the stack's Node process, of
 * DynamoDB Local and of the client, and the stack's event-loop delay.
 *
 * No load tool is installed (autocannon, k6): a bounded-concurrency loop over node:http,
 * which also lets each visitor bind its own source address.
 */
import './quiet';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalStack } from '../infra/local/stack';
import { seedDemoData } from '../infra/local/demo-data';
import { ddb } from '../functions/model/db';
import { s3 } from '../functions/lib/aws/s3';
import { keys } from '../functions/model/keys';
import { RATE_LIMITS } from '../functions/domain/property/limits';
import { VALUATION_TIMEOUT_MS } from '../functions/model/valuation';
import { call, cpuMeter, demoAccount, machine, r1, runChild, sentMail, signIn, sleep, startEdge, writeResults } from './support';
import type { ReadFigure, ReadsJob, SubmissionsJob, SubmissionsResult, Visitor } from './load-client';

const VISITORS = 200;
const PHOTO_BYTES = 256 * 1024;
const READ_CONCURRENCY = 50;
const READ_CALLS = 1000;
const READ_WARMUP = 100;
const log = (...a: unknown[]) => console.log(...a);

/**
 * Reads an accepted submission back; returns what is missing or wrong (empty: stored whole).
 * The automatic valuation is not part of it: past VALUATION_TIMEOUT_MS the submission goes on
 * without it (functions/properties/submission-valuation.ts); it is counted apart.
 */
async function readBack(table: string, bucket: string, v: Visitor, mailFor: Map<string, number>): Promise<string[]> {
  const problems: string[] = [];
  const id = v.propertyId!;
  if (id !== v.draftId) problems.push('propertyId is not the draft id');
  const items =
    (
      await ddb().send(
        new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.property(id).pk }, ConsistentRead: true }),
      )
    ).Items ?? [];
  const property = items.find((i) => i.sk === keys.property(id).sk);
  if (!property) return ['property item missing'];
  if (property.email !== `visitatore.${v.n}@example.it` || property.city !== 'Milano' || property.roomsCount !== 2 || property.mediaCount !== 2) {
    problems.push('property fields differ from what was sent');
  }
  const rooms = items.filter((i) => i.entity === 'room');
  const media = items.filter((i) => i.entity === 'media');
  if (rooms.length !== 2 || !v.rooms.every((r) => rooms.some((x) => x.id === r.id && x.type === r.type))) problems.push(`rooms: ${rooms.length} of 2`);
  if (media.length !== 2 || !v.rooms.every((r) => media.some((m) => m.key === r.key && m.roomId === r.id && m.size === r.bytes))) problems.push(`media items: ${media.length} of 2`);
  const invitation = await ddb().send(new GetCommand({ TableName: table, Key: keys.invitation(String(property.invitationToken)), ConsistentRead: true }));
  if (invitation.Item?.propertyId !== id) problems.push('invitation missing');
  for (const r of v.rooms) {
    const head = await s3()
      .send(new HeadObjectCommand({ Bucket: bucket, Key: r.key }))
      .catch(() => undefined);
    if (!head) problems.push(`S3 object missing: ${r.key}`);
    else if (head.ContentLength !== r.bytes || head.ContentType !== 'image/png') problems.push(`S3 object differs: ${r.key}`);
  }
  const outbox = await ddb().send(new GetCommand({ TableName: table, Key: keys.outbox(`lead-${id}`), ConsistentRead: true }));
  if (!outbox.Item) problems.push('outbox item missing');
  else if (outbox.Item.status !== 'sent') problems.push(`outbox item ${String(outbox.Item.status)}`);
  const mails = mailFor.get(id) ?? 0;
  if (mails !== 1) problems.push(`${mails} lead e-mails in SES`);
  return problems;
}

async function main() {
  const results: Record<string, unknown> = { at: new Date().toISOString(), machine: machine(), dynamodb: '-dbPath (as npm start)' };
  const checks: { name: string; pass: boolean; detail: string }[] = [];
  const check = (name: string, pass: boolean, detail: string) => {
    checks.push({ name, pass, detail });
    log(`${pass ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
  };

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opzione-casa-bench-load-'));
  let t = Date.now();
  const stack = await startLocalStack({ appOrigin: 'http://localhost:5173', dataDir });
  const edge = await startEdge(stack);
  log(`stack up in ${Date.now() - t} ms (DynamoDB Local -dbPath, as npm start); edge ${edge.url}`);
  try {
    t = Date.now();
    await seedDemoData(stack, () => undefined);
    log(`npm start demo data (Milano OMI 2025-S1, 2 requests) in ${Date.now() - t} ms`);
    const table = stack.env.TABLE_NAME!;
    const bucket = stack.env.MEDIA_BUCKET!;
    const counter = async () => Number((await ddb().send(new GetCommand({ TableName: table, Key: keys.requestCount(), ConsistentRead: true }))).Item?.count ?? 0);
    const countBefore = await counter();
    const mailsBefore = (await sentMail(stack.urls.ses)).length;

    // ---- 1. 200 concurrent submissions with photos ----
    const limit = RATE_LIMITS.submission.limit;
    log(`\n${VISITORS} visitors submit at once (2 photos of ${PHOTO_BYTES / 1024} KB each)...`);
    let meter = cpuMeter(stack.services.dynamodb.pid);
    const sub = await runChild<{ result: SubmissionsResult; clientCpuSeconds: number }>('load-client.ts', {
      kind: 'submissions', edge: edge.url, visitors: VISITORS, photoBytes: PHOTO_BYTES, limit,
    } satisfies SubmissionsJob);
    const subCpu = { ...meter(), clientCpuSeconds: sub.clientCpuSeconds };
    const { visitors } = sub.result;
    const oneVisitor = sub.result.oneVisitorStatuses;
    const limitCalls = oneVisitor.filter((s) => s === 201).length;
    const accepted = visitors.filter((v) => v.outcome === 'accepted');
    const refused = visitors.filter((v) => v.outcome === 'refused');
    const failed = visitors.filter((v) => v.outcome === 'failed');
    const refusedBy: Record<string, number> = {};
    for (const v of [...refused, ...failed]) refusedBy[v.stoppedAt!] = (refusedBy[v.stoppedAt!] ?? 0) + 1;
    log(`accepted ${accepted.length}, refused ${refused.length}, failed ${failed.length} in ${sub.result.wallSeconds} s`, refusedBy);
    log('statuses', sub.result.statuses);
    log('where the time went', subCpu);

    // the lead e-mails go out right after each commit: give the last ones a moment
    await sleep(1000);
    const mails = (await sentMail(stack.urls.ses)).slice(mailsBefore);
    const mailFor = new Map<string, number>();
    for (const m of mails) {
      const id = /\/investigation\/([0-9a-f-]{36})/.exec(`${m.body.html ?? ''} ${m.body.text ?? ''}`)?.[1];
      if (id) mailFor.set(id, (mailFor.get(id) ?? 0) + 1);
    }
    const incomplete: { n: number; problems: string[] }[] = [];
    let valued = 0;
    for (const v of accepted) {
      const problems = await readBack(table, bucket, v, mailFor);
      if (problems.length) incomplete.push({ n: v.n, problems });
      const valuation = await ddb().send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :v)',
          ExpressionAttributeValues: { ':pk': keys.property(v.propertyId!).pk, ':v': keys.dossierPrefixes.valuation },
          ConsistentRead: true,
        }),
      );
      if (valuation.Items?.length) valued++;
    }
    const leftovers: number[] = [];
    for (const v of [...refused, ...failed]) {
      const item = await ddb().send(new GetCommand({ TableName: table, Key: keys.property(v.draftId), ConsistentRead: true }));
      if (item.Item) leftovers.push(v.n);
    }
    const counterDelta = (await counter()) - countBefore;
    const errors = Object.values(sub.result.statuses).reduce((n, s) => n + Object.entries(s).filter(([k]) => k === 'network' || Number(k) >= 500).reduce((a, [, c]) => a + c, 0), 0);

    check('submissions: every accepted one stored whole', incomplete.length === 0, `${accepted.length - incomplete.length}/${accepted.length} whole (property, 2 rooms, 2 media, invitation, 2 S3 objects, lead e-mail sent once)`);
    if (incomplete.length) log('incomplete', incomplete.slice(0, 10));
    check('submissions: none lost', incomplete.length === 0 && counterDelta === accepted.length + limitCalls, `requests counter +${counterDelta} for ${accepted.length} + ${limitCalls} accepted`);
    check('submissions: refused ones stored nothing', leftovers.length === 0, `${leftovers.length} stored of ${refused.length + failed.length} refused or failed`);
    check('submissions: zero 5xx or network errors', errors === 0 && failed.length === 0, `${errors} 5xx/network answers, ${failed.length} visitors failed`);
    check(`submissions: ${VISITORS} visitors, each with its own address, not refused by the per-IP limit`, refused.length === 0, `${accepted.length} accepted, ${refused.length} refused ${JSON.stringify(refusedBy)}`);
    const one429 = oneVisitor.filter((s) => s === 429).length;
    check(`per-IP limit: one visitor, ${limit + 2} submissions`, limitCalls === limit && one429 === 2, `${limitCalls} accepted, ${one429} refused with 429 (limit ${limit} an hour): ${oneVisitor.join(' ')}`);
    log(`INFO automatic valuation stored for ${valued}/${accepted.length}${valued < accepted.length ? ` (the others took more than ${VALUATION_TIMEOUT_MS} ms: accepted without it, by design)` : ''}`);
    console.table(Object.entries(sub.result.latency).map(([name, l]) => ({ call: name, ...l })));

    results.submissions = {
      visitors: VISITORS,
      photosPerSubmission: 2,
      photoBytes: sub.result.photoBytes,
      wallSeconds: sub.result.wallSeconds,
      accepted: accepted.length,
      refused: refused.length,
      failed: failed.length,
      refusedOrFailedBy: refusedBy,
      storedWhole: accepted.length - incomplete.length,
      withAutomaticValuation: valued,
      valuationTimeoutMs: VALUATION_TIMEOUT_MS,
      incomplete: incomplete.slice(0, 20),
      refusedButStored: leftovers.length,
      requestsCounterDelta: counterDelta,
      statuses: sub.result.statuses,
      latency: sub.result.latency,
      oneVisitorLimit: { submissions: limit + 2, statuses: oneVisitor },
      whereTheTimeWent: subCpu,
    };

    // ---- 2. read APIs at 50 concurrent connections ----
    const admin = await signIn(stack, demoAccount(stack, 'admin').email, demoAccount(stack, 'admin').password);
    const seller = await signIn(stack, demoAccount(stack, 'seller').email, demoAccount(stack, 'seller').password);
    const ids = accepted.map((v) => v.propertyId!);
    const sellerList = await call<{ items: unknown[] }>(edge.url, 'GET', '/api/seller/properties', { token: seller });
    const omiPage = await call<{ total: number }>(edge.url, 'GET', '/api/omi/quotations?page=1', { token: admin });
    const omiFilters = ['page=1', 'comune=Milano&page=2', 'tipologia=20&page=1', 'stato=OTTIMO&page=1', 'comune=mil&tipologia=1&page=1', 'page=5'];
    const readsJob: ReadsJob = {
      kind: 'reads',
      edge: edge.url,
      concurrency: READ_CONCURRENCY,
      calls: READ_CALLS,
      warmup: READ_WARMUP,
      routes: [
        { name: 'GET /api/admin/properties (first page)', paths: ['/api/admin/properties'], token: admin },
        { name: 'GET /api/admin/properties/{id}', paths: ids.map((id) => `/api/admin/properties/${id}`), token: admin },
        { name: 'GET /api/seller/properties', paths: ['/api/seller/properties'], token: seller },
        { name: 'GET /api/omi/quotations', paths: omiFilters.map((q) => `/api/omi/quotations?${q}`), token: admin },
        { name: 'GET /api/me', paths: ['/api/me'], token: seller },
      ],
    };
    log(
      `\nread APIs: ${READ_CALLS} calls each at ${READ_CONCURRENCY} concurrent connections (after ${READ_WARMUP} warm-up calls); ` +
        `${await counter()} requests stored, the demo seller owns ${sellerList.body.items?.length ?? 0}, ${omiPage.body.total} OMI rows`,
    );
    meter = cpuMeter(stack.services.dynamodb.pid);
    const reads = await runChild<{ result: ReadFigure[]; clientCpuSeconds: number }>('load-client.ts', readsJob);
    const readCpu = { ...meter(), clientCpuSeconds: reads.clientCpuSeconds };
    console.table(reads.result.map((r) => ({ route: r.route, p50Ms: r.p50Ms, p95Ms: r.p95Ms, p99Ms: r.p99Ms, maxMs: r.maxMs, perS: r.callsPerSecond, statuses: JSON.stringify(r.statuses) })));
    log('where the time went', readCpu);
    for (const r of reads.result) {
      const ok = r.statuses['200'] ?? 0;
      check(`reads: ${r.route} all answered 200`, ok === READ_CALLS, `${ok}/${READ_CALLS} (${JSON.stringify(r.statuses)})`);
    }
    results.reads = {
      tool: 'a bounded-concurrency loop over node:http keep-alive connections (bench/load-client.ts): no autocannon or k6 in node_modules',
      callsEach: READ_CALLS,
      warmupEach: READ_WARMUP,
      concurrency: READ_CONCURRENCY,
      data: { requests: await counter(), sellerOwns: sellerList.body.items?.length ?? 0, omiRows: omiPage.body.total },
      figures: reads.result,
      whereTheTimeWent: readCpu,
    };
  } finally {
    await edge.stop();
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  (results.machine as Record<string, unknown>).loadAvgAtEnd = os.loadavg().map(r1);
  results.checks = checks;
  const failedChecks = checks.filter((c) => !c.pass);
  results.failed = failedChecks.length;
  log(`\nwritten ${await writeResults('load', results)}`);
  log(failedChecks.length ? `${failedChecks.length} of ${checks.length} checks FAILED: ${failedChecks.map((c) => c.name).join('; ')}` : `all ${checks.length} checks passed`);
  return failedChecks.length;
}

main().then(
  (failed) => process.exit(failed ? 1 : 0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
