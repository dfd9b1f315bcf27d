/**
 * The AWS emulators of the local runtime (docs/architecture.md, runtime locale). Each start function
 * resolves when its service answers, and returns a stop function.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Server } from 'node:http';

const require = createRequire(import.meta.url);

export interface Running {
  name: string;
  url: string;
  stop: () => Promise<void>;
  /** the process id of a service run as a child process (DynamoDB Local) */
  pid?: number;
}

/** Fails with a message naming the port when something already listens on it. */
export async function assertPortFree(port: number, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new Error(
          err.code === 'EADDRINUSE'
            ? `La porta ${port} (${what}) è già in uso: chiudi il programma che la occupa o imposta un'altra porta.`
            : `Porta ${port} (${what}): ${err.message}`,
        ),
      );
    });
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve()));
  });
}

/** A free port chosen by the OS (tests). */
/** Ports this process has handed out: a port is chosen here, released, and listened on later. */
const handedOut = new Set<number>();

/**
 * A free TCP port on 127.0.0.1. The port is released before the caller listens on it, so
 * the system may offer it again to the next call (a stack asks for six in a row): a port
 * already handed out by this process is never returned twice.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() - start > timeoutMs) throw new Error(`${what} non risponde dopo ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

/** DynamoDB Local (the official jar shipped in amplify-dynamodb-simulator), run with java. */
export async function startDynamo(opts: { port: number; dataDir?: string }): Promise<Running> {
  const emulatorDir = path.join(path.dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  // -disableTelemetry: DynamoDB Local reports usage to AWS unless told not to; nothing of a
  // local run leaves the machine
  const args = ['-Xmx1g', '-Djava.library.path=./DynamoDBLocal_lib', '-jar', 'DynamoDBLocal.jar', '-port', String(opts.port), '-sharedDb', '-disableTelemetry'];
  if (opts.dataDir) {
    await mkdir(opts.dataDir, { recursive: true });
    args.push('-dbPath', opts.dataDir);
  } else {
    args.push('-inMemory');
    // the in-memory tables of a test run live a few minutes: the C1 compiler alone and the serial
    // collector spend less CPU than C2 and G1's threads save in that time (measured on the
    // integration suite: the JVMs' CPU 99 s -> 60 s, the stage 201 s -> 193 s)
    args.unshift('-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC');
  }
  const child: ChildProcess = spawn('java', args, { cwd: emulatorDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let exited = false;
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  child.once('error', (err) => {
    output += `\n${err.message}`;
    exited = true;
  });
  const url = `http://127.0.0.1:${opts.port}`;
  await waitFor(async () => {
    if (exited) throw Object.assign(new Error('exited'), { fatal: true });
    const res = await fetch(url, { method: 'POST' }).catch(() => undefined);
    return res !== undefined;
  }, 'DynamoDB Local').catch((err) => {
    throw new Error(`DynamoDB Local non si è avviato (serve Java 17+): ${exited ? output.slice(-500) : (err as Error).message}`);
  });
  return {
    name: 'DynamoDB Local',
    url,
    pid: child.pid,
    stop: async () => {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exitedPromise;
      clearTimeout(timer);
    },
  };
}

interface SubresourceStore {
  putSubresource: (bucket: string, key: string, resource: unknown) => Promise<void>;
  deleteSubresource: (bucket: string, key: string, type: string) => Promise<void>;
}

interface KoaCtx {
  /** s3rver's object store (app.context.store) */
  store: SubresourceStore;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  req: NodeJS.ReadableStream & { headers?: unknown };
  status: number;
  type: string;
  body: unknown;
  is: (type: string) => string | false | null;
}

function s3Error(ctx: KoaCtx, status: number, code: string, message: string) {
  ctx.status = status;
  ctx.type = 'application/xml';
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

/**
 * Browser POST uploads checked against their policy as S3 does (s3rver 3.7 ignores the
 * policy): expiry, exact and starts-with conditions, content-length-range. A refused form
 * stores nothing; an accepted one is handed on to s3rver unchanged. s3rver also ignores the
 * form's `tagging` field: once it has stored the object, its tag set is stored here as S3
 * does (none when the form has none: a new object starts without the old one's tags), so
 * GetObjectTagging and the drafts of the wizard behave as on AWS.
 */
function postPolicyMiddleware() {
  // s3rver's own multipart parser (a dependency of s3rver, resolved from it)
  const s3rverDir = path.dirname(require.resolve('s3rver/package.json'));
  const Busboy = require(require.resolve('busboy', { paths: [s3rverDir] })) as new (o: { headers: unknown }) => NodeJS.WritableStream & {
    on: (e: string, cb: (...a: never[]) => void) => void;
  };
  // s3rver's own model of an object's tag set (validates the XML like PutObjectTagging)
  const { TaggingConfiguration } = require(path.join(s3rverDir, 'lib', 'models', 'config.js')) as {
    TaggingConfiguration: { validate: (xml: string) => unknown };
  };
  return async (ctx: KoaCtx, next: () => Promise<void>) => {
    if (ctx.method !== 'POST' || !/^\/[^/]+\/?$/.test(ctx.path) || !ctx.is('multipart/form-data')) return next();
    const chunks: Buffer[] = [];
    for await (const c of ctx.req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const fields: Record<string, string> = {};
    let fileSize = 0;
    await new Promise<void>((resolve, reject) => {
      const bb = new Busboy({ headers: ctx.headers });
      bb.on('field', (name: string, value: string) => (fields[name] = value));
      bb.on('file', (_name: string, stream: NodeJS.ReadableStream) => {
        stream.on('data', (d: Buffer) => (fileSize += d.length));
      });
      bb.on('finish', () => resolve());
      bb.on('error', (e: Error) => reject(e));
      bb.end(raw);
    });
    const policyField = Object.entries(fields).find(([k]) => k.toLowerCase() === 'policy')?.[1];
    if (!policyField) return s3Error(ctx, 403, 'AccessDenied', 'Bucket POST must contain a field named policy');
    const { decodePolicy, evaluatePostPolicy } = await import('./s3-post-policy');
    const verdict = evaluatePostPolicy(decodePolicy(policyField), fields, fileSize);
    if (!verdict.ok) {
      if (verdict.reason.startsWith('EntityTooLarge')) return s3Error(ctx, 400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
      return s3Error(ctx, 403, 'AccessDenied', `Invalid according to Policy: ${verdict.reason}`);
    }
    // hand the buffered body on to s3rver's own POST handler
    const tagging = Object.entries(fields).find(([k]) => k.toLowerCase() === 'tagging')?.[1];
    let tags: unknown;
    try {
      tags = tagging ? TaggingConfiguration.validate(tagging) : undefined;
    } catch {
      return s3Error(ctx, 400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema');
    }
    const { PassThrough } = await import('node:stream');
    const replay = new PassThrough();
    replay.end(raw);
    ctx.req = Object.assign(replay, { headers: ctx.req.headers });
    await next();
    const bucket = /^\/([^/]+)\/?$/.exec(ctx.path)?.[1];
    const key = Object.entries(fields).find(([k]) => k.toLowerCase() === 'key')?.[1];
    if (!bucket || !key || ctx.status >= 400) return;
    if (tags) await ctx.store.putSubresource(bucket, key, tags);
    else await ctx.store.deleteSubresource(bucket, key, 'tagging');
  };
}

/** What storedWhole wraps of s3rver's filesystem store. */
export interface ObjectStore {
  getMetadata: (bucket: string, key: string) => Promise<Record<string, string>>;
  putObject: (object: { bucket: string; key: string }) => Promise<{ size: number; md5: string }>;
}

/** How long a written object may take to reach its size on disk before the write is answered all the same. */
const STORED_WAIT_MS = 30_000;

/**
 * Makes the store's putObject resolve once the object is stored whole: its size on disk is
 * the size written. s3rver 3.7's own resolves too early: on the 'finish' of the MD5 Transform
 * it pipes the body through (or at once for a Buffer body: `writeStream.end(content)` is not
 * awaited), not when the file's write stream has flushed. So its answer to a PUT or a POST
 * upload, and its ObjectCreated event, came while the object was still being written: a
 * large upload's event reached the import, which read a shorter file, and a HEAD right after
 * an upload could read 0 bytes (a submission then refused its photo as larger than 20 MB).
 * S3 answers and sends ObjectCreated only for a complete object; so does the local runtime.
 * After STORED_WAIT_MS the write is answered anyway (logged): a reader's own checks then fail.
 */
export function storedWhole(store: ObjectStore, waitMs = STORED_WAIT_MS): void {
  const put = store.putObject.bind(store);
  store.putObject = async (object) => {
    const written = await put(object);
    const deadline = Date.now() + waitMs;
    for (;;) {
      const stored = await store.getMetadata(object.bucket, object.key).then(
        (m) => Number(m['content-length']),
        () => -1,
      );
      if (stored === written.size) return written;
      if (Date.now() > deadline) {
        console.warn(`[s3] ${object.bucket}/${object.key}: ${stored} byte su disco invece di ${written.size} dopo ${waitMs} ms: scrittura confermata comunque`);
        return written;
      }
      await new Promise((res) => setTimeout(res, 5));
    }
  };
}

/** s3rver in this process, answering writes once they are stored whole (storedWhole). `onEvent` receives the standard S3 event records. */
export async function startS3(opts: {
  port: number;
  dir: string;
  buckets: { name: string; cors: string }[];
  onEvent?: (event: { Records: unknown[] }) => void;
}): Promise<Running & { server: unknown }> {
  const S3rver = require('s3rver') as new (o: Record<string, unknown>) => {
    middleware: unknown[];
    run: () => Promise<unknown>;
    close: () => Promise<void>;
    on: (e: string, cb: (ev: { Records: unknown[] }) => void) => void;
  };
  await mkdir(opts.dir, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: opts.port,
    silent: true,
    directory: opts.dir,
    vhostBuckets: false,
    configureBuckets: opts.buckets.map((b) => ({ name: b.name, configs: [Buffer.from(b.cors)] })),
  });
  storedWhole((server as unknown as { store: ObjectStore }).store);
  if (opts.onEvent) server.on('event', opts.onEvent);
  server.middleware.unshift(postPolicyMiddleware());
  await server.run();
  return { name: 'S3 (s3rver)', url: `http://127.0.0.1:${opts.port}`, server, stop: () => server.close() };
}

/** aws-ses-v2-local in this process: GET / is the mail viewer, GET /store the sent mail. */
export async function startSes(opts: { port: number }): Promise<Running> {
  type Start = (c: { host: string; port: number }) => Promise<Server>;
  const mod = (await import('aws-ses-v2-local')) as unknown as { default: Start | { default: Start } };
  // CommonJS default export: tsx and vitest unwrap it differently.
  const start = typeof mod.default === 'function' ? mod.default : mod.default.default;
  const server = await start({ host: '127.0.0.1', port: opts.port });
  return { name: 'SES (aws-ses-v2-local)', url: `http://127.0.0.1:${opts.port}`, stop: () => closeServer(server) };
}

/**
 * cognito-local in this process, with its data under `dir` (absolute paths, no chdir),
 * the Lambda triggers pointed at our local Lambda endpoint, and the pool's password
 * minimum enforced as Cognito does (the emulator ignores password policies).
 */
export async function startCognito(opts: {
  port: number;
  dir: string;
  lambdaEndpoint: string;
  triggerFunctions: Record<string, string>;
  minPasswordLength: number;
  /** the local SES: the codes Cognito would e-mail arrive in its mail viewer */
  sesEndpoint?: string;
  /** the sender of those e-mails (MAIL_FROM) */
  mailFrom?: string;
  /** a line per code sent (the `npm start` log) */
  log?: (line: string) => void;
  /** false: the pools live in memory (the test stacks, like DynamoDB's -inMemory); true: written to `dir` (npm start) */
  persist: boolean;
}): Promise<Running> {
  const base = path.dirname(require.resolve('cognito-local/package.json'));
  const lib = (p: string) => require(path.join(base, 'lib', p));
  const { StormDBDataStoreFactory } = lib('services/dataStore/stormDb.js');
  const services = lib('services/index.js');
  const { CognitoServiceFactoryImpl } = lib('services/cognitoService.js');
  const { UserPoolServiceFactoryImpl } = lib('services/userPoolService.js');
  const { CryptoService } = lib('services/crypto.js');
  const { MessageDeliveryService } = lib('services/messageDelivery/messageDelivery.js');
  const { otp } = lib('services/otp.js');
  const { JwtTokenGenerator } = lib('services/tokenGenerator.js');
  const { Router } = lib('server/Router.js');
  const { createServer } = lib('server/server.js');
  const { CognitoError } = lib('errors.js');
  process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
  const AWS = require(require.resolve('aws-sdk', { paths: [base] }));
  const pino = require(require.resolve('pino', { paths: [base] }));

  const dataDir = path.join(opts.dir, 'db');
  await mkdir(dataDir, { recursive: true });
  const logger = pino({ level: 'silent' });
  const ctx = { logger };
  const issuer = `http://127.0.0.1:${opts.port}`;
  const config = {
    LambdaClient: {
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      region: 'local',
      endpoint: opts.lambdaEndpoint,
    },
    TriggerFunctions: opts.triggerFunctions,
    UserPoolDefaults: { UsernameAttributes: ['email'] },
    TokenConfig: { IssuerDomain: issuer },
    KMSConfig: { credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, region: 'local' },
    ServerConfig: { port: opts.port, hostname: '127.0.0.1', development: false, https: false },
  };
  const clock = new services.DateClock();
  const dataStoreFactory = new StormDBDataStoreFactory(dataDir);
  const flushes = keepStoreWrites(dataStoreFactory, opts.persist);
  const cognitoClient = await new CognitoServiceFactoryImpl(
    dataDir,
    dataStoreFactory,
    new UserPoolServiceFactoryImpl(clock, dataStoreFactory),
  ).create(ctx, config.UserPoolDefaults);
  const triggers = new services.TriggersService(
    clock,
    cognitoClient,
    new services.LambdaService(config.TriggerFunctions, new AWS.Lambda(config.LambdaClient)),
    new CryptoService(config.KMSConfig),
  );
  const svc = {
    clock,
    cognito: cognitoClient,
    config,
    messages: new services.MessagesService(
      triggers,
      new MessageDeliveryService(codeMailSender({ sesEndpoint: opts.sesEndpoint, mailFrom: opts.mailFrom, log: opts.log })),
    ),
    otp,
    tokenGenerator: new JwtTokenGenerator(clock, triggers, config.TokenConfig),
    triggers,
  };
  class PasswordPolicyError extends CognitoError {
    constructor() {
      super('InvalidPasswordException', `Password did not conform with policy: Password not long enough (minimum ${opts.minPasswordLength})`);
    }
  }
  const passwordFields: Record<string, string> = {
    SignUp: 'Password',
    AdminSetUserPassword: 'Password',
    ConfirmForgotPassword: 'Password',
    ChangePassword: 'ProposedPassword',
    RespondToAuthChallenge: '',
  };
  const inner = Router(svc);
  const router = (target: string) => {
    if (target === 'ResendConfirmationCode') return resendConfirmationCode(svc, lib('errors.js'));
    const fn = inner(target);
    const field = passwordFields[target];
    if (!field) return fn;
    return async (c: unknown, req: Record<string, unknown>) => {
      const pw = req[field];
      if (typeof pw === 'string' && pw.length < opts.minPasswordLength) throw new PasswordPolicyError();
      return fn(c, req);
    };
  };
  const server = createServer(router, logger, config.ServerConfig, svc);
  const http = (await server.start()) as Server;
  return {
    name: 'Cognito (cognito-local)',
    url: issuer,
    stop: async () => {
      await closeServer(http);
      await Promise.all(flushes.map((flush) => flush()));
    },
  };
}

/** The part of cognito-local's data store (a StormDB database per pool, and one for app clients) that saves. */
interface StoreFactory {
  create(ctx: unknown, id: string, defaults: unknown): Promise<{ db: { save: () => Promise<void> } }>;
}

/**
 * cognito-local saves a pool by writing its whole JSON file (every user, every refresh token,
 * through a replacer function) after each change: a sign-up, a confirmation, a group, every
 * sign-in. The file grows with the users, so the suite's hundreds of accounts made each write
 * longer, and two writes of one file could run at once. In memory (`persist` false) a store
 * writes its file once, when created, and keeps its data in memory from then on; on disk one
 * write runs at a time, and the changes made while it runs are written together right after it
 * (a save resolves once a write that began after it has ended). Returns each store's flush, for stop.
 */
function keepStoreWrites(factory: StoreFactory, persist: boolean): (() => Promise<void>)[] {
  const flushes: (() => Promise<void>)[] = [];
  const create = factory.create.bind(factory);
  factory.create = async (ctx, id, defaults) => {
    const store = await create(ctx, id, defaults);
    const write = store.db.save.bind(store.db);
    let current: Promise<void> = Promise.resolve();
    let queued: Promise<void> | undefined;
    store.db.save = persist
      ? () =>
          (queued ??= current
            .catch(() => undefined)
            .then(() => {
              queued = undefined;
              current = write();
              return current;
            }))
      : () => Promise.resolve();
    flushes.push(() => (queued ?? current).catch(() => undefined));
    return store;
  };
  return flushes;
}

/** What cognito-local hands its message sender (the code is in `__code`). */
interface CognitoMessage {
  __code?: string;
  emailSubject?: string;
  emailMessage?: string;
}

/**
 * cognito-local's message sender, as Cognito's own e-mail would be: the code goes to the
 * local SES (SESv2 SendEmail, so it shows in the mail viewer) and to the log. The text is
 * the one the user pool sends on AWS (infra/stacks/auth-stack.ts).
 */
function codeMailSender(opts: { sesEndpoint?: string; mailFrom?: string; log?: (line: string) => void }) {
  const send = async (to: string, message: CognitoMessage) => {
    const code = message.__code ?? '';
    opts.log?.(`Codice di conferma per ${to}: ${code}`);
    if (!opts.sesEndpoint) return;
    const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
    const { confirmationCodeMail } = await import('../../functions/domain/auth-mail');
    const mail = confirmationCodeMail(code);
    const client = new SESv2Client({
      endpoint: opts.sesEndpoint,
      region: 'eu-south-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: opts.mailFrom ?? 'noreply@opzionecasa.it',
          Destination: { ToAddresses: [to] },
          Content: {
            Simple: {
              Subject: { Data: mail.subject, Charset: 'UTF-8' },
              Body: { Html: { Data: mail.html, Charset: 'UTF-8' }, Text: { Data: mail.text, Charset: 'UTF-8' } },
            },
          },
        }),
      );
    } finally {
      client.destroy();
    }
  };
  return {
    // cognito-local hands the destination (the address) as a string
    sendEmail: (_ctx: unknown, _user: unknown, destination: string, message: CognitoMessage) => send(destination, message),
    // the pool sends no SMS (MFA is TOTP only): the code is only logged
    sendSms: async (_ctx: unknown, _user: unknown, destination: string, message: CognitoMessage) =>
      opts.log?.(`Codice per ${destination}: ${message.__code ?? ''}`),
  };
}

/**
 * ResendConfirmationCode, which cognito-local 5 lacks: a new code for an unconfirmed user,
 * delivered like the first one (Cognito answers a confirmed user with InvalidParameterException).
 */
function resendConfirmationCode(
  svc: {
    cognito: { getUserPoolForClientId: (ctx: unknown, id: string) => Promise<CognitoPool> };
    messages: { deliver: (...args: unknown[]) => Promise<void> };
    otp: () => string;
  },
  errors: Record<string, new (...a: string[]) => Error>,
) {
  return async (ctx: unknown, req: { ClientId: string; Username: string; ClientMetadata?: unknown }) => {
    const pool = await svc.cognito.getUserPoolForClientId(ctx, req.ClientId);
    const user = await pool.getUserByUsername(ctx, req.Username);
    if (!user) throw new errors.UserNotFoundError!();
    if (user.UserStatus !== 'UNCONFIRMED') throw new errors.InvalidParameterError!('User is already confirmed.');
    const email = user.Attributes.find((a) => a.Name === 'email')?.Value;
    if (!email) throw new errors.InvalidParameterError!('User has no email');
    const code = svc.otp();
    const details = { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: email };
    await svc.messages.deliver(ctx, 'ResendCode', req.ClientId, pool.options.Id, user, code, req.ClientMetadata, details);
    await pool.saveUser(ctx, { ...user, ConfirmationCode: code });
    return { CodeDeliveryDetails: details };
  };
}

interface CognitoPool {
  options: { Id: string };
  getUserByUsername: (ctx: unknown, username: string) => Promise<
    { Username: string; UserStatus: string; Attributes: { Name: string; Value?: string }[] } & Record<string, unknown> | null
  >;
  saveUser: (ctx: unknown, user: Record<string, unknown>) => Promise<void>;
}
