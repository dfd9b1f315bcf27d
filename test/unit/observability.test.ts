/**
 * The metrics of functions/lib/observability.ts as CloudWatch reads them: the EMF lines a
 * function writes on Lambda (its runtime's environment stubbed), one per invocation through
 * route() and trigger(), and nothing at all off Lambda.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ORIGIN_HEADER } from '../../functions/lib/origin';

const SECRET = 'unit-test-origin-secret-0123456789abcdef';
const event = (headers: Record<string, string> = { [ORIGIN_HEADER]: SECRET }) =>
  ({ requestContext: { http: { sourceIp: '1.2.3.4' } }, headers }) as unknown as APIGatewayProxyEventV2;

interface Emf {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

/** Fresh modules under `env` (observability reads it once, at import), and the EMF lines they write to stdout. */
async function onLambda(env: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [k, v] of Object.entries({ ORIGIN_SECRET: SECRET, TABLE_NAME: 'unit-tests', ORIGIN_SECRET_ARN: undefined, ...env })) vi.stubEnv(k, v);
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = String(chunk);
    if (text.includes('"_aws"')) {
      lines.push(...text.trim().split('\n'));
      return true;
    }
    return write(chunk, ...(rest as []));
  });
  const http = await import('../../functions/lib/http');
  const obs = await import('../../functions/lib/observability');
  const errors = await import('../../functions/lib/errors');
  const emf = () => lines.splice(0).map((l) => JSON.parse(l) as Emf);
  return { ...http, ...obs, ...errors, emf };
}

const LAMBDA = { AWS_LAMBDA_FUNCTION_NAME: 'OpzioneCasaApi-HealthRoute', AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' };
const metricNames = (e: Emf) => e._aws.CloudWatchMetrics[0]!.Metrics.map((m) => m.Name).sort();

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('route() on Lambda', () => {
  it('writes the cold start once, then one outcome per invocation with the route id', async () => {
    const { route, NotFoundError, emf } = await onLambda(LAMBDA);
    let fail: Error | undefined;
    const h = route('health', {}, async () => {
      if (fail) throw fail;
      return { ok: true };
    });

    expect((await h(event())).statusCode).toBe(200);
    const [cold, first] = emf();
    expect(cold).toMatchObject({ function_name: 'health', service: 'opzione-casa', ColdStart: 1 });
    expect(cold!._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'OpzioneCasa', Dimensions: [['service', 'function_name']] });
    expect(first).toMatchObject({ useCase: 'health', service: 'opzione-casa', Success: 1 });
    expect(first!._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'OpzioneCasa', Dimensions: [['service', 'useCase']] });
    expect(metricNames(first!)).toEqual(['Success']);

    // no cold start again; a refused request is a client error, a typed 404 too, anything else a server error
    expect((await h(event({}))).statusCode).toBe(403);
    fail = new NotFoundError('Immobile non trovato');
    expect((await h(event())).statusCode).toBe(404);
    fail = new Error('boom');
    expect((await h(event())).statusCode).toBe(500);
    const rest = emf();
    expect(rest.map(metricNames)).toEqual([['ClientError'], ['ClientError'], ['ServerError']]);
    expect(rest.every((e) => e.useCase === 'health')).toBe(true);
  });

  it("adds what the use case counted to its invocation's line", async () => {
    const { route, count, emf } = await onLambda(LAMBDA);
    const h = route('health', {}, async () => {
      count('MailSent');
      count('MailSent');
      count('MailFailed');
      return undefined;
    });
    expect((await h(event())).statusCode).toBe(204);
    const line = emf().find((e) => 'Success' in e)!;
    expect(metricNames(line)).toEqual(['MailFailed', 'MailSent', 'Success']);
    expect(line).toMatchObject({ MailSent: [1, 1], MailFailed: 1, useCase: 'health' });
  });
});

describe('trigger() on Lambda', () => {
  it('returns or throws what the function does, counting success or server error', async () => {
    const { trigger, count, emf } = await onLambda(LAMBDA);
    const ok = trigger('omiImport', async (event: { rows: number }) => {
      count('OmiRowsImported', event.rows);
      return event.rows;
    });
    await expect(ok({ rows: 1200 })).resolves.toBe(1200);
    const failing = trigger('retryOutbox', async () => {
      throw new Error('SES down');
    });
    await expect(failing()).rejects.toThrow('SES down');
    const lines = emf().filter((e) => !('ColdStart' in e));
    expect(lines[0]).toMatchObject({ useCase: 'omiImport', OmiRowsImported: 1200, Success: 1 });
    expect(lines[1]).toMatchObject({ useCase: 'retryOutbox', ServerError: 1 });
    expect(metricNames(lines[1]!)).toEqual(['ServerError']);
  });
});

describe('off Lambda', () => {
  it('writes nothing: the local runtime, tests and benches (no AWS_LAMBDA_FUNCTION_NAME)', async () => {
    const { route, trigger, count, emf, metricsEnabled } = await onLambda({ AWS_LAMBDA_FUNCTION_NAME: undefined, AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' });
    expect(metricsEnabled()).toBe(false);
    const h = route('health', {}, async () => {
      count('MailSent');
      return {};
    });
    expect((await h(event())).statusCode).toBe(200);
    await expect(trigger('retryOutbox', async () => 1)()).resolves.toBe(1);
    expect(emf()).toEqual([]);
  });

  it('follows POWERTOOLS_METRICS_DISABLED either way, and POWERTOOLS_DEV', async () => {
    const { metricsEnabled } = await onLambda({});
    expect(metricsEnabled({ AWS_LAMBDA_FUNCTION_NAME: 'f' })).toBe(true);
    expect(metricsEnabled({ AWS_LAMBDA_FUNCTION_NAME: 'f', POWERTOOLS_METRICS_DISABLED: 'true' })).toBe(false);
    expect(metricsEnabled({ AWS_LAMBDA_FUNCTION_NAME: 'f', POWERTOOLS_DEV: 'true' })).toBe(false);
    expect(metricsEnabled({ POWERTOOLS_METRICS_DISABLED: 'false' })).toBe(true);
    expect(metricsEnabled({})).toBe(false);
  });

  it('traces only in a Lambda execution environment, as Powertools decides (test/integration/tracing.test.ts traces a bundle)', async () => {
    const { tracingWanted } = await onLambda({});
    expect(tracingWanted({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' })).toBe(true);
    expect(tracingWanted({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', POWERTOOLS_TRACE_ENABLED: 'false' })).toBe(false);
    expect(tracingWanted({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', AWS_SAM_LOCAL: 'true' })).toBe(false);
    expect(tracingWanted({ AWS_LAMBDA_FUNCTION_NAME: 'f' })).toBe(false);
    expect(tracingWanted({})).toBe(false);
  });
});
