/**
 * `npm start`: the whole product on this machine, no AWS account. Emulators, setup,
 * demo accounts, the local API gateway and the SPA on Vite; data kept in .local/data
 * (`npm run reset` wipes it). Ctrl-C stops everything, Java included.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PORTS, startLocalStack, type LocalStack } from './stack';
import { assertPortFree } from './emulators';
import { runtimeConfigPlugin } from './web-server';
import { edgeHeaders, socketIp } from './edge';
import { seedDemoData } from './demo-data';
import { registerLocalCa } from './local-signing';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DATA_DIR = path.join(ROOT, '.local', 'data');

// The SDK's notices about Node versions say nothing about this product.
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (!/NodeVersionSupportWarning|MaintenanceMode/.test(w.name + w.message)) console.warn(w);
});

function ensureJava() {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    console.error('Java non trovato: DynamoDB Local richiede Java 17 o successivo (es. `apt-get install -y openjdk-17-jre-headless`).');
    process.exit(1);
  }
}

async function main() {
  ensureJava();
  const started = Date.now();
  const ports = { ...DEFAULT_PORTS };
  for (const [name, key] of [['DYNAMODB_PORT', 'dynamodb'], ['S3_PORT', 's3'], ['SES_PORT', 'ses'], ['COGNITO_PORT', 'cognito'], ['API_PORT', 'api'], ['WEB_PORT', 'web']] as const) {
    if (process.env[name]) ports[key] = Number(process.env[name]);
  }
  await assertPortFree(ports.web, 'app web (Vite)');
  const appOrigin = `http://localhost:${ports.web}`;
  let stack: LocalStack | undefined;
  let vite: { close: () => Promise<void> } | undefined;
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    console.log('\nArresto in corso...');
    await vite?.close().catch(() => undefined);
    await stack?.stop().catch(() => undefined);
    console.log('Tutti i servizi sono stati arrestati.');
    process.exit(code);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGHUP', () => void stop());
  // never leave Java running behind a crash
  process.on('uncaughtException', (err) => {
    console.error(err);
    void stop(1);
  });

  try {
    stack = await startLocalStack({
      dataDir: DATA_DIR,
      ports,
      appOrigin,
      // `npm start -- --bundles`: the handlers as the Lambda bundles AWS runs
      bundles: process.argv.includes('--bundles'),
      log: (line) => console.log(`  [api] ${line}`),
    });
    process.env.API_PROXY_TARGET = stack.urls.api;
    const originSecret = stack.env.ORIGIN_SECRET!;
    // `npm run invoke` runs a handler against this running stack with the same environment.
    await writeFile(path.join(ROOT, '.local', 'env.json'), JSON.stringify(stack.env, null, 2));
    const { createServer } = await import('vite');
    const server = await createServer({
      configFile: path.join(ROOT, 'web', 'vite.config.ts'),
      server: {
        port: ports.web,
        strictPort: true,
        host: 'localhost',
        proxy: {
          '/api': {
            target: stack.urls.api,
            // in place of CloudFront: the origin secret the API requires and the viewer's address
            configure: (proxy) =>
              proxy.on('proxyReq', (proxyReq, req) => {
                for (const [name, value] of Object.entries(edgeHeaders(originSecret, socketIp(req.socket.remoteAddress)))) proxyReq.setHeader(name, value);
              }),
          },
        },
      },
      plugins: [runtimeConfigPlugin(stack.runtimeConfig)],
      clearScreen: false,
    });
    await server.listen();
    vite = server;
  } catch (err) {
    console.error(`\nAvvio non riuscito: ${(err as Error).message}`);
    await stop(1);
    return;
  }

  const s = stack;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const pad = (t: string, n: number) => t.padEnd(n);
  console.log(`
Opzione Casa è pronta in ${seconds} s (dati in ${path.relative(ROOT, DATA_DIR)}; "npm run reset" li cancella)

  App          ${appOrigin}
  API          ${s.urls.api}/api
  Posta (SES)  ${s.urls.ses}
  Cognito      ${s.urls.cognito}   DynamoDB ${s.urls.dynamodb}   S3 ${s.urls.s3}

  Account demo:
${s.accounts.map((a) => `    ${pad(a.role, 7)} ${pad(a.email, 32)} password: ${a.password}`).join('\n')}

Ctrl-C per arrestare tutto.`);

  // the local demo CA for firma digitale, trusted as the Italian trusted list's CAs are in AWS (`npm run sign`)
  void registerLocalCa(DATA_DIR).catch((err: Error) => console.warn(`  [demo] CA locale di prova non registrata: ${err.message}`));
  // on a fresh data folder: Milano OMI data and two requests, so the back office has something to show
  void seedDemoData(s, (line) => console.log(`  [demo] ${line}`)).catch((err: Error) =>
    console.warn(`  [demo] dati demo non caricati: ${err.message}`),
  );
}

void main();
