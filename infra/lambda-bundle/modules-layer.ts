import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { lambdaBuildOptions, LAYER_PACKAGES } from './index';

/**
 * The functions' layer: the packages the bundles leave out (LAYER_PACKAGES: Powertools, and
 * pkijs with asn1js, which only the digital-signature checks load, on first use), bundled by
 * esbuild into minified ESM laid out as installed packages: `<dir>/node_modules/<package>/
 * index.mjs`, their shared code in chunks beside them (so pkijs and the code that imports
 * asn1js share one asn1js). On Lambda `<dir>` is the layer's `nodejs/`; locally (the runtime's
 * bundles, the bench, the tracing test) a folder above the bundles, where Node finds it first.
 * Bundled, a package loads in a fraction of the time its installed files take (AWS's public
 * Powertools layer ships them as installed: docs/quality.md "Tracer e pkijs dal layer").
 */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The version of an installed package. */
export const installedVersion = (pkg: string) => (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

/** What the layer holds, `name@version` each (its description). */
export function layerContents(): string[] {
  return LAYER_PACKAGES.map((pkg) => `${pkg}@${installedVersion(pkg)}`);
}

/** Writes the layer's packages under `<dir>/node_modules`. */
export function buildModulesLayer(dir: string): void {
  const out = join(dir, 'node_modules');
  buildSync({
    // the functions' options, but the layer's own packages are what it bundles
    ...lambdaBuildOptions(),
    external: [],
    absWorkingDir: REPO_ROOT,
    splitting: true,
    entryPoints: LAYER_PACKAGES.map((pkg) => ({ in: pkg, out: `${pkg}/index` })),
    outdir: out,
    outExtension: { '.js': '.mjs' },
    chunkNames: '.chunks/[name]-[hash]',
    logLevel: 'error',
  });
  for (const pkg of LAYER_PACKAGES) {
    mkdirSync(join(out, pkg), { recursive: true });
    const manifest = { name: pkg, version: installedVersion(pkg), type: 'module', exports: './index.mjs', main: './index.mjs' };
    writeFileSync(join(out, pkg, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  }
}
