import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { lambdaBuildOptions, powertoolsVersion } from './index';

/**
 * The functions' Powertools layer: logger, metrics and tracer (with the X-Ray SDK), each
 * bundled by esbuild into one minified ESM file, laid out as the packages the function
 * bundles import (they leave LAYER_MODULES out): `<dir>/node_modules/@aws-lambda-powertools/
 * <name>/index.mjs`. On Lambda `<dir>` is the layer's `nodejs/`; locally (the runtime's
 * bundles, the bench, the tracing test) a folder above the bundles, where Node finds it first.
 * One file per package loads in a fraction of the time the installed packages' own files take
 * (AWS's public layer ships them as installed: docs/quality.md "Tracer dal layer").
 */
export const POWERTOOLS_PACKAGES = ['logger', 'metrics', 'tracer'] as const;

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Writes the layer's packages under `<dir>/node_modules`. */
export function buildPowertoolsLayer(dir: string): void {
  const out = join(dir, 'node_modules', '@aws-lambda-powertools');
  const version = powertoolsVersion();
  buildSync({
    // the functions' options, but the layer's own modules are what it bundles
    ...lambdaBuildOptions(),
    external: [],
    absWorkingDir: REPO_ROOT,
    entryPoints: POWERTOOLS_PACKAGES.map((name) => ({ in: `@aws-lambda-powertools/${name}`, out: `${name}/index` })),
    outdir: out,
    outExtension: { '.js': '.mjs' },
    logLevel: 'error',
  });
  for (const name of POWERTOOLS_PACKAGES) {
    mkdirSync(join(out, name), { recursive: true });
    const manifest = { name: `@aws-lambda-powertools/${name}`, version, type: 'module', exports: './index.mjs', main: './index.mjs' };
    writeFileSync(join(out, name, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  }
}
