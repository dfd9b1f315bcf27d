/**
 * The Lambda bundles for the local runtime: every handler of the manifest built by esbuild
 * with the options and module substitutions the CDK stack ships (infra/lambda-bundle), beside
 * the modules layer it ships, so
 * `npm start -- --bundles` and the e2e suite exercise what runs on AWS rather than the
 * TypeScript sources. One build() call for all entry points (esbuild parses shared modules
 * once). The folder sits inside the repository so that what a bundle loads at run time with
 * a computed require (the local face engine's packages) resolves to node_modules/.
 *
 * A build is kept (build-cache.ts) and reused while every file it read hashes the same: the
 * sources and packages esbuild read (its metafile), the bundling code of infra/lambda-bundle,
 * and (in the key) package-lock.json, whose versions the layer's packages come from.
 */
import { build, version as esbuildVersion } from 'esbuild';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lambdaBuildOptions } from '../lambda-bundle/index';
import { buildModulesLayer } from '../lambda-bundle/modules-layer';
import { routes, triggers } from '../../functions/routes';
import { cachedBuild, hashKey } from './build-cache';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

export interface LambdaBundles {
  /** the bundle file of a manifest handler (`functions/<handler>.ts` -> `<dir>/<handler>.mjs`) */
  fileOf: (handler: string) => string;
  count: number;
  ms: number;
  /** built by an earlier run, its inputs unchanged */
  reused: boolean;
}

export async function buildLambdaBundles(): Promise<LambdaBundles> {
  const started = Date.now();
  const handlers = [...new Set([...routes, ...triggers].map((r) => r.handler))].sort();
  const bundlingCode = [
    ...readdirSync(path.join(ROOT, 'infra/lambda-bundle')).map((f) => path.join(ROOT, 'infra/lambda-bundle', f)),
    path.join(HERE, 'bundles.ts'),
    path.join(HERE, 'build-cache.ts'),
  ];
  const key = hashKey({
    handlers,
    esbuild: esbuildVersion,
    lock: hashKey(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')),
  });
  const { dir, reused } = await cachedBuild(path.join(ROOT, '.local', 'bundles'), key, async (out) => {
    // the modules layer (Powertools, pkijs), where the bundles' imports of it resolve first (as /opt/nodejs on AWS)
    buildModulesLayer(out);
    const result = await build({
      ...lambdaBuildOptions(),
      entryPoints: Object.fromEntries(handlers.map((h) => [h, path.join(ROOT, 'functions', `${h}.ts`)])),
      outdir: out,
      outExtension: { '.js': '.mjs' },
      logLevel: 'error',
      absWorkingDir: ROOT,
      metafile: true,
    });
    // (a metafile input that is not a file, such as a disabled module, has nothing to hash)
    return [...Object.keys(result.metafile.inputs).map((f) => path.resolve(ROOT, f)).filter((f) => existsSync(f)), ...bundlingCode];
  });
  return {
    fileOf: (handler) => path.join(dir, `${handler}.mjs`),
    count: handlers.length,
    ms: Date.now() - started,
    reused,
  };
}
