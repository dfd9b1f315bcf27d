/**
 * Gestione Fonti (/sources) in Chromium, as the admin: create a source (and the blank-name
 * error), see it in the table, copy its link ('Copiato!'), delete it after confirming;
 * axe at desktop and at 360 px. A seller gets 'Accesso negato'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, expectAccessible, launchBrowser, MOBILE, newPage, signIn } from '../support/browser';
import { stack } from '../support/helpers';

let browser: Browser;
let admin: BrowserContext;
const web = () => stack().webUrl!;

const signInAs = (page: Page, role: 'admin' | 'seller', landing: string) =>
  signIn(page, web(), stack().accounts.find((a) => a.role === role)!, landing);

async function sourcesPage(): Promise<Page> {
  const page = await admin.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${web()}/sources`);
  await page.getByRole('heading', { level: 1, name: 'Gestione Fonti' }).waitFor();
  // the list has loaded: a table or the empty state
  await page.locator('[data-testid="sources-table"], [data-testid="sources-empty"]').first().waitFor();
  return page;
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await browser.newContext({ viewport: DESKTOP, locale: 'it-IT', timezoneId: 'Europe/Rome' });
  await admin.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web() });
  const page = await admin.newPage();
  await signInAs(page, 'admin', '/admin');
  await page.close();
});
afterAll(async () => {
  await admin?.close();
  await browser?.close();
});

describe('/sources (admin)', () => {
  it('creates a source, copies its link, deletes it after confirming', async () => {
    const page = await sourcesPage();
    const name = `Volantino e2e ${Date.now().toString(36)}`;

    // blank name: the spec's message, nothing sent
    await page.getByTestId('source-create').click();
    await page.getByText('Inserisci un nome per la fonte').waitFor();
    expect(await page.getByTestId('source-name').getAttribute('aria-invalid')).toBe('true');

    await page.getByTestId('source-name').fill(`  ${name}  `);
    await page.getByTestId('source-create').click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Fonte creata con successo' }).waitFor();
    const row = page.getByTestId('source-row').filter({ hasText: name });
    await row.waitFor();
    expect(await page.getByTestId('source-name').inputValue()).toBe('');
    // newest first
    expect(await page.getByTestId('source-row').first().getAttribute('data-source-id')).toBe(await row.getAttribute('data-source-id'));
    const id = (await row.getAttribute('data-source-id'))!;
    expect(await row.getByTestId('source-requests').textContent()).toBe('0');
    expect(await row.textContent()).toContain(id);
    // dd/MM/yyyy HH:mm in Europe/Rome, e.g. "23/11/2026 11:57"
    const today = new Intl.DateTimeFormat('it-IT', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Rome' }).format(new Date());
    expect(await row.locator('time').textContent()).toMatch(new RegExp(`^${today.replaceAll('/', '\\/')} \\d{2}:\\d{2}$`));
    await expectAccessible(page);

    // copy link
    await row.getByTestId('source-copy').click();
    await row.getByText('Copiato!').waitFor();
    expect(await page.getByTestId('source-copy-status').textContent()).toContain('Copiato!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${new URL(web()).origin}/?id=${id}`);

    // delete: cancel first, then confirm
    await row.getByTestId('source-delete').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Sei sicuro di voler eliminare questa fonte?').waitFor();
    await expectAccessible(page);
    await page.getByTestId('source-delete-cancel').click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await row.count()).toBe(1);
    await row.getByTestId('source-delete').click();
    await page.getByTestId('source-delete-confirm').click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Fonte eliminata' }).waitFor();
    await expect.poll(() => page.locator(`[data-source-id="${id}"]`).count()).toBe(0);
    await page.close();
  });

  it('is usable and accessible at 360 px', async () => {
    const page = await sourcesPage();
    await page.getByTestId('source-name').fill(`Mobile ${Date.now().toString(36)}`);
    await page.getByTestId('source-create').click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Fonte creata con successo' }).waitFor();
    await page.setViewportSize(MOBILE);
    await page.getByTestId('sources-table').waitFor();
    // the table scrolls inside its region: the page itself never scrolls sideways
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await expectAccessible(page);
    await page.close();
  });
});

describe('/sources (seller)', () => {
  it('answers "Accesso negato"', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(page, 'seller', '/seller-dashboard');
    await page.goto(`${web()}/sources`);
    await page.getByText('Accesso negato').waitFor();
    await page.getByText('Solo gli amministratori possono accedere a questa pagina').waitFor();
    await context.close();
  });
});
