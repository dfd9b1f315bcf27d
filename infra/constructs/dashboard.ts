import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE, OUTCOME_METRICS, USE_CASE_DIMENSION, type CountMetric } from '../../functions/lib/observability';

const PERIOD = Duration.minutes(5);
const SECONDS = PERIOD.toSeconds();

export interface DashboardProps {
  httpApi: apigw.IHttpApi;
  /** the alarms of the stack, their state on top of the dashboard */
  alarms: cloudwatch.IAlarm[];
}

/**
 * THE CloudWatch dashboard of the product: what the functions count
 * (functions/lib/observability.ts: outcomes per use case, cold starts, the outbox's mails,
 * the OMI rows) read with SEARCH expressions, so that a new route or trigger shows up without
 * touching it, the API's own answers and latency, and the alarms' state.
 */
export class Dashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);
    const stack = Stack.of(this);

    /** `metric` of every use case (or function), one line each, by the dimension's value */
    const search = (metric: string, dimension: string, label = '') =>
      new cloudwatch.MathExpression({
        expression: `SEARCH('{${METRICS_NAMESPACE},service,${dimension}} MetricName="${metric}"', 'Sum', ${SECONDS})`,
        usingMetrics: {},
        label,
        period: PERIOD,
      });
    /** the same, added up over every use case: one line */
    const total = (metric: string, label: string) =>
      new cloudwatch.MathExpression({
        expression: `SUM(SEARCH('{${METRICS_NAMESPACE},service,${USE_CASE_DIMENSION}} MetricName="${metric}"', 'Sum', ${SECONDS}))`,
        usingMetrics: {},
        label,
        period: PERIOD,
      });
    const counts = (names: readonly CountMetric[]) => names.map((name) => total(name, name));
    const graph = (title: string, left: cloudwatch.IMetric[], width = 12) =>
      new cloudwatch.GraphWidget({ title, left, width, height: 6, period: PERIOD, leftYAxis: { min: 0 } });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${stack.stackName}-operations`,
      defaultInterval: Duration.hours(24),
    });
    this.dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms, width: 24, height: 3 }),
    );
    this.dashboard.addWidgets(
      graph('Use cases: outcomes', [
        total(OUTCOME_METRICS.success, 'Success'),
        total(OUTCOME_METRICS.clientError, 'Client error (4xx)'),
        total(OUTCOME_METRICS.serverError, 'Server error (5xx, trigger failed)'),
      ]),
      graph('Server errors by use case', [search(OUTCOME_METRICS.serverError, USE_CASE_DIMENSION)]),
    );
    this.dashboard.addWidgets(
      graph('Client errors by use case', [search(OUTCOME_METRICS.clientError, USE_CASE_DIMENSION)]),
      graph('Invocations by use case', [search(OUTCOME_METRICS.success, USE_CASE_DIMENSION)]),
    );
    this.dashboard.addWidgets(
      graph('Cold starts by function', [search('ColdStart', 'function_name')]),
      graph('API latency (ms)', [
        props.httpApi.metricLatency({ statistic: 'p50', period: PERIOD, label: 'p50' }),
        props.httpApi.metricLatency({ statistic: 'p99', period: PERIOD, label: 'p99' }),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Outbox mails', counts(['MailSent', 'MailRetry', 'MailFailed'])),
      graph('OMI rows', counts(['OmiRowsImported', 'OmiRowsRejected'])),
    );
  }
}
