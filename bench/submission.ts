/**
 * `npx tsx bench/submission.ts`: the wizard figure of issue 4 on the local stack. Not a
 * test: it prints the figures and writes them to bench/results/submission.json.
 *
 * The production build of the SPA served as the e2e tests serve it, in front of
 * `startLocalStack`; Debian Chromium fills the wizard (address, then step 4 with two rooms
 * and one 5 MB PNG each) and submits. Measured in the page (performance.now(), no CDP
 * round trips): from the click on 'Conferma' to the 'Candidatura inviata!' toast.
 *
 * A. the usual case: the two photos finished uploading before the contact dialog;
 * B. 'Conferma' clicked while the two photos are still uploading (the submission waits
 *    for them): the worst case a hurried person sees.
 * Also: the upload time of each 5 MB photo (chosen -> stored in the bucket) and the
 * server time of POST /api/properties. 4 runs each (the per-IP limit is 10 per hour).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startLocalStack } from '../infra/local/stack';
import { freePort } from '../infra/local/emulators';
import { encodePng } from '../test/support/png';
import { startStaticWeb } from '../infra/local/web-server';
import { ROOT, writeResults } from './support';

const RUNS = 4;
const log = (...a: unknown[]) => console.log(...a);
process.removeAllListeners('warning');
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
process.env.LOG_LEVEL ??= 'WARN';

const r0 = (n: number) => Math.round(n);
const r1 = (n: number) => Math.round(n * 10) / 10;
function stats(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return { runs: s.length, medianMs: r0(median), minMs: r0(s[0]!), maxMs: r0(s.at(-1)!), valuesMs: values.map(r0) };
}

/** A real PNG of random pixels, stored (not compressed) so its size is the target: ~5 MB. */
function noisePng(targetBytes: number): Buffer {
  const width = 1024;
  const rowBytes = 1 + width * 3;
  const height = Math.ceil(targetBytes / rowBytes);
  const raw = Buffer.alloc(rowBytes * height);
  const noise = randomBytes(raw.length);
  for (let y = 0; y < height; y++) {
    raw[y * rowBytes] = 0;
    noise.copy(raw, y * rowBytes + 1, y * rowBytes + 1, (y + 1) * rowBytes);
  }
  return encodePng(width, height, raw, 0);
}

/** Records in the page: the click on 'Conferma', the toast, and when each upload finished. */
const PROBE = `
  window.__bench = { confirmAt: 0, toastAt: 0, done: {} };
  document.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('[data-testid="contact-confirm"]')) window.__bench.confirmAt = performance.now();
  }, true);
  new MutationObserver(() => {
    const b = window.__bench;
    if (!b.toastAt && b.confirmAt && document.body.innerText.includes('Candidatura inviata!')) b.toastAt = performance.now();
    document.querySelectorAll('[data-testid="wizard-media"][data-status="done"]').forEach((el) => {
      const name = el.querySelector('p')?.textContent;
      if (name && !b.done[name]) b.done[name] = performance.now();
    });
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-status'] });
`;

interface Run {
  confirmToToastMs: number;
  uploadsMs: number[];
  postPropertiesMs: number | null;
  pendingAtConfirm: number;
}

async function runOnce(browser: Browser, web: string, files: string[], waitUploads: boolean): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'it-IT' });
  const page: Page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.addInitScript(PROBE);
  let postMs: number | null = null;
  page.on('requestfinished', (req) => {
    if (req.url().endsWith('/api/properties') && req.method() === 'POST') {
      const t = req.timing();
      postMs = t.responseEnd - t.requestStart;
    }
  });
  await page.goto(`${web}/?id=bench#candidatura`);
  await page.getByTestId('wizard').waitFor();
  await page.getByTestId('wizard-address').fill('Via del Corso 1');
  await page.getByTestId('wizard-province').selectOption('RM');
  await page.getByTestId('wizard-city').fill('Roma');
  await page.getByRole('option', { name: 'Roma', exact: true }).click();
  for (const n of [2, 3, 4]) {
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-progress').getByText(`Passo ${n} di 4`).waitFor();
  }
  for (const type of ['soggiorno', 'cucina']) {
    await page.getByTestId('wizard-room-new').click();
    await page.getByTestId('wizard-room-type').selectOption(type);
    await page.getByTestId('wizard-room-add').click();
  }
  const fillContact = async () => {
    await page.getByTestId('contact-first-name').fill('Mario');
    await page.getByTestId('contact-last-name').fill('Rossi');
    await page.getByTestId('contact-email').fill('mario.rossi@example.it');
    await page.getByTestId('contact-phone').fill('333 1234567');
    await page.getByTestId('contact-privacy').check();
  };
  if (!waitUploads) {
    // B: the contact data typed first (the dialog keeps it when closed), so 'Conferma' comes right after the photos
    await page.getByTestId('wizard-submit').click();
    await fillContact();
    await page.getByTestId('contact-cancel').click();
  }
  const chosenAt: number[] = [];
  for (const [i, file] of files.entries()) {
    chosenAt.push((await page.evaluate('performance.now()')) as number);
    await page.getByTestId('wizard-room-files').nth(i).setInputFiles(file);
  }
  if (waitUploads) {
    await page.waitForFunction(`document.querySelectorAll('[data-testid="wizard-media"][data-status="done"]').length === 2`, null, { timeout: 120_000 });
  }
  await page.getByTestId('wizard-submit').click();
  if (waitUploads) await fillContact();
  const pendingAtConfirm = await page.locator('[data-testid="wizard-media"]:not([data-status="done"])').count();
  await page.getByTestId('contact-confirm').click();
  await page.getByText('Candidatura inviata!').waitFor({ timeout: 120_000 });
  const b = (await page.evaluate('window.__bench')) as { confirmAt: number; toastAt: number; done: Record<string, number> };
  await context.close();
  return {
    confirmToToastMs: b.toastAt - b.confirmAt,
    uploadsMs: files.map((f, i) => b.done[path.basename(f)]! - chosenAt[i]!),
    postPropertiesMs: postMs,
    pendingAtConfirm,
  };
}

