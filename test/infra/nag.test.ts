import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack, Stage, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ManifestFunction } from '../../infra/constructs/manifest-function';
import { acknowledge, acknowledgeFindings, addNagChecks, findingAcknowledgementsOf } from '../../infra/constructs/nag';
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

/** Every acknowledgement recorded in the app (CDK keeps them as metadata of the construct they are on). */
function acknowledgementsOf(app: IConstruct) {
  return app.node
    .findAll()
    .flatMap((at) =>
      at.node.metadata
        .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        // ids are recorded as `Annotation::<rule id>`
        .flatMap((m) => Object.entries(m.data as Record<string, unknown>).map(([id, reason]) => ({ at, id: id.replace(/^\w+::/, ''), reason }))),
    );
}

/**
 * The repository's rules for acknowledgements: a written reason (a sentence, not a word), on
 * the resource or construct concerned and never on a stack, a stage or the app (that would
 * cover every resource of it), and IAM4/IAM5 only finding by finding (`Rule[finding]`).
 */
function acknowledgementProblems(app: IConstruct): string[] {
  return acknowledgementsOf(app)
    .filter(
      ({ at, id, reason }) =>
        typeof reason !== 'string' ||
        reason.trim().length < 30 ||
        Stack.isStack(at) ||
        Stage.isStage(at) ||
        at.node.scope === undefined ||
        /^AwsSolutions-IAM[45]$/.test(id),
    )
    .map(({ at, id, reason }) => `${at.node.path || '(app)'} ${id}: ${String(reason)}`);
}

/** Finding patterns (infra/constructs/nag.ts acknowledgeFindings) must be anchored, not match anything, and be used. */
function patternProblems(app: IConstruct): string[] {
  return findingAcknowledgementsOf(app)
    .filter(({ ack, matched }) => matched === 0 || !ack.findings.source.startsWith('^') || !ack.findings.source.endsWith('$') || ack.findings.test('Resource::anything/at/all'))
    .map(({ path, ack, matched }) => `${path} ${ack.id} ${String(ack.findings)} matched ${matched}`);
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
    expect(acknowledgementsOf(built.app).length).toBeGreaterThan(0);
    expect(acknowledgementProblems(built.app)).toEqual([]);
  });

  it('acknowledges findings only through anchored patterns, each matching at least one finding', () => {
    expect(findingAcknowledgementsOf(built.app).length).toBeGreaterThan(0);
    expect(patternProblems(built.app)).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('still fail on a wildcard no acknowledgement expects, and on an unlogged bucket', () => {
    const outdir = mkdtempSync(join(inject('infraOutdir'), 'probe-'));
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

  it('catch a blanket, unexplained, whole-rule or unused acknowledgement', () => {
    const outdir = mkdtempSync(join(inject('infraOutdir'), 'probe-'));
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
    const stack = new Stack(app, 'Probe');
    const bucket = new s3.Bucket(stack, 'Bucket', { enforceSSL: true });
    const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    role.addToPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects('*')] }));
    // a whole stack, a short reason, a whole IAM rule, a catch-all pattern, a pattern that matches nothing
    acknowledge(stack, { id: 'AwsSolutions-S1', reason: 'The probe bucket needs no access logs at all in this test' });
    acknowledge(bucket, { id: 'AwsSolutions-S10', reason: 'test' });
    acknowledge(role, { id: 'AwsSolutions-IAM5', reason: 'Every wildcard of this role, whatever it is, for this test' });
    acknowledgeFindings(role, { id: 'AwsSolutions-IAM5', findings: /.*/, reason: 'Every wildcard of this role, whatever it is, for this test' });
    acknowledgeFindings(bucket, { id: 'AwsSolutions-IAM5', findings: /^Resource::nothing$/, reason: 'A pattern for a finding this bucket never has' });
    addNagChecks(app);
    try {
      app.synth();
    } catch {
      // findings are not the point here
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
    const problems = acknowledgementProblems(app);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Probe AwsSolutions-S1: /),
        expect.stringMatching(/^Probe\/Bucket AwsSolutions-S10: test$/),
        expect.stringMatching(/^Probe\/Role AwsSolutions-IAM5: /),
      ]),
    );
    expect(patternProblems(app).sort()).toEqual([
      expect.stringMatching(/^Probe\/Bucket AwsSolutions-IAM5 .*Resource::nothing.* matched 0$/),
      expect.stringMatching(/^Probe\/Role AwsSolutions-IAM5 \/\.\*\/ matched 1$/),
    ]);
  });
});
