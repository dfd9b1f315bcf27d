/**
 * The home page's voice assistant (spec 000): nothing third-party loads when the deploy
 * configures none (as locally); when configured, the vendor's script is injected once the
 * page is interactive, with the project id, colour and ball size, in a 238 x 423 px box.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { RuntimeConfig } from '../../functions/domain/runtime-config';
import { localSecurityHeaders } from '../../infra/local/web-server';
import { launchBrowser, newPage } from '../support/browser';
import { stack } from '../support/helpers';

const web = () => stack().webUrl!;
const SCRIPT_URL = 'https://voice.example.test/widget.js';
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('voice widget on the home page', () => {
  it('loads nothing when no widget is configured', async () => {
    const { context, page } = await newPage(browser);
    const foreign: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.origin !== new URL(web()).origin && !url.hostname.match(/^(localhost|127\.)/)) foreign.push(r.url());
    });
    await page.goto(web());
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForTimeout(1500);
    expect(await page.locator('[data-testid="voice-widget"]').count()).toBe(0);
    expect(await page.locator('script[data-voice-widget]').count()).toBe(0);
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('injects the configured script after the page is interactive, in a 238 x 423 px box', async () => {
    const { context, page } = await newPage(browser);
    const voiceWidget = { projectId: 'vw-test', scriptUrl: SCRIPT_URL, color: '#223d73', ballSize: 72 };
    // the deploy's /config.json with a widget, and the vendor's script answered here
    await page.route('**/config.json', async (route) => {
      const res = await route.fetch();
      const config = (await res.json()) as Record<string, unknown>;
      await route.fulfill({ response: res, json: { ...config, voiceWidget } });
    });
    // and the page's security headers as that deploy's distribution sends them: its CSP
    // allows the widget's origin (test/e2e/edge-headers.test.ts: refused otherwise)
    await page.route(`${web()}/`, async (route) => {
      const res = await route.fetch();
      const config = (await (await fetch(`${web()}/config.json`)).json()) as RuntimeConfig;
      await route.fulfill({ response: res, headers: { ...res.headers(), ...localSecurityHeaders({ ...config, voiceWidget }, stack().urls.s3) } });
    });
    let scriptRequestedAt = 0;
    await page.route(SCRIPT_URL, async (route) => {
      scriptRequestedAt = Date.now();
      await route.fulfill({ contentType: 'text/javascript', body: 'window.__voiceWidgetLoaded = document.currentScript.dataset.projectId;' });
    });
    const started = Date.now();
    await page.goto(web());
    const loadedAt = await page.evaluate(() => performance.timing.loadEventEnd);
    await page.waitForFunction(() => (window as unknown as { __voiceWidgetLoaded?: string }).__voiceWidgetLoaded === 'vw-test');
    expect(scriptRequestedAt).toBeGreaterThan(started);
    expect(loadedAt).toBeGreaterThan(0);
    const script = page.locator('script[data-voice-widget]');
    expect(await script.count()).toBe(1);
    expect(await script.getAttribute('data-color')).toBe('#223d73');
    expect(await script.getAttribute('data-ball-size')).toBe('72');
    const box = await page.getByTestId('voice-widget').boundingBox();
    expect(box).toMatchObject({ width: 238, height: 423 });
    expect(await page.getByRole('complementary', { name: 'Assistente vocale' }).count()).toBe(1);
    await context.close();
  });
});