async function main() {
  const results: Record<string, unknown> = {
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryGb: Math.round(os.totalmem() / 1e9),
      node: process.version,
      loadAvgAtStart: os.loadavg().map(r1),
    },
    at: new Date().toISOString(),
  };
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'bench-submission-'));
  const dist = path.join(tmp, 'dist');
  log('Build della SPA (produzione)...');
  execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });

  const files = [path.join(tmp, 'soggiorno.png'), path.join(tmp, 'cucina.png')];
  for (const f of files) await writeFile(f, noisePng(5 * 1024 * 1024));
  results.photoBytes = 5 * 1024 * 1024;

  const webPort = await freePort();
  const stack = await startLocalStack({ appOrigin: `http://localhost:${webPort}` });
  const web = await startStaticWeb({ port: webPort, distDir: dist, apiUrl: stack.urls.api, config: stack.runtimeConfig });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
  try {
    // one warm-up run (first build of the chunks' code caches, first Lambda module loads), not counted
    log('Riscaldamento...');
    await runOnce(browser, web.url, files, true);
    const scenarios = { afterUploads: [] as Run[], duringUploads: [] as Run[] };
    for (let i = 0; i < RUNS; i++) {
      scenarios.afterUploads.push(await runOnce(browser, web.url, files, true));
      log(`A ${i + 1}/${RUNS}: Conferma -> toast ${r0(scenarios.afterUploads.at(-1)!.confirmToToastMs)} ms`);
    }
    for (let i = 0; i < RUNS; i++) {
      scenarios.duringUploads.push(await runOnce(browser, web.url, files, false));
      const last = scenarios.duringUploads.at(-1)!;
      log(`B ${i + 1}/${RUNS}: Conferma -> toast ${r0(last.confirmToToastMs)} ms (${last.pendingAtConfirm} foto ancora in caricamento)`);
    }
    const summary = (runs: Run[]) => ({
      confirmToToast: stats(runs.map((r) => r.confirmToToastMs)),
      postProperties: stats(runs.map((r) => r.postPropertiesMs ?? Number.NaN).filter((n) => !Number.isNaN(n))),
      uploadPer5MbPhoto: stats(runs.flatMap((r) => r.uploadsMs)),
      pendingAtConfirm: runs.map((r) => r.pendingAtConfirm),
    });
    results.afterUploads = summary(scenarios.afterUploads);
    results.duringUploads = summary(scenarios.duringUploads);
  } finally {
    await browser.close();
    await web.stop();
    await stack.stop();
    await rm(tmp, { recursive: true, force: true });
  }

  type Summary = Record<'confirmToToast' | 'postProperties' | 'uploadPer5MbPhoto', ReturnType<typeof stats>>;
  const a = results.afterUploads as Summary;
  const b = results.duringUploads as Summary;
  const fmt = (s: ReturnType<typeof stats>) => `${s.medianMs} ms [${s.minMs}-${s.maxMs}]`;
  log(`
Candidatura con due foto da 5 MB (local stack, ${RUNS} prove per caso, mediana [min-max]):
  A. foto già caricate:     Conferma -> toast ${fmt(a.confirmToToast)}   (POST /api/properties ${fmt(a.postProperties)})
  B. foto in caricamento:   Conferma -> toast ${fmt(b.confirmToToast)}
  Caricamento di una foto da 5 MB (scelta -> nel bucket): ${fmt(a.uploadPer5MbPhoto)}`);
  log(`Scritto ${await writeResults('submission', results)}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
