import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { Context } from 'aws-lambda';
import { AppError } from './errors';
import { logger, SERVICE_NAME } from './logger';
import type { triggers } from '../routes';

/**
 * What every function counts, with Powertools Metrics: CloudWatch's Embedded Metric Format,
 * one JSON line in the function's log per invocation that CloudWatch turns into metrics (no
 * API call, no IAM). `route()` (lib/http.ts) and `trigger()` wrap every invocation once:
 * - `ColdStart` (dimension `function_name`: the manifest id) on the first invocation of an
 *   execution environment;
 * - one outcome per invocation, `Success`, `ClientError` (a 4xx, or a typed error of
 *   lib/errors.ts) or `ServerError` (a 5xx, or anything a trigger throws), dimension
 *   `useCase`: the manifest id;
 * - what the use case counts with `count()` (the outbox's mails sent, retried and failed,
 *   the OMI rows imported and rejected), with the same `useCase` dimension.
 * The CloudWatch dashboard of the API stack (infra/constructs/dashboard.ts) graphs them.
 *
 * And what every function traces, with Powertools Tracer on Lambda's active tracing (X-Ray):
 * one subsegment `## <id>` per invocation, annotated `ColdStart`, `Service` and `useCase`,
 * marked as an error (4xx) or a fault (5xx, a throw); inside it a subsegment per AWS SDK call
 * (`traced()`, applied where each client is made) and per outgoing HTTP request.
 * Powertools comes from the stack's layer, not from the bundles (the tracer's X-Ray SDK alone
 * would add ~130 KB to every function: infra/lambda-bundle/modules-layer.ts).
 *
 * Only on Lambda: off it (the local runtime, tests, benches) nothing is written, so the local
 * console has no EMF lines and no trace is sent. POWERTOOLS_METRICS_DISABLED and
 * POWERTOOLS_TRACE_ENABLED, when set, decide either way.
 */

export const METRICS_NAMESPACE = 'OpzioneCasa';
/** the dimension naming the use case: the manifest id of the route or trigger */
export const USE_CASE_DIMENSION = 'useCase';

export type Outcome = 'success' | 'clientError' | 'serverError';
export const OUTCOME_METRICS: Readonly<Record<Outcome, string>> = { success: 'Success', clientError: 'ClientError', serverError: 'ServerError' };

/**
 * What a use case counts (Count unit): the outbox's mails (sent; an attempt failed, to be
 * retried; failed for good), the OMI import's rows (inserted or updated; rejected).
 */
export type CountMetric = 'MailSent' | 'MailRetry' | 'MailFailed' | 'OmiRowsImported' | 'OmiRowsRejected';

type TriggerId = (typeof triggers)[number]['id'];

const TRUE = new Set(['1', 'true', 'yes', 'on', 'y']);

/** Metrics are written on Lambda (whose runtime sets AWS_LAMBDA_FUNCTION_NAME) unless POWERTOOLS_METRICS_DISABLED says otherwise. */
export function metricsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const disabled = env.POWERTOOLS_METRICS_DISABLED?.trim().toLowerCase();
  if (disabled) return !TRUE.has(disabled);
  return Boolean(env.AWS_LAMBDA_FUNCTION_NAME) && !TRUE.has(env.POWERTOOLS_DEV?.trim().toLowerCase() ?? '');
}

const metrics = metricsEnabled() ? new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME, logger }) : undefined;

/**
 * Whether to trace, by Powertools' own rule: in a Lambda execution environment
 * (AWS_EXECUTION_ENV), not under SAM local, unless POWERTOOLS_TRACE_ENABLED says false.
 */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.POWERTOOLS_TRACE_ENABLED?.trim().toLowerCase() === 'false') return false;
  return Boolean(env.AWS_EXECUTION_ENV) && !env.AWS_SAM_LOCAL;
}

/**
 * The tracer, loaded only where it traces: the module and its X-Ray SDK take ~40-90 ms to
 * load (bench/lambda.ts), which the local runtime and every test process do not pay.
 */
const tracer: Tracer | undefined = tracingWanted()
  ? new (await import('@aws-lambda-powertools/tracer')).Tracer({ serviceName: SERVICE_NAME })
  : undefined;

/** An AWS SDK v3 client whose calls are traced (a subsegment each) when tracing is on; the client itself otherwise. */
export function traced<T>(client: T): T {
  return tracer?.isTracingEnabled() ? tracer.captureAWSv3Client(client) : client;
}

/** Adds `value` to a count of this invocation (written when the invocation ends). */
export function count(name: CountMetric, value = 1): void {
  metrics?.addMetric(name, MetricUnit.Count, value);
}

export function outcomeOfStatus(status: number): Outcome {
  return status >= 500 ? 'serverError' : status >= 400 ? 'clientError' : 'success';
}

export function outcomeOfError(err: unknown): Outcome {
  return err instanceof AppError ? outcomeOfStatus(err.status) : 'serverError';
}

/**
 * Runs one invocation of the use case `id`: the cold start, its outcome (`outcomeOf` its
 * result, or of what it threw, which is thrown again) and its counts, written at the end.
 */
export async function instrument<T>(id: string, run: () => Promise<T>, outcomeOf: (result: T) => Outcome): Promise<T> {
  // every log line names its use case: the HTTP routes share one log group (infra/constructs/manifest-function.ts)
  logger.appendKeys({ useCase: id });
  const span = startSpan(id);
  if (!metrics && !span) return run();
  metrics?.captureColdStartMetric(id);
  let outcome: Outcome = 'serverError';
  try {
    const result = await run();
    outcome = outcomeOf(result);
    return result;
  } catch (err) {
    outcome = outcomeOfError(err);
    span?.error(err);
    throw err;
  } finally {
    span?.end(outcome);
    if (metrics) {
      metrics.addDimension(USE_CASE_DIMENSION, id);
      metrics.addMetric(OUTCOME_METRICS[outcome], MetricUnit.Count, 1);
      metrics.publishStoredMetrics();
    }
  }
}

/**
 * The invocation's subsegment under Lambda's own segment, made the current one so that the
 * SDK calls and HTTP requests of the use case nest in it; none when tracing is off.
 */
function startSpan(id: string) {
  if (!tracer?.isTracingEnabled()) return undefined;
  const parent = tracer.getSegment();
  if (!parent) return undefined;
  const sub = parent.addNewSubsegment(`## ${id}`);
  tracer.setSegment(sub);
  tracer.annotateColdStart();
  tracer.addServiceNameAnnotation();
  tracer.putAnnotation(USE_CASE_DIMENSION, id);
  return {
    error: (err: unknown) => tracer.addErrorAsMetadata(err as Error),
    end: (outcome: Outcome) => {
      if (outcome === 'clientError') sub.addErrorFlag();
      if (outcome === 'serverError') sub.addFaultFlag();
      sub.close();
      tracer.setSegment(parent);
    },
  };
}

/**
 * THE wrapper of the manifest's triggers (Cognito, S3, schedules): `export const handler =
 * trigger('omiImport', async (event: S3Event) => ...)`. What the function returns or throws
 * is unchanged (a throw still makes Lambda retry); a throw counts as ServerError.
 */
export function trigger<F extends (event: never, context?: Context) => Promise<unknown>>(id: TriggerId, fn: F): F {
  const wrapped = (event: never, context?: Context) => instrument(id, () => fn(event, context), () => 'success');
  return wrapped as F;
}
