/**
 * Seller area in Chromium, as a fresh seller (never the demo accounts): the dashboard card of
 * a linked property (fields, identity badge, /seller-kyc by id, with or without a link), the
 * empty state, the profile (read-only e-mail, name change), the side menu toggled with
 * Control+B and kept in its cookie, and the account deletion. axe on each page, at desktop
 * and at 390 px (screenshots in /tmp/seller-*.png).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { expectAccessible, launchBrowser, signedInContext, toastWith, saveShot } from '../support/browser';
import { idTokenFor, signUp, stack, uniqueEmail, useStackEnv } from '../support/helpers';
import { apiFrom, dossier, fullBody, newClientIp, newId, pngBytes, upload } from '../support/submission';

let browser: Browser;
const web = () => stack().webUrl!;
const TABLE = () => stack().env.TABLE_NAME!;
const PASSWORD = 'segreta1';
const PHONE = { width: 390, height: 844 };

async function freshSeller(name: string) {
  const email = uniqueEmail('e2e.venditore');
  const res = await signUp({ email, password: PASSWORD, name, userType: 'venditore' });
  return { sub: res.UserSub!, email, password: PASSWORD, name };
}

/** A wizard submission (one room with a photo) linked to the seller as the invitation claim does. */
async function linkedProperty(userId: string, overrides: Record<string, unknown>, opts: { withoutToken?: boolean } = {}): Promise<string> {
  const id = newId();
  const ip = newClientIp();
  const roomId = newId();
  const form = await upload(ip, id, roomId, 'soggiorno.png', 'image/png', pngBytes(4, 4));
  const res = await apiFrom(ip, 'POST', '/properties', { ...fullBody(id, [{ id: roomId, type: 'soggiorno', media: [{ key: form.key }] }]), ...overrides });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;
  const index = keys.sellerIndex(userId, item.createdAt as string);
  await ddb().send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: keys.property(id),
      UpdateExpression: `SET userId = :u, gsi1pk = :pk, gsi1sk = :sk${opts.withoutToken ? ' REMOVE invitationToken' : ''}`,
      ExpressionAttributeValues: { ':u': userId, ':pk': index.gsi1pk, ':sk': index.gsi1sk },
    }),
  );
  return id;
}

const menu = (page: Page) => page.getByRole('navigation', { name: 'Menu Venditore' });

