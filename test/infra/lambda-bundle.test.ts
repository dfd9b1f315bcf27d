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
import { modulesLayer, REPO_ROOT as ROOT } from '../../infra/constructs/manifest-function';
import { cdkBundling, LAYER_PACKAGES } from '../../infra/lambda-bundle';
import { installedVersion, layerContents } from '../../infra/lambda-bundle/modules-layer';
import { FEATURE_FLAGS } from '../../infra/stacks/deploy-config';
import { routes, triggers } from '../../functions/routes';
import { buildLambdaBundles } from '../../infra/local/bundles';

const outdir = mkdtempSync(join(tmpdir(), 'infra-bundle-'));
let bundle = '';
let layer = '';

const MB = 1024 * 1024;

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
  modulesLayer(stack);
  app.synth();
  const asset = readdirSync(outdir).find((d) => d.startsWith('asset.') && statSync(join(outdir, d, 'index.mjs'), { throwIfNoEntry: false }));
  bundle = join(outdir, asset!, 'index.mjs');
  const layerAsset = readdirSync(outdir).find((d) => d.startsWith('asset.') && statSync(join(outdir, d, 'nodejs'), { throwIfNoEntry: false }));
  layer = join(outdir, layerAsset!, 'nodejs', 'node_modules');
}, 120_000);
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
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

describe('the modules layer as CDK builds it', () => {
  it('holds every package the bundles leave out, at its installed version, bundled, the X-Ray SDK inside the tracer', () => {
    for (const pkg of LAYER_PACKAGES) {
      const manifest = JSON.parse(readFileSync(join(layer, pkg, 'package.json'), 'utf8')) as { version: string; exports: string; type: string };
      expect(manifest, pkg).toMatchObject({ version: JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version, exports: './index.mjs', type: 'module' });
      const code = readFileSync(join(layer, pkg, 'index.mjs'), 'utf8');
      // nothing left to resolve at run time but Node's own modules and the layer's shared chunks
      expect(code.match(/from"(?!node:)(?!\.)[^"]+"/g) ?? [], pkg).toEqual([]);
    }
    expect(layerContents()).toEqual(LAYER_PACKAGES.map((pkg) => expect.stringMatching(new RegExp(`^${pkg}@\\d+\\.\\d+\\.\\d+`))));
    expect(installedVersion('@aws-lambda-powertools/tracer')).toMatch(/^2\.\d+\.\d+$/);
  });
});

describe('every function of the manifest, bundled with the same options', () => {
  it('is under 1 MB', async () => {
    const all = await buildLambdaBundles();
    const over: string[] = [];
    for (const def of [...routes, ...triggers]) {
      const size = statSync(all.fileOf(def.handler)).size;
      if (size > MB) over.push(`${def.id}: ${Math.round(size / 1024)} KB`);
    }
    expect(over).toEqual([]);
  }, 120_000);
});
