import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManifestFunction } from '../../infra/constructs/manifest-function';
import { addNagChecks } from '../../infra/constructs/nag';
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
});

describe('the checks themselves', () => {
  it('still fail on a wildcard no acknowledgement expects, and on an unlogged bucket', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'infra-test-'));
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
    const stack = new Stack(app, 'Probe');
    const table = new dynamodb.Table(stack, 'Table', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
    const bucket = new s3.Bucket(stack, 'Bucket', { enforceSSL: true });
    const { fn } = new ManifestFunction(stack, 'Probe', {
      def: { id: 'probe', handler: 'system/health', grants: ['table:read', 'media:read'] },
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
    // the expected grant wildcards and the managed log policy stay acknowledged
    expect(message).not.toMatch(/IAM5\[Resource::[^\]]*\/index\/\*\]/);
    expect(message).not.toMatch(/IAM5\[Action::s3:GetObject\*\]/);
    expect(message).not.toContain('IAM4');
    expect(message).not.toContain('AwsSolutions-L1');
  });
});
