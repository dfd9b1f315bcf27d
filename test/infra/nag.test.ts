import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack, Stage, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManifestFunction } from '../../infra/constructs/manifest-function';
import { addNagChecks, findingAcknowledgementsOf } from '../../infra/constructs/nag';
import { buildApp, FAKE_MANIFEST, type BuildOptions } from './helpers';

interface ValidationReport {
  pluginReports: { pluginName: string; violations: { ruleName: string; severity: string; violatingConstructs: { constructPath: string }[] }[] }[];
}

/**
 * cdk-nag 3 runs as a CDK validation plugin: findings land in the cloud assembly's
 * validation-report.json (errors also make synth throw), not in annotations. Annotations
 * (CDK's own warnings, and cdk-nag 2 style findings) are read from the same assembly:
 * `Annotations.fromStack` would synthesize the whole app again for every call.
 */
function synthReport(app: App) {
  const assembly = app.synth();
  const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8')) as ValidationReport;
  const messagesOf = (stack: Stack) =>
    assembly
      .getStackArtifact(stack.artifactId)
      .messages.filter((m) => m.level === 'error' || m.level === 'warning')
      .map((m) => `${m.level} ${m.id}: ${String(m.entry.data)}`);
  return { report, messagesOf };
}

describe.each([
  ['the real manifest', { cloudFormationValidation: true }],
  ['a manifest with every kind of entry', { manifest: FAKE_MANIFEST }],
] as const)('AWS Solutions checks with %s', (_name, options: BuildOptions) => {
  const built = buildApp(options);
  addNagChecks(built.app);
  let synth: ReturnType<typeof synthReport>;
  beforeAll(() => {
    synth = synthReport(built.app);
  });
  afterAll(() => built.dispose());
  const stacks = [built.data, built.auth, built.api, built.edge, built.web];

  it.each(stacks.map((s) => [s.stackName, s] as const))('%s has no unacknowledged finding or warning', (_stackName, stack) => {
    const findings = synth.report.pluginReports.flatMap((r) =>
      r.violations
        .filter((v) => v.violatingConstructs.some((c) => c.constructPath.startsWith(`${stack.stackName}/`)))
        .map((v) => `${r.pluginName} ${v.severity} ${v.ruleName}`),
    );
    expect(findings).toEqual([]);
    expect(synth.messagesOf(stack)).toEqual([]);
  });

  it('acknowledges nothing without a written reason, on a whole stack, or a whole IAM rule', () => {
    const acknowledgements = built.app.node
      .findAll()
      .flatMap((c) =>
        c.node.metadata
          .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((m) => Object.entries(m.data as Record<string, string>).map(([id, reason]) => ({ at: c, id, reason }))),
      );
    expect(acknowledgements.length).toBeGreaterThan(0);
    const wrong = acknowledgements
      .filter(
        ({ at, id, reason }) =>
          typeof reason !== 'string' ||
          reason.trim().length < 30 ||
          Stack.isStack(at) ||
          Stage.isStage(at) ||
          at.node.scope === undefined ||
          // IAM4/IAM5 findings one by one (infra/constructs/nag.ts acknowledgeFindings), never the whole rule
          /^AwsSolutions-IAM[45]$/.test(id),
      )
      .map(({ at, id, reason }) => `${at.node.path} ${id}: ${reason}`);
    expect(wrong).toEqual([]);
  });

  it('acknowledges findings only through anchored patterns, each matching at least one finding', () => {
    const uses = findingAcknowledgementsOf(built.app);
    expect(uses.length).toBeGreaterThan(0);
    const wrong = uses
      .filter(({ ack, matched }) => matched === 0 || !ack.findings.source.startsWith('^') || !ack.findings.source.endsWith('$') || ack.findings.test('Resource::anything/at/all'))
      .map(({ path, ack, matched }) => `${path} ${ack.id} ${String(ack.findings)} matched ${matched}`);
    expect(wrong).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('still fail on a wildcard no acknowledgement expects, and on an unlogged bucket', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'infra-test-'));
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
    const stack = new Stack(app, 'Probe');
    const table = new dynamodb.Table(stack, 'Table', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
    const bucket = new s3.Bucket(stack, 'MediaBucket', { enforceSSL: true });
    const { fn } = new ManifestFunction(stack, 'Probe', {
      def: { id: 'probe', handler: 'system/health', iam: { table: ['GetItem'], indexes: ['Query'], media: ['GetObject', 'ListBucket'] } },
      resources: { table, mediaBucket: bucket, omiBucket: bucket, mailFrom: 'a@example.test', environment: {} },
    });
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:GetItem'], resources: ['*'] }));
    addNagChecks(app);

    let message = '';
    try {
      app.synth();
    } catch (err) {
      message = (err as Error).message;
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
    expect(message).toContain("AwsSolutions-IAM5[Resource::*]");
    expect(message).toContain('AwsSolutions-S1');
    // the declared objects wildcard and the managed log policy stay acknowledged; no other wildcard is made
    expect(message).not.toMatch(/IAM5\[Resource::[^\]]*MediaBucket[^\]]*\/\*\]/);
    expect(message).not.toMatch(/IAM5\[(Resource::[^\]]*\/index\/\*|Action::[^\]]*\*)\]/);
    expect(message).not.toContain('IAM4');
    expect(message).not.toContain('AwsSolutions-L1');
  });
});
