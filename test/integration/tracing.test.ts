import { execFile } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaBuildOptions } from '../../infra/lambda-bundle/index';
import { buildModulesLayer } from '../../infra/lambda-bundle/modules-layer';
import { ORIGIN_HEADER } from '../../functions/lib/origin';
import { stack } from '../support/helpers';

/**
 * Tracing as it runs on Lambda: the function's esbuild bundle as the CDK stack ships it
 * (Powertools left out) beside the modules layer the stack ships, run by plain Node
 * in a child process with the environment Lambda gives a traced invocation, against the
 * emulators; an X-Ray daemon of this test receives over UDP what the X-Ray SDK sends.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TRACE_ID = '1-6746a3f0-5f1e2c3d4b5a69788796a5b4';
const PARENT_ID = '53995c3f42cd8ad8';

interface XRayDocument {
  name: string;
  id: string;
  type?: string;
  trace_id?: string;
  parent_id?: string;
  namespace?: string;
  error?: boolean;
  fault?: boolean;
  annotations?: Record<string, unknown>;
  aws?: Record<string, unknown>;
  subsegments?: XRayDocument[];
}

let dir: string;
let bundle: string;
let daemon: Socket;
const received: XRayDocument[] = [];

beforeAll(async () => {
  const parent = path.join(ROOT, '.local', 'bundles');
  mkdirSync(parent, { recursive: true });
  dir = mkdtempSync(path.join(parent, 'tracing-'));
  bundle = path.join(dir, 'get-link-kind.mjs');
  await build({ ...lambdaBuildOptions(), entryPoints: [path.join(ROOT, 'functions/properties/get-link-kind.ts')], outfile: bundle, logLevel: 'error' });
  // the modules layer the stack ships, where the bundle's imports of it resolve (as /opt/nodejs on AWS)
  buildModulesLayer(dir);
  daemon = createSocket('udp4');
  daemon.on('message', (msg) => {
    // "{format header}\n{segment document}"
    const [, body] = msg.toString('utf8').split('\n');
    if (body) received.push(JSON.parse(body) as XRayDocument);
  });
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
}, 120_000);

afterAll(() => {
  daemon?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the bundle's handler once per event in one process (one execution environment): what it answered. */
async function invokeTraced(events: unknown[], env: Record<string, string> = {}): Promise<{ statusCode: number }[]> {
  const script = `
    const { handler } = await import(${JSON.stringify(new URL(`file://${bundle}`).href)});
    const out = [];
    for (const event of ${JSON.stringify(events)}) out.push(await handler(event, { awsRequestId: 'r-' + out.length }));
    process.stdout.write(JSON.stringify(out));
  `;
  const { port } = daemon.address();
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      ...stack().env,
      LOG_LEVEL: 'SILENT',
      POWERTOOLS_METRICS_DISABLED: 'true',
      // what Lambda sets for a traced invocation
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      LAMBDA_TASK_ROOT: dir,
      AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${port}`,
      _X_AMZN_TRACE_ID: `Root=${TRACE_ID};Parent=${PARENT_ID};Sampled=1`,
      ...env,
    },
  });
  return JSON.parse(stdout) as { statusCode: number }[];
}

function linkEvent(token: string) {
  return {
    version: '2.0',
    routeKey: 'GET /api/links/{token}',
    rawPath: `/api/links/${token}`,
    rawQueryString: '',
    // as CloudFront forwards it (functions/lib/origin.ts)
    headers: { host: 'localhost', [ORIGIN_HEADER]: stack().env.ORIGIN_SECRET! },
    pathParameters: { token },
    requestContext: { http: { method: 'GET', path: `/api/links/${token}`, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' }, requestId: 'req', routeKey: 'GET /api/links/{token}', stage: '$default' },
    isBase64Encoded: false,
  };
}

/** Every document under `doc`, itself included. */
const flatten = (doc: XRayDocument): XRayDocument[] => [doc, ...(doc.subsegments ?? []).flatMap(flatten)];

describe('tracing on Lambda (Powertools Tracer from the layer, the shipped bundle)', () => {
  it('sends one subsegment per invocation, annotated, with the SDK calls inside; marks a refused request as an error', async () => {
    const answers = await invokeTraced([linkEvent('a'.repeat(43)), linkEvent('b'.repeat(43)), linkEvent('x'.repeat(201))]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 400]);
    await expect.poll(() => received.filter((d) => d.name === '## getLinkKind').length).toBe(3);

    const all = received.flatMap(flatten);
    const invocations = all.filter((d) => d.name === '## getLinkKind');
    for (const inv of invocations) {
      // under Lambda's own segment of this trace
      expect(inv).toMatchObject({ type: 'subsegment', trace_id: TRACE_ID, parent_id: PARENT_ID });
      expect(inv.annotations).toMatchObject({ Service: 'opzione-casa', useCase: 'getLinkKind' });
    }
    expect(invocations.map((d) => d.annotations?.ColdStart)).toEqual([true, false, false]);
    expect(invocations.map((d) => Boolean(d.error))).toEqual([false, false, true]);
    expect(invocations.some((d) => d.fault)).toBe(false);

    // the DynamoDB reads of the two valid links, each inside its invocation's subsegment
    const reads = all.filter((d) => d.namespace === 'aws' && d.name === 'DynamoDB');
    expect(reads).toHaveLength(2);
    for (const read of reads) {
      expect(read.aws).toMatchObject({ operation: 'BatchGetItem' });
      expect(invocations.map((d) => d.id)).toContain(read.parent_id ?? invocations.find((d) => d.subsegments?.some((s) => s.id === read.id))?.id);
    }
  });

  it('marks a failed invocation as a fault, with the failed SDK call inside', async () => {
    received.length = 0;
    // a table nobody can reach: the read fails, the route answers 500
    const answers = await invokeTraced([linkEvent('c'.repeat(43))], { DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', AWS_MAX_ATTEMPTS: '1' });
    expect(answers.map((a) => a.statusCode)).toEqual([500]);
    await expect.poll(() => received.filter((d) => d.name === '## getLinkKind').length).toBe(1);
    const all = received.flatMap(flatten);
    const invocation = all.find((d) => d.name === '## getLinkKind')!;
    expect(invocation).toMatchObject({ fault: true, annotations: { ColdStart: true, useCase: 'getLinkKind' } });
    const read = all.find((d) => d.namespace === 'aws' && d.name === 'DynamoDB');
    expect(read?.aws).toMatchObject({ operation: 'BatchGetItem' });
    expect(Boolean(read?.fault || read?.error)).toBe(true);
  });
});
