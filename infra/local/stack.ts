/**
 * Starts the whole back end locally: emulators, setup, demo accounts, the local gateway,
 * S3 event delivery and schedules. Used by `npm start`, the integration and e2e tests and
 * the benchmarks, so all of them run the same thing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertPortFree, freePort, startCognito, startDynamo, startS3, startSes, type Running } from './emulators';
import { corsXml, ensureIpHashSalt, ensureTable, ensureUserPool, LOCAL_REGION, markEmailVerified, type PoolIds } from './setup';
import { DEMO_ACCOUNTS, seedDemoAccounts, type DemoAccount } from './seed';
import { invokeTrigger, startGateway, useHandlerBundles } from './gateway';
import { buildLambdaBundles } from './bundles';
import { newOriginSecret } from './edge';
import { triggers, type TriggerDef } from '../../functions/routes';
import { MIN_PASSWORD_LENGTH } from '../../functions/domain/roles';
import { resetConfig } from '../../functions/lib/config';
import { resetAws } from '../../functions/lib/aws';
import { DEMO_COMPANY, DEMO_BANK_TRANSFER, DEMO_DELEGATEE, DEMO_GRANTEE, type RuntimeConfig } from '../../functions/domain/runtime-config';
import { partiesEnvironment } from '../stacks/deploy-config';

export const TABLE_NAME = 'opzione-casa';
/** the local Stripe webhook signing secret (not a secret: only the local runtime and tests use it) */
export const LOCAL_STRIPE_WEBHOOK_SECRET = 'whsec_local_opzione_casa_demo';
export const MEDIA_BUCKET = 'opzione-casa-media';
export const OMI_BUCKET = 'opzione-casa-omi-drop';

export interface Ports {
  dynamodb: number;
  s3: number;
  ses: number;
  cognito: number;
  api: number;
}

export const DEFAULT_PORTS: Ports & { web: number } = {
  web: 5173,
  api: 3000,
  dynamodb: 8000,
  s3: 4569,
  ses: 8005,
  cognito: 9229,
};

export interface LocalStackOptions {
  /** persistent data folder; omitted = in-memory DynamoDB and a temporary folder */
  dataDir?: string;
  /** fixed ports, or free ones chosen by the OS */
  ports?: Ports;
  /** the SPA's origin (CORS of the API and the buckets, links in e-mails) */
  appOrigin: string;
  seed?: boolean;
  log?: (line: string) => void;
  /** run the Lambda bundles AWS runs (infra/lambda-bundle) instead of the TypeScript sources */
  bundles?: boolean;
}

export interface LocalStack {
  ports: Ports;
  urls: { api: string; dynamodb: string; s3: string; ses: string; cognito: string; issuer: string };
  pool: PoolIds;
  accounts: DemoAccount[];
  /** environment the handlers run with (also set on process.env) */
  env: Record<string, string>;
  runtimeConfig: RuntimeConfig;
  /** the emulators, for the fault benchmark (bench/faults.ts): one can be stopped and started again on its port */
  services: { dynamodb: Running; s3: Running; ses: Running; cognito: Running };
  stop: () => Promise<void>;
}

/**
 * Lambda's retries of a failed asynchronous invocation (S3 events, schedules): two more
 * attempts, one minute and then two minutes later, as AWS does by default. Shorter waits
 * would not be faithful: an OMI import that died mid-run leaves its job "running" with a
 * fresh heartbeat, and only a redelivery after the job went stale (STALE_AFTER_MS, 30 s)
 * takes it over (bench/faults.ts kills DynamoDB Local during an import to prove it).
 */
export const ASYNC_RETRY_DELAYS_MS = [60_000, 120_000] as const;

/** Runs an async-invoked function as Lambda does; `pending` holds the waits, cleared when the stack stops. */
async function invokeAsync(id: string, event: unknown, log: (l: string) => void, pending: Set<NodeJS.Timeout>): Promise<void> {
  const attempts = ASYNC_RETRY_DELAYS_MS.length + 1;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      await invokeTrigger(id, event);
      return;
    } catch (err) {
      const wait = ASYNC_RETRY_DELAYS_MS[attempt - 1];
      log(`${id} non riuscita (tentativo ${attempt}/${attempts}): ${(err as Error).message}${wait ? `; nuovo tentativo tra ${wait / 60_000} min` : ''}`);
      if (!wait) return;
      // a stopped stack clears the timer: the promise never settles and the retry never runs
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(timer);
          resolve();
        }, wait);
        pending.add(timer);
      });
    }
  }
}

