/**
 * The Lambda bundles for the local runtime: every handler of the manifest built by esbuild
 * with the options and module substitutions the CDK stack ships (infra/lambda-bundle), beside
 * the modules layer it ships, so
 * `npm start -- --bundles` and the e2e suite exercise what runs on AWS rather than the
 * TypeScript sources. One build() call for all entry points (esbuild parses shared modules
 * once). The folder sits inside the repository so that what a bundle loads at run time with
 * a computed require (the local face engine's packages) resolves to node_modules/.
 */
import { build } from 'esbuild';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lambdaBuildOptions } from '../lambda-bundle/index';
import { buildModulesLayer } from '../lambda-bundle/modules-layer';
import { routes, triggers } from '../../functions/routes';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface LambdaBundles {
  /** the bundle file of a manifest handler (`functions/<handler>.ts` -> `<dir>/<handler>.mjs`) */
  fileOf: (handler: string) => string;
  count: number;
  ms: number;
  remove: () => void;
}

export async function buildLambdaBundles(): Promise<LambdaBundles> {
  const started = Date.now();
  const parent = path.join(ROOT, '.local', 'bundles');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(path.join(parent, 'run-'));
  const handlers = [...new Set([...routes, ...triggers].map((r) => r.handler))];
  try {
    // the modules layer (Powertools, pkijs), where the bundles' imports of it resolve first (as /opt/nodejs on AWS)
    buildModulesLayer(dir);
    await build({
      ...lambdaBuildOptions(),
      entryPoints: Object.fromEntries(handlers.map((h) => [h, path.join(ROOT, 'functions', `${h}.ts`)])),
      outdir: dir,
      outExtension: { '.js': '.mjs' },
      logLevel: 'error',
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    fileOf: (handler) => path.join(dir, `${handler}.mjs`),
    count: handlers.length,
    ms: Date.now() - started,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
