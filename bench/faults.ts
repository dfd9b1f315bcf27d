/**
 * `npm run bench:faults` (also part of `npm run bench`): the local stack when a part of it
 * fails. Not a test suite: each scenario prints PASS/FAIL lines with its counts, and the
 * whole is written to bench/results/faults.json; the exit code is 1 when a check failed.
 *
 * Each scenario runs a stack of its own as `npm start` runs it (DynamoDB Local with -dbPath
 * in a temporary data folder), the API behind the local edge (infra/local/web-server.ts):
 * 1. DynamoDB Local killed (SIGKILL of the java process) in the middle of an OMI import of
 *    a Milano file (test/fixtures/omi), then started again on the same data, twice: at once,
 *    and only after the running import gave up. The import must end with exactly the file's
 *    rows stored, no duplicates: by the running import's own retries, or by the event
 *    delivered again as Lambda does (infra/local/stack.ts: 1 and 2 minutes after a failure);
 * 2. SES (the emulator) stopped during a submission: the submission is accepted, the lead
 *    e-mail stays in the outbox, and the scheduled retryOutbox sends it once SES is back;
 * 3. the stack stopped and started again on the same data folder and ports (as `npm start`
 *    after Ctrl-C): requests, photos in S3, a new seller's login and profile (Cognito and
 *    the table), OMI data and sent-mail records are all still there.
 */
import './quiet';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CognitoIdentityProviderClient, ConfirmSignUpCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ASYNC_RETRY_DELAYS_MS, startLocalStack, type LocalStack, type Ports } from '../infra/local/stack';
import { freePort, startDynamo, startSes, type Running } from '../infra/local/emulators';
import { invokeTrigger } from '../infra/local/gateway';
import { seedDemoData } from '../infra/local/demo-data';
import { LOCAL_REGION } from '../infra/local/setup';
import { ddb } from '../functions/model/db';
import { keys, omiKeys } from '../functions/model/keys';
import { readZoneRows } from '../functions/model/omi/quotations';
import { encodePng } from '../test/support/png';
import { MILANO } from '../test/support/omi-samples';
import { call, demoAccount, machine, postForm, r1, sentMail, signIn, sleep, startEdge, visitorIp, writeResults } from './support';

const log = (...a: unknown[]) => console.log(...a);

interface Check {
  scenario: string;
  name: string;
  pass: boolean;
  detail: string;
}
const checks: Check[] = [];
function check(scenario: string, name: string, pass: boolean, detail: string) {
  checks.push({ scenario, name, pass, detail });
  log(`${pass ? 'PASS' : 'FAIL'} [${scenario}] ${name}: ${detail}`);
}

/** A stack on a fresh data folder (as `npm start`), the edge in front, the runtime's log lines kept. */
async function diskStack(label: string, opts: { dataDir?: string; ports?: Ports } = {}) {
  const dataDir = opts.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), `opzione-casa-bench-faults-${label}-`)));
  const lines: string[] = [];
  const t0 = Date.now();
  const stack = await startLocalStack({ appOrigin: 'http://localhost:5173', dataDir, ports: opts.ports, log: (l) => lines.push(`${new Date().toISOString()} ${l}`) });
  const edge = await startEdge(stack);
  return { stack, edge, dataDir, lines, startMs: Date.now() - t0 };
}

function smallPng(seed: number): Buffer {
  const width = 64;
  const rowBytes = 1 + width * 3;
  const raw = randomBytes(rowBytes * 64);
  for (let y = 0; y < 64; y++) raw[y * rowBytes] = 0;
  raw[1] = seed & 255;
  return encodePng(width, 64, raw, 0);
}

