/**
 * Observability in the templates: every manifest function traced by X-Ray (active tracing,
 * with the modules layer the tracer comes from: test/integration/tracing.test.ts runs it),
 * and the API stack's one CloudWatch dashboard reading the metrics the functions write
 * (functions/lib/observability.ts, whose EMF lines test/unit/observability.test.ts checks):
 * same namespace, same dimension sets, same metric names, and every alarm's state.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, triggers } from '../../functions/routes';
import { METRICS_NAMESPACE, OUTCOME_METRICS, USE_CASE_DIMENSION } from '../../functions/lib/observability';
import { cdkBundling, LAYER_PACKAGES } from '../../infra/lambda-bundle';
import { installedVersion } from '../../infra/lambda-bundle/modules-layer';
import { buildApp, functionIdOf } from './helpers';

interface Widget {
  type: string;
  properties: { title?: string; metrics?: unknown[][]; alarms?: string[] };
}

let built: ReturnType<typeof buildApp>;
let api: Template;
let auth: Template;
let widgets: Widget[];
let alarmCount: number;

/** The dashboard body (a Fn::Join of text and references) as JSON, each reference a placeholder string. */
function dashboardBody(template: Template): { widgets: Widget[] } {
  const dashboards = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
  expect(dashboards).toHaveLength(1);
  const body = (dashboards[0]!.Properties as { DashboardBody: unknown }).DashboardBody as { 'Fn::Join': [string, unknown[]] };
  const text = body['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'REF')).join('');
  return JSON.parse(text) as { widgets: Widget[] };
}

/** The expressions of a widget's metrics (`[{ expression, ... }]` entries). */
const expressions = (w: Widget) => (w.properties.metrics ?? []).map((m) => (m[0] as { expression?: string }).expression).filter(Boolean);
const byTitle = (title: string) => {
  const w = widgets.find((x) => x.properties.title === title);
  if (!w) throw new Error(`No widget "${title}" in ${widgets.map((x) => x.properties.title).join(', ')}`);
  return w;
};

beforeAll(() => {
  built = buildApp();
  api = Template.fromStack(built.api);
  auth = Template.fromStack(built.auth);
  widgets = dashboardBody(api).widgets;
  alarmCount = Object.keys(api.findResources('AWS::CloudWatch::Alarm')).length;
});
afterAll(() => built.dispose());

describe('tracing', () => {
  it('traces every manifest function with X-Ray (active), Cognito triggers included', () => {
    for (const def of [...routes, ...triggers]) {
      const template = def.id in built.auth.triggerFunctions ? auth : api;
      const fn = template.toJSON().Resources[functionIdOf(template, def)] as { Properties: { TracingConfig?: unknown } };
      expect(fn.Properties.TracingConfig, def.id).toEqual({ Mode: 'Active' });
    }
  });

  it("gives every manifest function the stack's modules layer (Powertools, pkijs), which the bundles leave out", () => {
    const version = installedVersion('@aws-lambda-powertools/tracer');
    expect(cdkBundling().externalModules).toEqual([...LAYER_PACKAGES]);
    expect(LAYER_PACKAGES).toEqual(expect.arrayContaining(['@aws-lambda-powertools/logger', '@aws-lambda-powertools/metrics', '@aws-lambda-powertools/tracer', 'pkijs', 'asn1js']));
    for (const template of [api, auth]) {
      const layers = Object.entries(template.findResources('AWS::Lambda::LayerVersion')).filter(([, r]) =>
        String((r.Properties as { Description?: string }).Description).startsWith('Modules of the functions: '),
      );
      expect(layers, 'one layer per stack').toHaveLength(1);
      expect(layers[0]![1].Properties).toMatchObject({
        Description: expect.stringContaining(`@aws-lambda-powertools/tracer@${version}`),
        CompatibleArchitectures: ['arm64'],
        CompatibleRuntimes: ['nodejs22.x'],
      });
      const ref = { Ref: layers[0]![0] };
      for (const def of [...routes, ...triggers]) {
        if ((template === auth) !== def.id in built.auth.triggerFunctions) continue;
        const fn = template.toJSON().Resources[functionIdOf(template, def)] as { Properties: { Layers?: unknown[] } };
        expect(fn.Properties.Layers, def.id).toContainEqual(ref);
      }
    }
  });
});

describe('the dashboard', () => {
  const search = (metric: string, dimension: string) => `SEARCH('{${METRICS_NAMESPACE},service,${dimension}} MetricName="${metric}"', 'Sum', 300)`;

  it('graphs the outcome of every use case: in total, and server and client errors by use case', () => {
    expect(METRICS_NAMESPACE).toBe('OpzioneCasa');
    expect(expressions(byTitle('Use cases: outcomes'))).toEqual(
      [OUTCOME_METRICS.success, OUTCOME_METRICS.clientError, OUTCOME_METRICS.serverError].map((m) => `SUM(${search(m, USE_CASE_DIMENSION)})`),
    );
    expect(expressions(byTitle('Server errors by use case'))).toEqual([search('ServerError', 'useCase')]);
    expect(expressions(byTitle('Client errors by use case'))).toEqual([search('ClientError', 'useCase')]);
    expect(expressions(byTitle('Invocations by use case'))).toEqual([search('Success', 'useCase')]);
  });

  it('graphs the cold starts by function, the mails of the outbox and the OMI rows', () => {
    // Powertools' ColdStart metric has the dimensions service and function_name
    expect(expressions(byTitle('Cold starts by function'))).toEqual([search('ColdStart', 'function_name')]);
    expect(expressions(byTitle('Outbox mails'))).toEqual(['MailSent', 'MailRetry', 'MailFailed'].map((m) => `SUM(${search(m, 'useCase')})`));
    expect(expressions(byTitle('OMI rows'))).toEqual(['OmiRowsImported', 'OmiRowsRejected'].map((m) => `SUM(${search(m, 'useCase')})`));
  });

  it("shows the API's latency and the state of every alarm of the stack", () => {
    expect(JSON.stringify(byTitle('API latency (ms)').properties.metrics)).toContain('"AWS/ApiGateway","Latency"');
    const alarms = widgets.find((w) => w.type === 'alarm');
    expect(alarmCount).toBeGreaterThan(0);
    expect(alarms?.properties.alarms).toHaveLength(alarmCount);
  });
});
