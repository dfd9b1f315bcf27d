/**
 * What ships: the largest function bundled by CDK itself (NodejsFunction, the local esbuild,
 * the options of infra/lambda-bundle as the stack passes them), not by the bench's own
 * build() call. The other infra tests skip bundling; this one lets it run for one function.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT as ROOT } from '../../infra/constructs/manifest-function';
import { cdkBundling } from '../../infra/lambda-bundle';
import { FEATURE_FLAGS } from '../../infra/stacks/deploy-config';
import { routes } from '../../functions/routes';

const outdir = mkdtempSync(join(tmpdir(), 'infra-bundle-'));
let bundle = '';

beforeAll(() => {
  const app = new App({ outdir, context: FEATURE_FLAGS });
  const stack = new Stack(app, 'Bundle');
  new NodejsFunction(stack, 'GenerateDelegations', {
    // the handler file as the manifest names it, so a move of the file moves the test with it
    entry: join(ROOT, 'functions', `${routes.find((r) => r.id === 'generateDelegations')!.handler}.ts`),
    runtime: lambda.Runtime.NODEJS_22_X,
    projectRoot: ROOT,
    depsLockFilePath: join(ROOT, 'package-lock.json'),
    bundling: cdkBundling(),
  });
  app.synth();
  const asset = readdirSync(outdir).find((d) => d.startsWith('asset.') && statSync(join(outdir, d, 'index.mjs'), { throwIfNoEntry: false }));
  bundle = join(outdir, asset!, 'index.mjs');
}, 120_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('generateDelegations as CDK bundles it', () => {
  it('is under 1 MB', () => {
    expect(statSync(bundle).size).toBeLessThanOrEqual(1024 * 1024);
  });

  it('carries the substitutes of infra/lambda-bundle, not the modules they replace', () => {
    const text = readFileSync(bundle, 'utf8');
    const timesMetrics = JSON.parse(readFileSync(join(ROOT, 'node_modules/@pdf-lib/standard-fonts/es/Times-Roman.compressed.json'), 'utf8')) as string;
    // booleans, not toContain: a failure would print the whole megabyte
    const has = (marker: string) => text.includes(marker);
    expect(has('is not in the Lambda bundle (infra/lambda-bundle/pdf-standard-fonts.ts)'), 'the two-font substitute').toBe(true);
    expect(has('PNG embedding is not in the Lambda bundle'), 'the PNG substitute').toBe(true);
    expect(has(timesMetrics.slice(0, 200)), "Times-Roman's metrics").toBe(false);
    expect(has('need dictionary'), "pako's messages").toBe(false);
    expect(has('defaultProvider::fromIni'), "the SDK's full credential chain").toBe(false);
  });
});
