/**
 * The production build under the headers the distribution sends (the local edge builds them
 * with the web stack's function, infra/stacks/security-headers.ts): no inline script in the
 * build, every page of every role opens without a single CSP violation, styles (Tailwind and
 * the toasts) apply, the site cannot be framed, the voice widget runs only when the deploy's
 * policy allows its origin.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RuntimeConfig } from '../../functions/domain/runtime-config';
import { localSecurityHeaders } from '../../infra/local/web-server';
import { launchBrowser, newPage, signIn, watchCspViolations } from '../support/browser';
import { stack } from '../support/helpers';

const web = () => stack().webUrl!;
const account = (role: 'admin' | 'agent' | 'seller') => stack().accounts.find((a) => a.role === role)!;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh desktop context whose CSP violations are recorded. */
async function watchedPage(): Promise<{ context: BrowserContext; page: Page; violations: () => Promise<string[]> }> {
  const { context, page } = await newPage(browser);
  const csp = await watchCspViolations(context);
  return { context, page, violations: csp.list };
}

/** Opens `route` and waits for the page's main heading: the app has rendered and loaded its data. */
async function open(page: Page, route: string) {
  await page.goto(`${web()}${route}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
}

describe('the production build', () => {
  it('has no inline script and no inline event handler in index.html', () => {
    const html = readFileSync(path.resolve(import.meta.dirname, '../../web/dist/index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc=/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/<style\b/i);
  });

  it('is served with the content security policy and the other security headers', async () => {
    const res = await fetch(web());
    const config = (await (await fetch(`${web()}/config.json`)).json()) as RuntimeConfig;
    const expected = localSecurityHeaders(config, stack().urls.s3);
    for (const [name, value] of Object.entries(expected)) expect(res.headers.get(name), name).toBe(value);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self';");
    expect(res.headers.get('permissions-policy')).toContain('camera=(self)');
  });
});

describe('every page under the policy', () => {
  it('public pages: home, sign-in, registration, privacy, not found', async () => {
    const { context, page, violations } = await watchedPage();
    for (const route of ['/', '/auth', '/seller-register', '/privacy', '/pagina-che-non-esiste']) await open(page, route);
    // a wrong password: the sign-in call to Cognito and the toast
    await signIn(page, web(), { email: account('seller').email, password: 'sbagliata' });
    await page.getByText('Errore di login').waitFor();
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('the admin back office', async () => {
    const { context, page, violations } = await watchedPage();
    await signIn(page, web(), account('admin'), '/admin');
    for (const route of ['/admin', '/users', '/active-options', '/omi-import', '/omi-data', '/sources']) await open(page, route);
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('the seller and agent areas', async () => {
    for (const [role, landing, routes] of [
      ['seller', '/seller-dashboard', ['/seller-dashboard', '/seller-profile']],
      ['agent', '/agent-area/profile', ['/agent-area/profile']],
    ] as const) {
      const { context, page, violations } = await watchedPage();
      await signIn(page, web(), account(role), landing);
      for (const route of routes) await open(page, route);
      expect(await violations(), role).toEqual([]);
      await context.close();
    }
  });
});

describe('styles under the policy', () => {
  it('apply the stylesheet and the toasts\' own styles (inserted by sonner, allowed by their hash)', async () => {
    const { context, page, violations } = await watchedPage();
    await open(page, '/');
    // Tailwind: bg-slate-50 on the body
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('oklch(0.984 0.003 247.858)');
    await signIn(page, web(), { email: account('seller').email, password: 'sbagliata' });
    const toast = page.locator('[data-sonner-toast]').first();
    await toast.waitFor();
    // sonner's stylesheet positions the toaster and lays out the toast
    expect(await page.locator('[data-sonner-toaster]').evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect(await toast.evaluate((el) => getComputedStyle(el).display)).toBe('flex');
    expect(await violations()).toEqual([]);
    await context.close();
  });
});

describe('framing', () => {
  it('refuses to show the site in a frame of another page', async () => {
    const { context, page } = await newPage(browser);
    const refused: string[] = [];
    page.on('console', (m) => /frame-ancestors/.test(m.text()) && refused.push(m.text()));
    await page.setContent(`<iframe id="f" src="${web()}/" width="400" height="300"></iframe>`);
    await expect.poll(() => refused.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(await frame?.locator('#root').count().catch(() => 0)).toBe(0);
    await context.close();
  });
});

describe('the voice widget and the policy', () => {
  const SCRIPT_URL = 'https://voice.example.test/widget.js';
  const widget = { projectId: 'vw-csp', scriptUrl: SCRIPT_URL, color: '#223d73', ballSize: 64 };

  /** The deploy's /config.json with a widget; the page's headers built for `policyWidget` (as the web stack would). */
  async function pageWithWidget(policyWidget: typeof widget | null) {
    const { context, page, violations } = await watchedPage();
    await page.route('**/config.json', async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, json: { ...((await res.json()) as object), voiceWidget: widget } });
    });
    await page.route(`${web()}/`, async (route) => {
      const res = await route.fetch();
      const config = (await (await fetch(`${web()}/config.json`)).json()) as RuntimeConfig;
      const headers = { ...res.headers(), ...localSecurityHeaders({ ...config, voiceWidget: policyWidget }, stack().urls.s3) };
      await route.fulfill({ response: res, headers });
    });
    let requested = false;
    await page.route(SCRIPT_URL, async (route) => {
      requested = true;
      await route.fulfill({ contentType: 'text/javascript', body: 'window.__voiceWidgetLoaded = document.currentScript.dataset.projectId;' });
    });
    await page.goto(web());
    await page.locator('script[data-voice-widget]').waitFor({ state: 'attached' });
    return { context, page, violations, requested: () => requested };
  }

  it('runs when the deploy configured it: its origin is in the policy', async () => {
    const { context, page, violations, requested } = await pageWithWidget(widget);
    await page.waitForFunction(() => (window as unknown as { __voiceWidgetLoaded?: string }).__voiceWidgetLoaded === 'vw-csp');
    expect(requested()).toBe(true);
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('is refused by the browser when the policy does not name it', async () => {
    const { context, page, violations, requested } = await pageWithWidget(null);
    await expect.poll(violations).toContainEqual(expect.stringContaining('voice.example.test'));
    expect(requested()).toBe(false);
    expect(await page.evaluate(() => (window as unknown as { __voiceWidgetLoaded?: string }).__voiceWidgetLoaded)).toBeUndefined();
    await context.close();
  });
});
