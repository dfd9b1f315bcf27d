/**
 * Debian Chromium driven by playwright-core, and axe-core checks on the page.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, type ExpectStatic } from 'vitest';

const require = createRequire(import.meta.url);

/**
 * Debian's Chromium headless shell (package chromium-headless-shell: the same Blink and V8
 * as /usr/bin/chromium, without the desktop browser around them, as Playwright runs headless
 * tests by default). Measured on the e2e suite: half the CPU of the full browser in headless
 * mode (128 s against 257 s). The full browser when the shell is missing; CHROMIUM_PATH picks another.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const chromiumPath = () => process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/**
 * V8 in the pages runs the SPA's code with its interpreter and baseline compiler only
 * (`--max-opt=1`): a test page lives for seconds, and the optimizing compilers (Maglev,
 * TurboFan) cost more CPU than they saved. Measured on the e2e stage, twice back to back:
 * Chromium renderers 103 and 110 s of CPU against 116 and 127 s, the stage 138 and 145 s
 * against 147 and 152 s (without TurboFan alone: no change).
 */
const V8_FLAGS = '--max-opt=1';

/** `args`: extra Chromium switches (e.g. the fake camera of test/e2e/kyc.test.ts). */
export async function launchBrowser(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      `--js-flags=${V8_FLAGS}`,
      ...args,
    ],
  });
}

export const DESKTOP = { width: 1280, height: 900 };
export const MOBILE = { width: 360, height: 780 };

export async function newPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'it-IT', timezoneId: 'Europe/Rome' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

let axeSource: string | undefined;

/**
 * Runs axe-core on the page; returns the serious and critical violations. axe is evaluated
 * through the DevTools protocol, not added as a <script>: the site's CSP refuses inline
 * scripts, and the tests run under it.
 */
export async function seriousViolations(page: Page) {
  // once per document: a page checked again since its last navigation keeps axe (550 KB to compile again)
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(axeSource);
  }
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
}

/**
 * Toasts at rest: sonner fades a toast in (and the text of the ones stacked behind it out)
 * for 400 ms; axe reads a half-transparent frame as low contrast, which nobody reads. What
 * stays on screen is checked: every toast mounted, no transition running in the toaster, each
 * toast and its text fully opaque or fully hidden.
 */
async function toastsAtRest(page: Page, check: ExpectStatic): Promise<void> {
  await check
    .poll(() =>
      page.evaluate(() => {
        const toasts = Array.from(document.querySelectorAll<HTMLElement>('[data-sonner-toast]'));
        if (toasts.some((t) => t.dataset.mounted !== 'true' || t.dataset.removed === 'true')) return false;
        const running = document
          .getAnimations()
          .some((a) => a.playState === 'running' && a.effect instanceof KeyframeEffect && a.effect.target instanceof Element && a.effect.target.closest('[data-sonner-toaster]'));
        if (running) return false;
        return Array.from(document.querySelectorAll('[data-sonner-toast], [data-sonner-toast] *')).every((el) => ['0', '1'].includes(getComputedStyle(el).opacity));
      }),
    )
    .toBe(true);
}

/** axe-core on what the page shows once its toasts are at rest: no serious or critical violation. */
export async function expectAccessible(page: Page, check: ExpectStatic = expect) {
  await toastsAtRest(page, check);
  check(await seriousViolations(page)).toEqual([]);
}

/** Signs in on /auth with the login form; with `landing`, waits for the page the app sends the person to. */
export async function signIn(page: Page, webUrl: string, account: { email: string; password: string }, landing?: string): Promise<void> {
  await page.goto(`${webUrl}/auth`);
  await page.getByTestId('login-email').fill(account.email);
  await page.getByTestId('login-password').fill(account.password);
  await page.getByTestId('login-submit').click();
  if (landing) await page.waitForURL((u) => u.pathname === landing);
}

/** A desktop context (it-IT, Europe/Rome) already signed in as `account`: its pages share the session. */
export async function signedInContext(
  browser: Browser,
  webUrl: string,
  account: { email: string; password: string },
  landing: string,
): Promise<BrowserContext> {
  const { context, page } = await newPage(browser);
  await signIn(page, webUrl, account, landing);
  await page.close();
  return context;
}

/** The sonner toast carrying `text`. */
export const toastWith = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

/**
 * Records the Content-Security-Policy violations of every page of the context, from the
 * `securitypolicyviolation` events and from the console (what the browser refused, and why).
 * `list()` gives them; a page under the site's CSP should have none.
 */
export async function watchCspViolations(context: BrowserContext): Promise<{ list: () => Promise<string[]> }> {
  const fromConsole: string[] = [];
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
  });
  const watch = (page: Page) =>
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(m.text())) fromConsole.push(m.text());
    });
  context.pages().forEach(watch);
  context.on('page', watch);
  return {
    list: async () => {
      const fromPages = await Promise.all(
        context.pages().map((p) => p.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []).catch(() => [])),
      );
      return [...fromConsole, ...fromPages.flat()];
    },
  };
}

