/**
 * Dashboard Admin (/admin) in Chromium, as the admin: a request submitted through the
 * wizard route appears (search), expands with its details, takes two images uploaded at
 * once (a progress bar each), loses one after confirming, gets a user assigned ('Nessun
 * utente' refused) and is deleted after typing 'elimina'; the filters (state, period) and a
 * search by phone, kept in the URL through a reload and the way back from the Istruttoria;
 * the links from the Istruttoria to its option and its agents' requests, and from a request
 * to the agent in Gestione Utenti; axe at desktop and at 390 px.
 * Screenshots go to $SCREENSHOTS_DIR when set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, newPage, signIn, signedInContext, toastWith, saveShot } from '../support/browser';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../functions/model/db';
import { BatchWriter } from '../../functions/model/batch-writer';
import { keys, normalizeForSort } from '../../functions/model/keys';
import { api, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { apiFrom, fullBody, newClientIp, newId, pngBytes } from '../support/submission';
import { freshAgent, listedOption } from '../support/agent';

let browser: Browser;
let admin: BrowserContext;
const web = () => stack().webUrl!;
const PHONE = { width: 390, height: 844 };

async function shot(page: Page, name: string) {
  await saveShot(page, 'requests', name, { fullPage: false });
  await saveShot(page, 'requests', `${name}-full`);
}

/**
 * A request through POST /properties with one empty room; its last name carries a unique tag.
 * In Bergamo: no OMI file of the run covers it, so it is never valued on submission ('Nuova').
 */
async function submitRequest(tag: string, overrides: Record<string, unknown> = {}): Promise<{ id: string; roomId: string }> {
  const id = newId();
  const roomId = newId();
  const body = {
    ...fullBody(id, [{ id: roomId, type: 'soggiorno', media: [] }]),
    firstName: 'Elena',
    lastName: `Galli ${tag}`,
    email: `${tag}@example.it`,
    desiredAmount: '275.000',
    province: 'BG',
    city: 'Bergamo',
    ...overrides,
  };
  const res = await apiFrom(newClientIp(), 'POST', '/properties', body);
  if (res.status !== 201) throw new Error(`submission refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { id, roomId };
}

async function dashboard(search?: string): Promise<Page> {
  const page = await admin.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${web()}/admin`);
  await page.getByRole('heading', { level: 1, name: 'Dashboard Admin' }).waitFor();
  await page.locator('[data-testid="requests-table"], [data-testid="requests-empty"]').first().waitFor();
  if (search) {
    await page.getByTestId('requests-search').fill(search);
    await page.locator('[data-testid="requests-total"]').filter({ hasText: /trovat/ }).waitFor();
  }
  return page;
}

const toast = (page: Page, text: string) => toastWith(page, text).first().waitFor();

beforeAll(async () => {
  useStackEnv();
  browser = await launchBrowser();
  admin = await signedInContext(browser, web(), stack().accounts.find((a) => a.role === 'admin')!, '/admin');
});
afterAll(async () => {
  await admin?.close();
  await browser?.close();
});

