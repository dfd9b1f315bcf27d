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
import { powertoolsLayer, REPO_ROOT as ROOT } from '../../infra/constructs/manifest-function';
import { cdkBundling, powertoolsVersion } from '../../infra/lambda-bundle';
import { FEATURE_FLAGS } from '../../infra/stacks/deploy-config';
import { routes, triggers } from '../../functions/routes';
import { buildLambdaBundles, type LambdaBundles } from '../../infra/local/bundles';

const outdir = mkdtempSync(join(tmpdir(), 'infra-bundle-'));
let bundle = '';
let layer = '';
let all: LambdaBundles | undefined;

const MB = 1024 * 1024;
/**
 * Functions over the 1 MB bar, with why and the most they may weigh until they get under it:
 * the two that verify a digital signature carry pkijs with asn1js and its helpers (~410 KB,
 * docs/quality.md "Lambda oltre 1 MB").
 */
const OVER_THE_BAR: Record<string, number> = {
  confirmOptionSigned: 1.15 * MB,
  confirmDelegationSigned: 1.08 * MB,
};

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
  powertoolsLayer(stack);
  app.synth();
  const asset = readdirSync(outdir).find((d) => d.startsWith('asset.') && statSync(join(outdir, d, 'index.mjs'), { throwIfNoEntry: false }));
  bundle = join(outdir, asset!, 'index.mjs');
  const layerAsset = readdirSync(outdir).find((d) => d.startsWith('asset.') && statSync(join(outdir, d, 'nodejs'), { throwIfNoEntry: false }));
  layer = join(outdir, layerAsset!, 'nodejs', 'node_modules', '@aws-lambda-powertools');
}, 120_000);
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  all?.remove();
});

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

  it('imports Powertools (from the layer) instead of carrying it', () => {
    const text = readFileSync(bundle, 'utf8');
    // imported statically, or (the tracer, loaded only on Lambda) dynamically
    for (const pkg of ['logger', 'metrics', 'tracer']) expect(new RegExp(`(from|import\\()"@aws-lambda-powertools/${pkg}"`).test(text), pkg).toBe(true);
    expect(text.includes('aws-xray-sdk'), 'the X-Ray SDK').toBe(false);
  });
});

describe('the Powertools layer as CDK builds it', () => {
  it('holds logger, metrics and tracer of the installed version, one minified ESM file each, the X-Ray SDK inside', () => {
    for (const pkg of ['logger', 'metrics', 'tracer']) {
      const manifest = JSON.parse(readFileSync(join(layer, pkg, 'package.json'), 'utf8')) as { version: string; exports: string; type: string };
      expect(manifest).toMatchObject({ version: powertoolsVersion(), exports: './index.mjs', type: 'module' });
      expect(statSync(join(layer, pkg, 'index.mjs')).size, pkg).toBeGreaterThan(10_000);
    }
    const tracer = readFileSync(join(layer, 'tracer', 'index.mjs'), 'utf8');
    // nothing left to resolve at run time but Node's own modules
    expect(tracer.match(/from"(?!node:)[^"]+"/g) ?? []).toEqual([]);
    expect(tracer.includes('AWS_XRAY_DAEMON_ADDRESS')).toBe(true);
  });
});

describe('every function of the manifest, bundled with the same options', () => {
  it('is under 1 MB, but for the listed exceptions, which do not grow', async () => {
    all = await buildLambdaBundles();
    const over: string[] = [];
    for (const def of [...routes, ...triggers]) {
      const size = statSync(all.fileOf(def.handler)).size;
      if (size > (OVER_THE_BAR[def.id] ?? MB)) over.push(`${def.id}: ${Math.round(size / 1024)} KB`);
    }
    expect(over).toEqual([]);
  }, 120_000);
});