/**
 * The confirmation step after a sign-up in the SPA: reads the code e-mailed to `email` from
 * the local SES and enters it. `idPrefix`: 'seller-confirm', 'agent-confirm' or
 * '<login prefix>-confirm' (an unconfirmed account signing in).
 */
export async function enterSignUpCode(page: Page, email: string, idPrefix: string): Promise<void> {
  const { confirmationCode } = await import('./helpers');
  const input = page.getByTestId(`${idPrefix}-code`);
  await input.waitFor();
  expect(await input.getAttribute('autocomplete')).toBe('one-time-code');
  await input.fill(await confirmationCode(email));
  await page.getByTestId(`${idPrefix}-submit`).click();
}

/**
 * A screenshot for a person to look at (no test reads it), taken only when SCREENSHOTS_DIR
 * names a folder: `SCREENSHOTS_DIR=/tmp/shots npm test -- e2e` writes
 * `<folder>/<group>/<name>.png`. Without it none is taken: the suite's 65 or so screenshots,
 * most of them full-page PNGs, were encoded on every run and thrown away. A locator is still waited for visible, as its
 * screenshot would have.
 */
export async function saveShot(target: Page | Locator, group: string, name: string, options: { fullPage?: boolean; style?: string } = {}): Promise<void> {
  const root = process.env.SCREENSHOTS_DIR;
  const locator = 'waitFor' in target ? target : undefined;
  if (!root) {
    await locator?.waitFor({ state: 'visible' });
    return;
  }
  const dir = path.join(root, group);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  if (locator) await locator.screenshot({ path: file, style: options.style });
  else await (target as Page).screenshot({ path: file, fullPage: options.fullPage ?? true, style: options.style });
}

/**
 * Screenshots of one group (saveShot), and the phone check of a page: at 390 px no horizontal
 * scroll, no serious axe violation, a `-390` screenshot; then back to the desktop width.
 */
export function screenshots(group: string) {
  const shot = (page: Page, name: string) => saveShot(page, group, name);
  const fitsPhone = async (page: Page, name: string) => {
    const phone = { width: 390, height: 844 };
    await page.setViewportSize(phone);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await expectAccessible(page);
    await shot(page, `${name}-390`);
    await page.setViewportSize(DESKTOP);
  };
  return { shot, fitsPhone };
}

/**
 * Records where a page stands, so a wait that times out can say it (waitForOrExplain): its
 * calls to the backend (every request to /api/, and every other non-GET: the uploads to the
 * bucket) with their status, any request that failed or is still without an answer (scripts
 * and chunks included), its uncaught errors and console errors, and a crash.
 */
export function watchPage(page: Page): () => string {
  const calls: string[] = [];
  const errors: string[] = [];
  const pending = new Map<object, string>();
  const wanted = (method: string, url: URL) => url.pathname.includes('/api/') || method !== 'GET';
  page.on('request', (r) => pending.set(r, `${r.method()} ${new URL(r.url()).pathname}`));
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (wanted(r.request().method(), url)) calls.push(`${r.request().method()} ${url.pathname} -> ${r.status()}`);
  });
  page.on('requestfailed', (r) => {
    pending.delete(r);
    calls.push(`${r.method()} ${new URL(r.url()).pathname} failed (${r.failure()?.errorText ?? 'no reason'})`);
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('crash', () => errors.push('the page crashed'));
  return () =>
    [
      `backend calls: ${calls.slice(-12).join('; ') || 'none'}`,
      `still unanswered: ${[...pending.values()].slice(-8).join('; ') || 'none'}`,
      `page errors: ${errors.slice(-6).join('; ').slice(0, 800) || 'none'}`,
    ].join('\n  ');
}

/**
 * `locator.waitFor`; on a timeout, the error also says whether the page still runs scripts,
 * what `shown` and the toasts display, and what watchPage saw.
 */
export async function waitForOrExplain(locator: Locator, opts: { timeout: number; shown: Locator; calls: () => string }): Promise<void> {
  try {
    await locator.waitFor({ timeout: opts.timeout });
  } catch (err) {
    const page = locator.page();
    const text = async (l: Locator) => ((await l.allTextContents().catch(() => null)) ?? ['(not readable)']).join(' | ').replace(/\s+/g, ' ').trim().slice(0, 600);
    // a renderer that runs no script answers nothing: each question gets 2 s
    const within = <T>(p: Promise<T>, fallback: T) => Promise.race([p, new Promise<T>((r) => setTimeout(() => r(fallback), 2000))]);
    const answers = await within(
      page.evaluate(() => document.readyState).then((s) => `yes (${s})`, (e: unknown) => `no (${(e as Error).message.split('\n')[0]})`),
      'no answer in 2 s',
    );
    const shown = await within(text(opts.shown), '(no answer in 2 s)');
    const toasts = await within(text(page.locator('[data-sonner-toast]')), '(no answer in 2 s)');
    throw new Error(
      `${(err as Error).message}\n  url: ${page.url()}\n  the page runs scripts: ${answers}\n  shown: ${shown || '(nothing)'}\n  toasts: ${toasts || 'none'}\n  ${opts.calls()}`,
    );
  }
}