/** One wizard submission from `ip` with one photo per room; the answer and what was uploaded. */
async function submit(edge: string, ip: string, n: number, rooms: number) {
  const draftId = randomUUID();
  const uploaded: { roomId: string; key: string; sha256: string; bytes: number }[] = [];
  for (let i = 0; i < rooms; i++) {
    const roomId = randomUUID();
    const png = smallPng(n * 10 + i);
    const form = await call<{ key: string; url: string; fields: Record<string, string> }>(edge, 'POST', '/api/uploads', {
      ip,
      body: { propertyDraftId: draftId, roomId, fileName: `stanza-${i}.png`, contentType: 'image/png', size: png.length },
    });
    if (form.status !== 200) throw new Error(`POST /api/uploads -> ${form.status} ${JSON.stringify(form.body)}`);
    const posted = await postForm(form.body, png, `stanza-${i}.png`);
    if (posted.status >= 300) throw new Error(`S3 POST -> ${posted.status} ${posted.text}`);
    uploaded.push({ roomId, key: form.body.key, sha256: createHash('sha256').update(png).digest('hex'), bytes: png.length });
  }
  const res = await call<{ propertyId: string; createdAt: string }>(edge, 'POST', '/api/properties', {
    ip,
    body: {
      propertyDraftId: draftId,
      website: '',
      address: 'Via Giuseppe Verdi 12',
      province: 'MI',
      city: 'Milano',
      omiCategory: 'abitazioni_civili',
      propertyType: 'appartamento',
      desiredAmount: '320.000',
      surfaceArea: 90,
      numRooms: 3,
      numBathrooms: 1,
      floor: '2',
      hasTerrace: false,
      features: ['ascensore'],
      condition: 'buono',
      hasExtraordinaryExpenses: 'no',
      hasAbuses: 'no',
      hasHypothecs: 'no',
      hasApe: 'no',
      rooms: uploaded.map((u) => ({ id: u.roomId, type: 'soggiorno', media: [{ key: u.key }] })),
      firstName: 'Prova',
      lastName: `Guasto ${n}`,
      email: `prova.guasto.${n}@example.it`,
      phone: '+393471112233',
      privacyConsent: true,
    },
  });
  return { draftId, uploaded, res };
}

const outboxItem = async (table: string, propertyId: string) =>
  (await ddb().send(new GetCommand({ TableName: table, Key: keys.outbox(`lead-${propertyId}`), ConsistentRead: true }))).Item;

// ---------------------------------------------------------------------------------------
// 1. DynamoDB Local killed during an OMI import
// ---------------------------------------------------------------------------------------

/** The file's data rows, read naively (title and header lines skipped). */
function fileRows(file: string): { identities: Set<string>; rows: number } {
  const lines = readFileSync(file, 'latin1').split(/\r?\n/).slice(2).filter((l) => l.trim());
  const identities = new Set(lines.map((l) => l.split(';')).map((f) => `${f[10]!.trim()}#${Number(f[11])}#${f[13]!.trim() || '-'}`));
  return { identities, rows: lines.length };
}

/** What the table holds for (semester, province): zone items, rows, distinct identities. */
async function storedRows(table: string, semester: string, prov: string) {
  let items = 0;
  let rows = 0;
  const ids = new Map<string, number>();
  for (const { pk } of omiKeys.semesterProvince(semester, prov)) {
    let start: Record<string, unknown> | undefined;
    do {
      const res = await ddb().send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :q)',
          ExpressionAttributeValues: { ':pk': pk, ':q': 'Q#' },
          ExclusiveStartKey: start,
          ConsistentRead: true,
        }),
      );
      for (const item of res.Items ?? []) {
        items++;
        for (const r of readZoneRows(item)) {
          rows++;
          const id = omiKeys.quotationIdentity(r);
          ids.set(id, (ids.get(id) ?? 0) + 1);
        }
      }
      start = res.LastEvaluatedKey;
    } while (start);
  }
  return { items, rows, distinct: ids.size, duplicates: [...ids.values()].filter((c) => c > 1).length, ids };
}

type Job = { status: string; rowsRead: number; inserted: number; updated: number; rejected: number; error: string | null; updatedAt: string };

interface KillRound {
  label: string;
  file: string;
  semester: string;
  /** how long after the first rows land in the table DynamoDB Local is killed */
  killAfterMs: number;
  /** 'short': started again at once; 'long': only once the running import gave up (the redelivery must finish it) */
  outage: 'short' | 'long';
}