describe('/admin (admin)', () => {
  it('shows, expands, manages media, assigns and deletes a request', async () => {
    const tag = `e2e${Date.now().toString(36)}`;
    const r = await submitRequest(tag);
    const page = await dashboard();
    // newest first: the request just submitted is on the first page, and no older row comes
    // before it (other test files submit requests at the same time, so it need not be the first)
    await page.locator(`[data-testid="request-row"][data-request-id="${r.id}"]`).waitFor();
    const rows = await page
      .getByTestId('request-row')
      .evaluateAll((els) => els.map((el) => ({ id: el.getAttribute('data-request-id'), at: el.querySelector('time')?.getAttribute('datetime') ?? '' })));
    const at = rows.map((x) => x.at);
    expect(at).toEqual([...at].sort().reverse());
    const mine = rows.findIndex((x) => x.id === r.id);
    expect(rows.slice(0, mine).every((x) => x.at >= rows[mine]!.at)).toBe(true);
    await shot(page, 'admin-desktop');

    await page.getByTestId('requests-search').fill(tag.toUpperCase());
    await page.locator('[data-testid="requests-total"]').filter({ hasText: '1 richiesta trovata' }).waitFor();
    const row = page.locator(`[data-request-id="${r.id}"]`);
    const text = (await row.textContent()) ?? '';
    for (const part of ['Elena', `Galli ${tag}`, `${tag}@example.it`, '275.000 €', 'Bergamo', 'BG', 'Nuova']) expect(text).toContain(part);
    const today = new Intl.DateTimeFormat('it-IT', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Rome' }).format(new Date());
    expect(await row.locator('time').textContent()).toMatch(new RegExp(`^${today.replaceAll('/', '\\/')} \\d{2}:\\d{2}$`));
    expect(await row.getByTestId('request-investigation').getAttribute('href')).toBe(`/investigation/${r.id}`);

    // expand
    const expand = row.getByTestId('request-expand');
    expect(await expand.getAttribute('aria-expanded')).toBe('false');
    await expand.click();
    expect(await expand.getAttribute('aria-expanded')).toBe('true');
    const details = page.getByTestId('request-details');
    await details.waitFor();
    for (const part of ['Superficie', '92 m²', 'Ascensore, Cantina, Doppi vetri', 'Bergamo (BG)', 'Buono', 'D (150-200 kWh/m² anno)']) {
      expect(await details.textContent()).toContain(part);
    }
    await page.getByTestId('slots-empty').waitFor();
    await details.getByTestId('assignee').filter({ hasText: 'Nessun utente assegnato' }).waitFor();

    // two images at once, a progress bar each
    const room = details.locator(`[data-room-id="${r.roomId}"]`);
    await room.getByTestId('room-media-input').setInputFiles([
      { name: 'soggiorno-1.png', mimeType: 'image/png', buffer: pngBytes(32, 24, [34, 61, 115]) },
      { name: 'soggiorno-2.png', mimeType: 'image/png', buffer: pngBytes(32, 24, [255, 102, 3]) },
    ]);
    await toast(page, 'Foto caricata con successo');
    await expect.poll(() => room.getByTestId('media-item').count()).toBe(2);
    await expect
      .poll(() => room.locator('img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth === 32).length))
      .toBe(2);
    await expectAccessible(page);
    await shot(page, 'admin-expanded');

    // delete one after confirming
    await room.getByTestId('media-item').first().getByTestId('media-delete').click();
    await page.getByRole('dialog').getByText('Eliminare la foto?').waitFor();
    await page.getByTestId('media-delete-confirm').click();
    await toast(page, 'Foto eliminata con successo');
    await expect.poll(() => room.getByTestId('media-item').count()).toBe(1);

    // assign: 'Nessun utente' refused, then the seller
    const seller = await api<{ id: string }>('GET', '/me', { token: await tokenForRole('seller') });
    await details.getByTestId('assign-open').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Assegna utente').first().waitFor();
    await page.getByTestId('assign-user').selectOption('');
    await page.getByTestId('assign-confirm').click();
    await dialog.getByText('Seleziona un utente da assegnare').waitFor();
    await page.locator(`[data-testid="assign-user"] option[value="${seller.body.id}"]`).waitFor({ state: 'attached' });
    await page.getByTestId('assign-user').selectOption(seller.body.id);
    await page.getByTestId('assign-confirm').click();
    await toast(page, 'Utente assegnato con successo');
    await details.getByTestId('assignee').filter({ hasText: 'venditore@demo.opzionecasa.it' }).waitFor();

    // delete the request: confirm disabled until 'elimina' (any case) is typed
    await row.getByTestId('request-delete').click();
    await page.getByRole('dialog').getByText('Eliminare la richiesta?').waitFor();
    const confirm = page.getByTestId('request-delete-confirm');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByTestId('request-delete-word').fill('elimin');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByTestId('request-delete-word').fill('ELIMINA');
    expect(await confirm.isDisabled()).toBe(false);
    await expectAccessible(page);
    await confirm.click();
    await toast(page, 'Richiesta eliminata con successo');
    await page.getByTestId('requests-empty').waitFor();
    expect((await api('GET', `/admin/properties/${r.id}`, { token: await tokenForRole('admin') })).status).toBe(404);
    await page.close();
  });

  it("shows the option's availability slots with long Italian dates", async () => {
    const tag = `slot${Date.now().toString(36)}`;
    const r = await submitRequest(tag);
    const T = stack().env.TABLE_NAME!;
    await ddb().send(new PutCommand({ TableName: T, Item: { ...keys.option(r.id), entity: 'option', id: newId(), propertyId: r.id, status: 'pending', createdAt: new Date().toISOString() } }));
    await ddb().send(new PutCommand({ TableName: T, Item: { ...keys.slot(r.id, '2026-12-01', 'a'), entity: 'slot', id: 'a', date: '2026-12-01', start: '09:00', end: '10:00', isBooked: false } }));
    await ddb().send(new PutCommand({ TableName: T, Item: { ...keys.slot(r.id, '2026-12-05', 'b'), entity: 'slot', id: 'b', date: '2026-12-05', start: '15:30:00', end: '16:30:00', isBooked: true } }));
    const page = await dashboard(tag);
    await page.getByTestId('request-row').first().getByTestId('request-expand').click();
    const slots = page.getByTestId('slots');
    await slots.waitFor();
    expect((await slots.locator('li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'Martedì 1 dicembre 2026, 09:00–10:00Disponibile',
      'Sabato 5 dicembre 2026, 15:30–16:30Prenotato',
    ]);
    await page.close();
  });

  it("pages with 'Carica altre' (50 at a time) and keeps the total", async () => {
    const tag = `pag${Date.now().toString(36)}`;
    const writer = new BatchWriter(ddb(), stack().env.TABLE_NAME!);
    const base = Date.now() - 60_000;
    for (let i = 0; i < 55; i++) {
      const id = newId();
      const createdAt = new Date(base + i * 100).toISOString();
      const person = { firstName: 'Paolo', lastName: `Neri ${tag} ${i}`, email: `${tag}.${i}@example.it`, city: 'Torino' };
      await writer.put({
        ...keys.property(id),
        ...keys.propertyIndexes({ createdAt }),
        entity: 'property',
        id,
        ...person,
        province: 'TO',
        address: `Via Po ${i + 1}`,
        desiredAmount: 200_000 + i * 1000,
        searchText: normalizeForSort(Object.values(person).join(' ')),
        createdAt,
        updatedAt: createdAt,
      });
    }
    await writer.flush();
    const page = await dashboard(tag);
    await page.locator('[data-testid="requests-total"]').filter({ hasText: '55 richieste trovate' }).waitFor();
    expect(await page.getByTestId('request-row').count()).toBe(50);
    // newest first: the last one seeded leads
    expect(await page.getByTestId('request-row').first().textContent()).toContain(`Neri ${tag} 54`);
    await page.getByTestId('requests-more').click();
    await expect.poll(() => page.getByTestId('request-row').count()).toBe(55);
    expect(await page.getByTestId('request-row').last().textContent()).toContain(`Neri ${tag} 0`);
    expect(await page.getByTestId('requests-more').count()).toBe(0);
    await page.close();
  });

  it('filters by state and period, finds a request by its phone; the URL keeps the filters', async () => {
    const tag = `fil${Date.now().toString(36)}`;
    const phone = `3${String(Date.now() % 1e9).padStart(9, '0')}`;
    const typed = `${phone.slice(0, 3)} ${phone.slice(3)}`;
    const r = await submitRequest(tag, { phone });
    const page = await dashboard();
    const total = page.getByTestId('requests-total');
    const row = page.locator(`[data-request-id="${r.id}"]`);

    await page.getByTestId('requests-state').selectOption('nuova');
    await page.waitForURL((u) => u.searchParams.get('state') === 'nuova');
    await page.getByTestId('requests-search').fill(typed);
    await total.filter({ hasText: '1 richiesta trovata' }).waitFor();
    await page.waitForURL((u) => u.searchParams.get('q') === typed);
    expect(await row.getByTestId('request-lifecycle').textContent()).toBe('Nuova');
    expect(await row.getByTestId('request-next-action').textContent()).toContain("Valutare l'immobile");
    // 'fonte-test' names no source: the row says so
    expect(await row.getByTestId('request-source').textContent()).toBe('Fonte eliminata');

    // another state: nothing; back to 'Nuova'
    await page.getByTestId('requests-state').selectOption('valutata');
    await page.getByTestId('requests-empty').waitFor();
    await page.getByTestId('requests-state').selectOption('nuova');
    await row.waitFor();

    // the period: today, chosen in the calendar
    await page.getByTestId('requests-period').click();
    const calendar = page.getByRole('dialog');
    await calendar.getByRole('button', { name: /^Oggi, / }).click();
    await page.getByTestId('requests-period-apply').click();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
    await page.waitForURL((u) => u.searchParams.get('from') === today && u.searchParams.get('to') === today);
    await total.filter({ hasText: '1 richiesta trovata' }).waitFor();
    // the count was 1 before the period too: the label is awaited, not read once
    await expect.poll(() => page.getByTestId('requests-period').textContent()).toMatch(/^Il \d{2}\/\d{2}\/\d{4}$/);

    // a reload keeps search and filters
    await page.reload();
    await total.filter({ hasText: '1 richiesta trovata' }).waitFor();
    expect(await page.getByTestId('requests-state').inputValue()).toBe('nuova');
    expect(await page.getByTestId('requests-search').inputValue()).toBe(typed);
    await expectAccessible(page);
    await shot(page, 'admin-filters-desktop');

    // to the Istruttoria and back: the same list
    await row.getByTestId('request-investigation').click();
    await page.waitForURL((u) => u.pathname === `/investigation/${r.id}`);
    await page.getByTestId('review-source').filter({ hasText: 'Fonte: Fonte eliminata' }).waitFor();
    await page.getByTestId('back-to-admin').click();
    await page.waitForURL((u) => u.pathname === '/admin' && u.searchParams.get('state') === 'nuova' && u.searchParams.get('q') === typed);
    await row.waitFor();

    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);
    await shot(page, 'admin-filters-390');

    await page.getByTestId('requests-reset').click();
    await page.waitForURL((u) => u.search === '');
    expect(await page.getByTestId('requests-search').inputValue()).toBe('');
    await page.close();
  });

  it("links the Istruttoria to its option and its agents' requests, and a request to its agent in Gestione Utenti", async () => {
    const option = await listedOption({ property: { address: `Via dei Collegamenti ${Date.now() % 100_000}` } });
    const agent = await freshAgent();
    const asked = await api('POST', `/agent/options/${option.propertyId}/requests`, { token: agent.token, body: { commissionPercentage: 3 } });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    const page = await admin.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${web()}/investigation/${option.propertyId}`);
    const links = page.getByRole('navigation', { name: 'Collegamenti della richiesta' });
    await links.waitFor();

    await links.getByRole('link', { name: 'Opzione di acquisto di questo immobile in Opzioni di Acquisto Attive' }).click();
    await page.waitForURL((u) => u.pathname === '/active-options' && u.searchParams.get('property') === option.propertyId);
    await page.getByTestId('options-property-filter').waitFor();
    await page.locator(`[data-testid="option-row"][data-property-id="${option.propertyId}"]`).waitFor();
    expect(await page.getByTestId('option-row').count()).toBe(1);
    await page.goBack();

    await links.getByRole('link', { name: 'Richieste degli agenti per questo immobile' }).click();
    await page.waitForURL((u) => u.pathname === '/active-options' && u.hash === '#agent-requests');
    const request = page.getByTestId('agent-request-row');
    await request.filter({ hasText: agent.email }).waitFor();
    expect(await request.count()).toBe(1);
    expect(await request.getByRole('link', { name: /^Istruttoria dell'immobile Via dei Collegamenti/ }).getAttribute('href')).toBe(`/investigation/${option.propertyId}`);
    await expectAccessible(page);
    await request.getByRole('link', { name: `${agent.name}, agente in Gestione Utenti` }).click();
    await page.waitForURL((u) => u.pathname === '/users' && u.hash === `#user-${agent.userId}`);
    const user = page.locator(`#user-${agent.userId}`);
    await user.waitFor();
    expect(await user.getAttribute('data-user-id')).toBe(agent.userId);
    await expect.poll(() => user.evaluate((el) => document.activeElement === el)).toBe(true);
    await page.close();
  });

  it('is usable and accessible at 390 px (rows become cards)', async () => {
    const tag = `mob${Date.now().toString(36)}`;
    await submitRequest(tag);
    const page = await dashboard();
    await page.setViewportSize(PHONE);
    await page.getByTestId('requests-search').fill(tag);
    await page.locator('[data-testid="requests-total"]').filter({ hasText: '1 richiesta trovata' }).waitFor();
    await page.getByTestId('request-row').first().getByTestId('request-expand').click();
    await page.getByTestId('request-details').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);
    await shot(page, 'admin-390');
    await page.close();
  });
});

describe('/admin (seller)', () => {
  it('answers "Accesso negato"', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, web(), stack().accounts.find((a) => a.role === 'seller')!, '/seller-dashboard');
    await page.goto(`${web()}/admin`);
    await page.getByText('Accesso negato').waitFor();
    await context.close();
  });
});