/** `rate(5 minutes)` -> milliseconds; the local runtime supports rate expressions. */
export function rateToMs(expr: string): number | undefined {
  const m = /^rate\((\d+)\s+(minute|minutes|hour|hours|day|days)\)$/.exec(expr.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = m[2]!.startsWith('minute') ? 60_000 : m[2]!.startsWith('hour') ? 3_600_000 : 86_400_000;
  return n * unit;
}

/** cognito-local's name of each Cognito trigger source of the manifest. */
const COGNITO_LOCAL_TRIGGERS = {
  'cognito:preSignUp': 'PreSignUp',
  'cognito:postConfirmation': 'PostConfirmation',
  'cognito:preTokenGeneration': 'PreTokenGeneration',
} as const;

export async function startLocalStack(opts: LocalStackOptions): Promise<LocalStack> {
  const log = opts.log ?? (() => {});
  const ports: Ports = opts.ports ?? {
    dynamodb: await freePort(),
    s3: await freePort(),
    ses: await freePort(),
    cognito: await freePort(),
    api: await freePort(),
  };
  if (opts.ports) {
    const names: Record<keyof Ports, string> = { dynamodb: 'DynamoDB', s3: 'S3', ses: 'SES', cognito: 'Cognito', api: 'API' };
    for (const key of Object.keys(names) as (keyof Ports)[]) await assertPortFree(ports[key], names[key]);
  }
  const tempDir = opts.dataDir ? undefined : await mkdtemp(path.join(os.tmpdir(), 'opzione-casa-'));
  const root = opts.dataDir ?? tempDir!;
  const running: Running[] = [];
  /** waits before the retries of failed asynchronous invocations */
  const retries = new Set<NodeJS.Timeout>();
  const stopAll = async () => {
    for (const r of running.reverse()) await r.stop().catch(() => undefined);
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };

  try {
    const api = `http://127.0.0.1:${ports.api}`;
    // each service is tracked as soon as it is up, and all are awaited before a failure is
    // thrown, so a service that fails to start never leaves another (Java) running
    const track = async <T extends Running>(p: Promise<T>): Promise<T> => {
      const r = await p;
      running.push(r);
      return r;
    };
    const starting = Promise.allSettled([
      track(startDynamo({ port: ports.dynamodb, dataDir: opts.dataDir ? path.join(root, 'dynamodb') : undefined })),
      track(startSes({ port: ports.ses })),
      track(startCognito({
        port: ports.cognito,
        dir: path.join(root, 'cognito'),
        persist: opts.dataDir !== undefined,
        lambdaEndpoint: api,
        triggerFunctions: Object.fromEntries(
          (triggers as readonly TriggerDef[])
            .filter((t) => t.source.startsWith('cognito:'))
            .map((t) => [COGNITO_LOCAL_TRIGGERS[t.source as keyof typeof COGNITO_LOCAL_TRIGGERS], t.id]),
        ),
        minPasswordLength: MIN_PASSWORD_LENGTH,
        sesEndpoint: `http://127.0.0.1:${ports.ses}`,
        mailFrom: process.env.MAIL_FROM,
        log: (line) => log(`[cognito] ${line}`),
      })),
    ]);
    // the Lambda bundles build (or, kept from an earlier run, are verified) while the emulators start
    const bundlesBuilt = opts.bundles ? buildLambdaBundles() : undefined;
    if (bundlesBuilt) {
      bundlesBuilt.catch(() => undefined); // awaited below, after the emulators
      running.push({
        name: 'Lambda bundles',
        url: '',
        // the built folder stays for the next start (infra/local/bundles.ts)
        stop: async () => useHandlerBundles(undefined),
      });
    }
    const started = await starting;
    const failure = started.find((r) => r.status === 'rejected');
    if (failure) throw failure.reason;
    const [dynamo, ses, cognito] = started.map((r) => (r as PromiseFulfilledResult<Running>).value) as [Running, Running, Running];
    const cors = corsXml([opts.appOrigin]);
    const s3 = await startS3({
      port: ports.s3,
      dir: path.join(root, 's3'),
      buckets: [
        { name: MEDIA_BUCKET, cors },
        { name: OMI_BUCKET, cors },
      ],
      onEvent: (event) => {
        const records = (event.Records ?? []) as { s3?: { bucket?: { name?: string } } }[];
        if (!records.some((r) => r.s3?.bucket?.name === OMI_BUCKET)) return;
        for (const t of triggers as readonly TriggerDef[]) {
          if (t.source === 's3:omiDrop') void invokeAsync(t.id, event, log, retries);
        }
      },
    });
    running.push(s3);

    await ensureTable(dynamo.url, TABLE_NAME);
    const pool = await ensureUserPool(cognito.url, 'opzione-casa-local');
    const issuer = `${cognito.url}/${pool.userPoolId}`;

    const env: Record<string, string> = {
      TABLE_NAME,
      MEDIA_BUCKET,
      OMI_BUCKET,
      USER_POOL_ID: pool.userPoolId,
      USER_POOL_CLIENT_ID: pool.userPoolClientId,
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      APP_URL: opts.appOrigin,
      DYNAMODB_ENDPOINT: dynamo.url,
      S3_ENDPOINT: s3.url,
      SES_ENDPOINT: ses.url,
      COGNITO_ENDPOINT: cognito.url,
      // the identity check compares faces with the local face-api engine, not Rekognition
      FACE_MATCHER: 'local',
      // Stripe's webhook signing secret: a fixed local value (tests sign their payloads with
      // it); no secret key unless the shell sets STRIPE_SECRET_KEY: card payments are off
      STRIPE_WEBHOOK_SECRET: process.env.STRIPE_WEBHOOK_SECRET ?? LOCAL_STRIPE_WEBHOOK_SECRET,
      // what CloudFront adds to each API request (functions/lib/origin.ts): a new one at each start
      ORIGIN_SECRET: newOriginSecret(),
      // the per-IP rate limit's hash key: one per data folder, as one per deployment on AWS
      IP_HASH_SALT: await ensureIpHashSalt(root),
      // the demo parties of the option and delegation PDFs (a deploy must set real ones)
      ...partiesEnvironment({ grantee: DEMO_GRANTEE, delegatee: DEMO_DELEGATEE }),
      // the demo admin works without an authenticator app (docs/architecture.md, section 4)
      MFA_EXEMPT_EMAILS: DEMO_ACCOUNTS.filter((a) => a.role === 'admin').map((a) => a.email).join(','),
    };
    Object.assign(process.env, env);
    resetConfig();
    resetAws();

    const accounts = opts.seed === false ? [] : await seedDemoAccounts(cognito.url, pool.userPoolId);

    if (bundlesBuilt) {
      const bundles = await bundlesBuilt;
      useHandlerBundles(bundles.fileOf);
      log(`${bundles.count} bundle Lambda ${bundles.reused ? 'già costruiti, verificati' : 'costruiti'} in ${(bundles.ms / 1000).toFixed(1)} s`);
    }
    const gateway = await startGateway({
      port: ports.api,
      issuer,
      audience: pool.userPoolClientId,
      corsOrigins: [opts.appOrigin],
      log,
      onConfirmSignUp: (userPoolId, username, email) => markEmailVerified(cognito.url, userPoolId, username, email),
    });
    running.push({ name: 'API', url: gateway.url, stop: gateway.stop });

    const timers: NodeJS.Timeout[] = [];
    for (const t of triggers as readonly TriggerDef[]) {
      if (t.source !== 'schedule' || !t.schedule || t.localSchedule === false) continue;
      const every = rateToMs(t.schedule);
      if (every) timers.push(setInterval(() => void invokeAsync(t.id, { source: 'aws.events', 'detail-type': 'Scheduled Event', time: new Date().toISOString() }, log, retries), every));
    }
    running.push({
      name: 'schedules',
      url: '',
      stop: async () => {
        timers.forEach(clearInterval);
        retries.forEach(clearTimeout);
      },
    });

    const runtimeConfig: RuntimeConfig = {
      apiUrl: '/api',
      region: LOCAL_REGION,
      userPoolId: pool.userPoolId,
      userPoolClientId: pool.userPoolClientId,
      cognitoEndpoint: cognito.url,
      company: DEMO_COMPANY,
      privacyUrl: '/privacy',
      voiceWidget: null,
      // DEMO bank account (not real); the card only with a Stripe key in the shell
      payments: { card: Boolean(process.env.STRIPE_SECRET_KEY), bankTransfer: DEMO_BANK_TRANSFER },
      mailViewerUrl: ses.url,
    };

    return {
      ports,
      urls: { api: gateway.url, dynamodb: dynamo.url, s3: s3.url, ses: ses.url, cognito: cognito.url, issuer },
      pool,
      accounts,
      env,
      runtimeConfig,
      services: { dynamodb: dynamo, s3, ses, cognito },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