async function dashboard(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${web()}/seller-dashboard`);
  await page.getByRole('heading', { level: 1, name: 'Le mie richieste' }).waitFor();
  await page.locator('[data-testid="seller-properties"], [data-testid="seller-dashboard-empty"]').first().waitFor();
  return page;
}

beforeAll(async () => {
  useStackEnv();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('seller area', () => {
  it('shows the empty dashboard to a seller without requests', async () => {
    const seller = await freshSeller(`Venditore Vuoto ${Date.now().toString(36)}`);
    const context = await signedInContext(browser, web(), seller, '/seller-dashboard');
    const page = await dashboard(context);
    await page.getByTestId('seller-dashboard-empty').getByText('Nessuna richiesta trovata').waitFor();
    expect(await page.getByRole('link', { name: 'Torna alla Home' }).getAttribute('href')).toBe('/');
    await expectAccessible(page);
    await context.close();
  });

  it('dashboard card, profile, Control+B side menu and account deletion', async () => {
    const seller = await freshSeller(`Venditore E2E ${Date.now().toString(36)}`);
    const withToken = await linkedProperty(seller.sub, { address: 'Via Carlo Goldoni 7', city: 'Milano', province: 'MI', surfaceArea: 85 });
    const withoutToken = await linkedProperty(seller.sub, { address: 'Piazza Duomo 1' }, { withoutToken: true });
    const token = ((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(withToken) }))).Item!.invitationToken) as string;

    const context = await signedInContext(browser, web(), seller, '/seller-dashboard');
    const page = await dashboard(context);

    // cards, newest first: address, city, province, type, m², date, identity badge
    const cards = page.getByTestId('seller-property');
    expect(await cards.count()).toBe(2);
    expect(await cards.first().getAttribute('data-property-id')).toBe(withoutToken);
    const card = page.locator(`[data-testid="seller-property"][data-property-id="${withToken}"]`);
    const text = (await card.textContent()) ?? '';
    for (const part of ['Via Carlo Goldoni 7', 'Milano (MI)', 'Appartamento', '85 m²', 'Valore desiderato']) expect(text).toContain(part);
    const today = new Intl.DateTimeFormat('it-IT', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Rome' }).format(new Date());
    expect(await card.locator('time').textContent()).toBe(today);
    expect(await card.getByTestId('seller-property-identity').textContent()).toContain('Da completare');
    // 'Nuova Richiesta': the wizard in a large dialog, closed with Escape
    await page.getByTestId('seller-new-request').click();
    const newRequest = page.getByRole('dialog', { name: 'Nuova Richiesta' });
    await newRequest.getByTestId('wizard').waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await newRequest.waitFor({ state: 'hidden' });
    await expectAccessible(page);
    await saveShot(page, 'seller', 'seller-dashboard-desktop');

    // no invitation link at all: the owner's card opens the onboarding all the same, by id
    await page.locator(`[data-testid="seller-property"][data-property-id="${withoutToken}"]`).click();
    await page.waitForURL((u) => u.pathname === '/seller-kyc' && u.searchParams.get('property') === withoutToken);
    await page.getByTestId('kyc-welcome').waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Le mie richieste' }).waitFor();

    // the side menu: Control+B hides it, the cookie keeps it hidden after a reload, Control+B shows it again
    await menu(page).waitFor();
    await page.keyboard.press('Control+b');
    await menu(page).waitFor({ state: 'hidden' });
    expect((await context.cookies()).find((c) => c.name === 'sidebar_state')?.value).toBe('false');
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state')!;
    expect(cookie.expires * 1000 - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Le mie richieste' }).waitFor();
    expect(await menu(page).isVisible()).toBe(false);
    await page.keyboard.press('Control+b');
    await menu(page).waitFor();
    expect((await context.cookies()).find((c) => c.name === 'sidebar_state')?.value).toBe('true');

    // the card opens the onboarding by the property's id, never by its link
    await card.click();
    await page.waitForURL((u) => u.pathname === '/seller-kyc' && u.searchParams.get('property') === withToken);
    expect(page.url()).not.toContain(token);

    // 390 px: dashboard
    const phone = await context.newPage();
    await phone.setViewportSize(PHONE);
    await phone.goto(`${web()}/seller-dashboard`);
    await phone.getByTestId('seller-property').first().waitFor();
    await expectAccessible(phone);
    await saveShot(phone, 'seller', 'seller-dashboard-390');

    // profile: read-only e-mail, name required, name change
    await page.goto(`${web()}/seller-profile`);
    await page.getByRole('heading', { level: 1, name: 'Il mio profilo' }).waitFor();
    const email = page.getByTestId('seller-profile-email');
    expect(await email.inputValue()).toBe(seller.email);
    expect(await email.getAttribute('readonly')).not.toBeNull();
    const name = page.getByTestId('seller-profile-name');
    expect(await name.inputValue()).toBe(seller.name);
    await expectAccessible(page);
    await saveShot(page, 'seller', 'seller-profile-desktop');
    await name.fill('   ');
    await page.getByTestId('seller-profile-save').click();
    await page.getByText('Il nome è obbligatorio').waitFor();
    await name.fill('Giovanna Nuova');
    await page.getByTestId('seller-profile-save').click();
    await toastWith(page, 'Profilo aggiornato').waitFor();
    await page.reload();
    await expect.poll(() => page.getByTestId('seller-profile-name').inputValue()).toBe('Giovanna Nuova');

    await phone.goto(`${web()}/seller-profile`);
    await phone.getByTestId('seller-profile-name').waitFor();
    await expectAccessible(phone);
    await saveShot(phone, 'seller', 'seller-profile-390');
    await phone.close();

    // account deletion: the dialog lists what goes and what stays; then signed out, on the home page
    await page.getByTestId('seller-delete-open').click();
    const dialog = page.getByRole('dialog', { name: "Eliminare definitivamente l'account?" });
    await dialog.waitFor();
    const listed = (await dialog.getByTestId('seller-delete-list').textContent()) ?? '';
    for (const part of ['profilo', 'immobili', "verifiche d'identità", 'comproprietari', 'deleghe', 'documenti', 'accesso']) expect(listed).toContain(part);
    // no signed option: the full case, and what stays (the sent mails' copies, 30 days)
    expect(await dialog.getByTestId('seller-delete-plan').getAttribute('data-case')).toBe('full');
    expect((await dialog.getByTestId('seller-delete-kept').textContent()) ?? '').toContain('per 30 giorni');
    await expectAccessible(page);
    await dialog.getByTestId('seller-delete-confirm').click();
    await toastWith(page, 'Account eliminato').waitFor();
    await page.waitForURL((u) => u.pathname === '/');

    expect(await dossier(withToken)).toEqual([]);
    expect(await dossier(withoutToken)).toEqual([]);
    await expect(idTokenFor(seller.email, PASSWORD)).rejects.toThrow();
    await context.close();
  });
});
