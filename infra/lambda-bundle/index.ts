import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';

/**
 * How every Lambda is bundled: the CDK functions (infra/constructs/manifest-function.ts) pass
 * these to NodejsFunction (`cdkBundling`), and `npm run bench:lambda` and
 * test/unit/lambda-bundle.test.ts build with the same (`lambdaBuildOptions`), so what is
 * measured and tested is what ships; test/infra/lambda-bundle.test.ts bundles a function
 * through CDK itself.
 */
export const LAMBDA_ESBUILD = {
  // ESM: the repo is "type": "module" and some dependencies (jose) ship ESM only.
  format: 'esm',
  target: 'node22',
  mainFields: ['module', 'main'],
  // CommonJS dependencies inside an ESM bundle still call require()
  banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  minify: true,
  // error classes set `name` from the class name (functions/lib/errors.ts): keep it
  keepNames: true,
} as const;

/**
 * What the bundles leave out because every function gets it from the stack's layer
 * (modules-layer.ts), bundled there: Powertools (logger, metrics, tracer with the X-Ray SDK:
 * in every function it would add ~130 KB to each and take three over 1 MB), and pkijs with
 * asn1js (~400 KB, for the two functions that verify a digital signature, loaded on first use).
 * Wherever the bundles run, the layer's files sit in a node_modules above them. Exactly these
 * packages: anything else (a Powertools package the layer lacks) stays in the bundle.
 */
export const LAYER_PACKAGES = ['@aws-lambda-powertools/logger', '@aws-lambda-powertools/metrics', '@aws-lambda-powertools/tracer', 'pkijs', 'asn1js'] as const;
/** this folder, where the substitutes are: esbuild takes an alias's path from its working directory, so they are absolute */
const HERE = fileURLToPath(new URL('.', import.meta.url));

/**
 * Module substitutions (esbuild `alias`): each replaces a dependency with exactly what the
 * functions use of it, to keep every bundle under 1 MB (docs/quality.md, "Lambda"):
 * - pdf-lib's standard fonts: only Helvetica and Helvetica-Bold, the two functions/lib/pdf.ts
 *   embeds (-98 KB);
 * - pako: Node's own zlib (-47 KB);
 * - pdf-lib's PNG decoder: not used, refuses if called (-25 KB);
 * - the SDK's default credential chain: its first link, the environment, which is where
 *   Lambda puts the role's credentials (-90 KB in every function).
 * Only the Lambda bundles use them; the local runtime and the tests run the real modules.
 */
export function lambdaAliases(): Record<string, string> {
  const at = (file: string) => join(HERE, file);
  return {
    '@pdf-lib/standard-fonts': at('pdf-standard-fonts.ts'),
    '@pdf-lib/upng': at('no-png.ts'),
    pako: at('node-zlib-pako.ts'),
    '@aws-sdk/credential-provider-node': at('lambda-credentials.ts'),
  };
}

/** The same, as options of esbuild's `build()` (the bench and the tests bundle with them). */
export function lambdaBuildOptions(): BuildOptions {
  return {
    bundle: true,
    platform: 'node',
    ...LAMBDA_ESBUILD,
    mainFields: [...LAMBDA_ESBUILD.mainFields],
    banner: { js: LAMBDA_ESBUILD.banner },
    alias: lambdaAliases(),
    external: [...LAYER_PACKAGES],
  };
}

/**
 * The same, as NodejsFunction's bundling options (CDK runs the local esbuild with them). CDK's
 * Docker fallback (no local esbuild) would not see the absolute alias paths; the local
 * esbuild is a dev dependency, so the fallback does not happen.
 */
export function cdkBundling(): BundlingOptions {
  return {
    ...LAMBDA_ESBUILD,
    format: OutputFormat.ESM,
    mainFields: [...LAMBDA_ESBUILD.mainFields],
    esbuildArgs: { '--alias': Object.entries(lambdaAliases()).map(([from, to]) => `${from}=${to}`) },
    sourceMap: true,
    sourcesContent: false,
    // The SDK is bundled, not taken from the runtime: the versions in package-lock.json are
    // the ones the tests ran, and lib-dynamodb always matches client-dynamodb.
    bundleAwsSDK: true,
    // ...but not Powertools, which the layer provides (the SDK stays bundled: only these are external)
    externalModules: [...LAYER_PACKAGES],
  };
}
