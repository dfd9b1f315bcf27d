import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * What the dev server may serve from disk (`/@fs/...`): the SPA, the shared domain code and
 * the dependencies, nothing else of the repository; and never the local runtime's folder
 * `.local/` (env.json with the origin secret, the webhook secret and the IP salt; cognito-local's
 * store with every local account's password and TOTP secret), wherever it sits.
 * test/unit/vite-fs.test.ts
 */
const fsAllow = [webDir, fileURLToPath(new URL('../functions/domain', import.meta.url)), `${repoRoot}node_modules`];
const fsDeny = ['.env', '.env.*', '*.{crt,pem}', '**/.git/**', '**/.local/**', '**/.local'];

/**
 * The SPA. `/config.json` is not part of the build: it is written at deploy by the web
 * stack and served locally by the local runtime. `@domain` is the server's pure domain
 * code (fee rule, formatting, roles), so the simulator and the API agree by construction.
 */
export default defineConfig({
  root: webDir,
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      '@domain': fileURLToPath(new URL('../functions/domain', import.meta.url)),
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  server: {
    port: 5173,
    fs: { strict: true, allow: fsAllow, deny: fsDeny },
    proxy: {
      '/api': {
        target: process.env.API_PROXY_TARGET ?? 'http://localhost:3000',
        changeOrigin: true,
      },
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: 'hidden',
    rolldownOptions: {
      onwarn(warning, warn) {
        // a dependency's comments the bundler cannot place (zod's @__PURE__ annotations): nothing here to act on
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/')) return;
        // Tailwind's generated CSS comes without a source map; the hidden maps are for the JavaScript
        if (warning.code === 'SOURCEMAP_BROKEN' && warning.plugin?.startsWith('@tailwindcss/vite')) return;
        warn(warning);
      },
      output: {
        // long-lived vendor chunks, so a release of the app does not invalidate them
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)\// },
            { name: 'amplify', test: /node_modules\/(@aws-amplify|aws-amplify|@aws-crypto|@smithy|tslib|uuid|js-cookie)\// },
          ],
        },
      },
    },
  },
});