/** One import with DynamoDB Local killed mid-run, on a stack of its own. */
async function omiKillRound(round: KillRound): Promise<Record<string, unknown>> {
  const S = 'omi-kill';
  const { stack, edge, dataDir, lines } = await diskStack(S);
  let dynamo: Running = stack.services.dynamodb;
  try {
    const table = stack.env.TABLE_NAME!;
    const admin = demoAccount(stack, 'admin');
    const token = await signIn(stack, admin.email, admin.password);
    const fileName = path.basename(round.file);
    const expected = fileRows(round.file);
    const up = await call<{ jobId: string; upload: { url: string; fields: Record<string, string> } }>(edge.url, 'POST', '/api/omi/uploads', {
      token,
      body: { fileName, semester: round.semester },
    });
    if (up.status !== 201) throw new Error(`POST /api/omi/uploads -> ${up.status} ${JSON.stringify(up.body)}`);
    const jobId = up.body.jobId;
    const t0 = Date.now();
    // the drop (its S3 event starts the import in this process), and a watcher that kills
    // DynamoDB Local once the job is running and its first rows are in the table: the dead
    // run leaves part of the file stored, which the next run must neither lose nor double
    const posted = postForm(up.body.upload, readFileSync(round.file), fileName);
    let runningAt = 0;
    for (let i = 0; i < 2000 && !runningAt; i++) {
      const job = await ddb().send(new GetCommand({ TableName: table, Key: omiKeys.job(jobId), ConsistentRead: true }));
      if (job.Item?.status === 'running') runningAt = Date.now();
      else await sleep(5);
    }
    for (let i = 0; i < 2000 && (await storedRows(table, round.semester, 'MI')).rows === 0; i++) await sleep(5);
    await sleep(round.killAfterMs);
    const before = await ddb().send(new GetCommand({ TableName: table, Key: omiKeys.job(jobId), ConsistentRead: true }));
    const statusAtKill = String(before.Item?.status);
    process.kill(dynamo.pid!, 'SIGKILL');
    const killedAt = Date.now();
    log(`\n[${S}] ${round.label}, ${fileName}: running after ${runningAt - t0} ms, DynamoDB Local killed ${killedAt - runningAt} ms later (job ${statusAtKill})`);
    await posted;
    const gaveUp = () => lines.some((l) => /omiImport non riuscita \(tentativo 1\//.test(l));
    if (round.outage === 'long') {
      // down until the running import gives up (its own retries exhausted), at most 2 minutes
      for (let i = 0; i < 1200 && !gaveUp(); i++) await sleep(100);
    } else {
      await sleep(1000);
    }
    dynamo = await startDynamo({ port: stack.ports.dynamodb, dataDir: path.join(dataDir, 'dynamodb') });
    const restartedAt = Date.now();
    log(`[${S}] DynamoDB Local started again after ${restartedAt - killedAt} ms down${gaveUp() ? ' (the running import had given up)' : ''}`);
    const partial = await storedRows(table, round.semester, 'MI');
    // the redelivered event, as the local runtime sends it (1 and 2 minutes after a failure);
    // a 'failed' job may still be taken over by the next attempt: wait for the last one
    let job: Job | undefined;
    const statuses: string[] = [];
    const deadline = killedAt + ASYNC_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) + 60_000;
    while (Date.now() < deadline) {
      const res = await call<Job>(edge.url, 'GET', `/api/omi/imports/${jobId}`, { token });
      if (res.status === 200) {
        job = res.body;
        if (statuses.at(-1) !== job.status) statuses.push(job.status);
        if (job.status === 'completed') break;
      }
      await sleep(500);
    }
    const convergedMs = job?.status === 'completed' ? Date.parse(job.updatedAt) - killedAt : null;
    const stored = await storedRows(table, round.semester, 'MI');
    const listing = await call<{ total: number }>(edge.url, 'GET', `/api/omi/quotations?semestre=${round.semester}&provincia=MI&page=1`, { token });
    const missing = [...expected.identities].filter((id) => !stored.ids.has(id)).length;
    const runtimeLog = lines.filter((l) => /omiImport/.test(l));
    const r = {
      outage: round.label,
      file: fileName,
      semester: round.semester,
      fileRows: expected.rows,
      killedMsAfterRunning: killedAt - runningAt,
      jobStatusAtKill: statusAtKill,
      downMs: restartedAt - killedAt,
      runningImportGaveUp: gaveUp(),
      storedAtRestart: { zoneItems: partial.items, rows: partial.rows },
      jobStatusesSeen: statuses,
      job: job ? { status: job.status, rowsRead: job.rowsRead, inserted: job.inserted, updated: job.updated, rejected: job.rejected, error: job.error } : null,
      killToCompletedMs: convergedMs,
      stored: { zoneItems: stored.items, rows: stored.rows, distinct: stored.distinct, duplicates: stored.duplicates, missing },
      listingTotal: listing.body.total,
      runtimeLog,
    };
    log(`[${S}]`, r);
    const name = `${round.label}: ${fileName} killed ${r.killedMsAfterRunning} ms into the import, its first rows stored`;
    check(S, `${name}: killed mid-import`, statusAtKill === 'running' && partial.rows > 0 && partial.rows < expected.rows, `job ${statusAtKill} at the kill, ${partial.rows}/${expected.rows} rows stored when DynamoDB came back after ${r1(r.downMs / 1000)} s`);
    if (round.outage === 'long') {
      check(S, `${name}: the running import gave up and the event was delivered again`, gaveUp() && runtimeLog.length > 0, runtimeLog.map((l) => l.replace(/^\S+ /, '')).join(' | ') || 'no failed attempt logged');
    }
    check(
      S,
      `${name}: import completed`,
      job?.status === 'completed' && job.rowsRead === expected.rows && job.inserted + job.updated === expected.rows && job.rejected === 0,
      job
        ? `job ${statuses.join(' -> ')}${convergedMs !== null ? ` ${r1(convergedMs / 1000)} s after the kill` : ''}: ${job.rowsRead} rows read, ${job.inserted} inserted + ${job.updated} already there, ${job.rejected} rejected${job.error ? `; ${job.error}` : ''}`
        : 'job not readable',
    );
    check(
      S,
      `${name}: exact rows, no duplicates`,
      stored.rows === expected.rows && stored.distinct === expected.rows && stored.duplicates === 0 && missing === 0 && listing.body.total === expected.rows,
      `stored ${stored.rows} rows (${stored.distinct} distinct, ${stored.duplicates} duplicated, ${missing} missing) for ${expected.rows} in the file; data page total ${listing.body.total}`,
    );
    return r;
  } finally {
    await edge.stop();
    await stack.stop();
    await dynamo.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function omiKill(): Promise<Record<string, unknown>> {
  return {
    rounds: [
      // started again at once (java takes a few seconds): the running import either rides the
      // outage out with its own retries (BatchWriter backoff) or fails and is delivered again
      await omiKillRound({ label: 'short outage', file: MILANO.valori2025, semester: '2025-S1', killAfterMs: 0, outage: 'short' }),
      // down until the running import fails: the runtime delivers the event again a minute later
      await omiKillRound({ label: 'long outage', file: MILANO.valori2024, semester: '2024-S2', killAfterMs: 0, outage: 'long' }),
    ],
  };
}

// ---------------------------------------------------------------------------------------
// 2. SES down during a submission
// ---------------------------------------------------------------------------------------

async function sesDown(): Promise<Record<string, unknown>> {
  const S = 'ses-down';
  const { stack, edge, dataDir } = await diskStack(S);
  let ses: Running = stack.services.ses;
  try {
    const table = stack.env.TABLE_NAME!;
    await ses.stop();
    log(`\n[${S}] SES emulator stopped`);
    const t0 = performance.now();
    const sub = await submit(edge.url, visitorIp(1), 1, 2);
    const submitMs = performance.now() - t0;
    const id = sub.res.body?.propertyId;
    check(S, 'submission accepted while SES is down', sub.res.status === 201, `POST /api/properties -> ${sub.res.status} in ${Math.round(submitMs)} ms`);
    const pending = id ? await outboxItem(table, id) : undefined;
    check(S, 'lead e-mail kept in the outbox', pending?.status === 'pending' && Number(pending.attempts) === 1, `outbox ${String(pending?.status)}, ${String(pending?.attempts)} attempt(s), next at ${String(pending?.nextAttemptAt)}`);
    const stored = id ? await ddb().send(new GetCommand({ TableName: table, Key: keys.property(id), ConsistentRead: true })) : undefined;
    check(S, 'the request is stored', stored?.Item?.mediaCount === 2, `property ${stored?.Item ? 'stored' : 'missing'}, ${String(stored?.Item?.mediaCount)} media`);

    // SES back on its port; the schedule (rate(5 minutes)) runs retryOutbox: here invoked once the mail is due
    ses = await startSes({ port: stack.ports.ses });
    log(`[${S}] SES emulator started again`);
    const early = await invokeTrigger('retryOutbox', { source: 'aws.events' });
    const due = Date.parse(String(pending?.nextAttemptAt ?? new Date().toISOString()));
    await sleep(Math.max(0, due - Date.now()) + 500);
    const counts = (await invokeTrigger('retryOutbox', { source: 'aws.events', 'detail-type': 'Scheduled Event', time: new Date().toISOString() })) as Record<string, number>;
    const sent = id ? await outboxItem(table, id) : undefined;
    const mails = (await sentMail(stack.urls.ses)).filter((m) => `${m.body.html ?? ''}${m.body.text ?? ''}`.includes(`/investigation/${id}`));
    check(S, 'retryOutbox sends it once SES is back', sent?.status === 'sent' && mails.length === 1 && (counts.sent ?? 0) >= 1, `retry run ${JSON.stringify(counts)} (before it was due: ${JSON.stringify(early)}); outbox ${String(sent?.status)} after ${String(sent?.attempts)} attempts; ${mails.length} lead e-mail(s) in SES`);
    return { submitMsWithSesDown: Math.round(submitMs), outboxWhileDown: { status: pending?.status, attempts: pending?.attempts, lastError: pending?.lastError }, retryRun: counts, retryBeforeDue: early, outboxAfter: { status: sent?.status, attempts: sent?.attempts }, leadMails: mails.length };
  } finally {
    await edge.stop();
    await stack.stop();
    await ses.stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------
// 3. the stack stopped and started again on the same data
// ---------------------------------------------------------------------------------------

async function snapshot(stack: LocalStack, edge: string, propertyId: string, seller: { email: string; password: string }) {
  const admin = demoAccount(stack, 'admin');
  const adminToken = await signIn(stack, admin.email, admin.password);
  const list = await call<{ total: number; items: { id: string }[] }>(edge, 'GET', '/api/admin/properties', { token: adminToken });
  const detail = await call<{ rooms: { media: { key: string; url: string }[] }[] }>(edge, 'GET', `/api/admin/properties/${propertyId}`, { token: adminToken });
  const photos: string[] = [];
  for (const m of (detail.body.rooms ?? []).flatMap((r) => r.media ?? [])) {
    const res = await fetch(m.url);
    photos.push(res.ok ? createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex') : `HTTP ${res.status}`);
  }
  const omi = await call<{ total: number }>(edge, 'GET', '/api/omi/quotations?page=1', { token: adminToken });
  let sellerMe: unknown;
  try {
    const sellerToken = await signIn(stack, seller.email, seller.password);
    const me = await call<Record<string, unknown>>(edge, 'GET', '/api/me', { token: sellerToken });
    sellerMe = me.status === 200 ? me.body : `HTTP ${me.status}`;
  } catch (err) {
    sellerMe = `sign-in failed: ${(err as Error).message}`;
  }
  const demoLogins: string[] = [];
  for (const a of stack.accounts) {
    await signIn(stack, a.email, a.password).then(
      () => demoLogins.push(a.role),
      () => undefined,
    );
  }
  const outbox = await outboxItem(stack.env.TABLE_NAME!, propertyId);
  const counter = (await ddb().send(new GetCommand({ TableName: stack.env.TABLE_NAME!, Key: keys.requestCount(), ConsistentRead: true }))).Item?.count;
  return {
    pool: stack.pool,
    requestsTotal: list.body.total,
    listed: list.body.items.some((i) => i.id === propertyId),
    detailStatus: detail.status,
    photos,
    omiRows: omi.body.total,
    sellerMe,
    demoLogins,
    leadMail: outbox?.status,
    counter,
  };
}

/** The sign-up confirmation code e-mailed to `email` (its only mail so far, in the local SES's store), waiting up to 10 s. */
async function confirmationCode(sesUrl: string, email: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mail = (await sentMail(sesUrl)).filter((m) => m.destination.to.includes(email)).at(-1);
    const code = mail ? /\b(\d{6})\b/.exec(mail.body.text ?? mail.body.html ?? '')?.[1] : undefined;
    if (code) return code;
    await sleep(100);
  }
  const seen = (await sentMail(sesUrl)).map((m) => `${m.subject} -> ${m.destination.to.join(',')}`);
  throw new Error(`no confirmation code e-mailed to ${email} (mail seen: ${seen.join(' | ') || 'none'})`);
}

async function restart(): Promise<Record<string, unknown>> {
  const S = 'restart';
  const ports: Ports = { dynamodb: await freePort(), s3: await freePort(), ses: await freePort(), cognito: await freePort(), api: await freePort() };
  const first = await diskStack(S, { ports });
  const dataDir = first.dataDir;
  const seller = { email: `venditore.riavvio.${Date.now()}@example.it`, password: 'Riavvio-2026' };
  let before: Awaited<ReturnType<typeof snapshot>>;
  let uploaded: { sha256: string }[];
  let propertyId: string;
  try {
    // what npm start does on a fresh folder, then data written through the product's own paths
    await seedDemoData(first.stack, () => undefined);
    const sub = await submit(first.edge.url, visitorIp(2), 2, 2);
    if (sub.res.status !== 201) throw new Error(`submission -> ${sub.res.status} ${JSON.stringify(sub.res.body)}`);
    propertyId = sub.res.body.propertyId;
    uploaded = sub.uploaded;
    // a seller signs up as in the SPA: SignUp, then the code e-mailed to the address
    const cognito = new CognitoIdentityProviderClient({ endpoint: first.stack.urls.cognito, region: LOCAL_REGION, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
    const signedUp = await cognito.send(
      new SignUpCommand({
        ClientId: first.stack.pool.userPoolClientId,
        Username: seller.email,
        Password: seller.password,
        UserAttributes: [
          { Name: 'email', Value: seller.email },
          { Name: 'name', Value: 'Sara Riavvio' },
          { Name: 'custom:user_type', Value: 'venditore' },
        ],
      }),
    );
    if (!signedUp.UserConfirmed) {
      const code = await confirmationCode(first.stack.urls.ses, seller.email);
      await cognito.send(new ConfirmSignUpCommand({ ClientId: first.stack.pool.userPoolClientId, Username: seller.email, ConfirmationCode: code }));
    }
    cognito.destroy();
    before = await snapshot(first.stack, first.edge.url, propertyId, seller);
    log(`\n[${S}] before the restart`, before);
  } finally {
    await first.edge.stop();
    await first.stack.stop();
  }
  const second = await diskStack(S, { dataDir, ports });
  try {
    // npm start runs the demo data step at every start: on a folder that has it, it adds nothing
    await seedDemoData(second.stack, () => undefined);
    const after = await snapshot(second.stack, second.edge.url, propertyId, seller);
    log(`[${S}] after the restart (${second.startMs} ms to start)`, after);
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    check(S, 'user pool and app client kept', same(before.pool, after.pool), `${after.pool.userPoolId} / ${after.pool.userPoolClientId}`);
    check(S, 'requests kept', after.requestsTotal === before.requestsTotal && after.listed && after.counter === before.counter, `${after.requestsTotal} listed (before ${before.requestsTotal}), counter ${String(after.counter)}, the new one ${after.listed ? 'listed' : 'MISSING'}`);
    const expectedPhotos = uploaded.map((u) => u.sha256).sort();
    check(S, 'photos kept in S3, byte for byte', after.detailStatus === 200 && same([...after.photos].sort(), expectedPhotos), `${after.photos.filter((p) => expectedPhotos.includes(p)).length}/${expectedPhotos.length} photos identical through the download links`);
    check(S, 'new seller can sign in, profile kept', typeof after.sellerMe === 'object' && same(after.sellerMe, before.sellerMe), typeof after.sellerMe === 'object' ? 'GET /api/me identical' : String(after.sellerMe));
    check(S, 'demo accounts sign in', after.demoLogins.length === second.stack.accounts.length, `${after.demoLogins.join(', ')}`);
    check(S, 'OMI data kept', after.omiRows === before.omiRows && after.omiRows > 0, `${after.omiRows} rows (before ${before.omiRows})`);
    check(S, 'sent-mail record kept', after.leadMail === 'sent' && before.leadMail === 'sent', `lead e-mail outbox ${String(after.leadMail)}`);
    return { before, after, secondStartMs: second.startMs };
  } finally {
    await second.edge.stop();
    await second.stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const results: Record<string, unknown> = { at: new Date().toISOString(), machine: machine(), dynamodb: '-dbPath (as npm start)' };
  const only = process.argv.slice(2);
  const scenarios: [string, () => Promise<Record<string, unknown>>][] = [
    ['omiKill', omiKill],
    ['sesDown', sesDown],
    ['restart', restart],
  ];
  for (const [name, run] of scenarios) {
    if (only.length && !only.includes(name)) continue;
    const t0 = Date.now();
    try {
      results[name] = { ...(await run()), seconds: r1((Date.now() - t0) / 1000) };
    } catch (err) {
      check(name, 'scenario ran to the end', false, (err as Error).stack ?? String(err));
      results[name] = { error: (err as Error).message };
    }
  }
  (results.machine as Record<string, unknown>).loadAvgAtEnd = os.loadavg().map(r1);
  results.checks = checks;
  const failed = checks.filter((c) => !c.pass);
  results.failed = failed.length;
  log(`\nwritten ${await writeResults('faults', results)}`);
  log(failed.length ? `${failed.length} of ${checks.length} checks FAILED: ${failed.map((c) => `[${c.scenario}] ${c.name}`).join('; ')}` : `all ${checks.length} checks passed`);
  return failed.length;
}

main().then(
  (failed) => process.exit(failed ? 1 : 0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
