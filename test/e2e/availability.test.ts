/**
 * /availability/{token} in Chromium. A seller with a signed option without keys gets the
 * admin's e-mail with the availability link (local mail store); opened without a session it
 * leads to /seller-register, where the seller signs in and comes back to the page; two days
 * get slots (one invalid time first), the save toasts 'Disponibilità salvate con successo!',
 * the month's quota shades the calendar green; the admin sees the slots in the dashboard's
 * expanded row. With the link expired, the owner opens the page from the dashboard by id. An
 * unknown link shows 'Link non valido'. axe at desktop and at 390 px;
 * screenshots in the temp folder (availability-shots).
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { AVAILABILITY_MESSAGES, todayInRome } from '../../functions/domain/availability';
import { formatSlotDate } from '../../functions/domain/format';
import { newToken } from '../../functions/model/tokens';
import { DESKTOP, expectAccessible, launchBrowser, newPage, signedInContext, toastWith, saveShot } from '../support/browser';
import { api, sentMail, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { freshSeller, giveProperty, SELLER_PASSWORD, type Seller } from '../support/seller';
import { apiFrom, fullBody, newClientIp, newId } from '../support/submission';
import { markSigned } from '../support/option';

const web = () => stack().webUrl!;
const TABLE = () => stack().env.TABLE_NAME!;
const PHONE = { width: 390, height: 844 };
let browser: Browser;

const shot = (page: Page, name: string) => saveShot(page, 'availability', name);

/** A day of next month (always in the future and in the calendar's range). */
function nextMonthDay(day: number): string {
  const [y, m] = todayInRome().split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, day)).toISOString().slice(0, 10);
}

/**
 * The seller's request with a signed option without keys (the onboarding's identity and
 * delegation written as it leaves them, the option created by the admin's route, its
 * signature recorded), then the admin's "Invio Link Disponibilità": answers the link path
 * the e-mail carries.
 */
async function signedOptionLink(seller: Seller): Promise<{ propertyId: string; linkPath: string }> {
  const propertyId = newId();
  const res = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(propertyId), firstName: 'Marco', lastName: 'Conti', email: seller.email, address: 'Via Carlo Goldoni 7' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await giveProperty(propertyId, seller.userId);
  const at = new Date().toISOString();
  await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(propertyId), entity: 'identity', propertyId, status: 'verified', documentType: 'carta_identita', verifiedAt: at } }));
  await ddb().send(
    new PutCommand({
      TableName: TABLE(),
      Item: { ...keys.delegation(propertyId, 'catasto'), entity: 'delegation', propertyId, type: 'catasto', province: 'MI', municipality: 'Milano', documentKey: `${propertyId}/documents/delega-catasto.pdf`, signedAt: at },
    }),
  );
  const admin = await tokenForRole('admin');
  const option = { propertyValue: 300_000, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 3 };
  const created = await api('POST', `/admin/properties/${propertyId}/option`, { token: admin, body: option });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await markSigned(propertyId, at);
  const sent = await api('POST', `/admin/properties/${propertyId}/option/availability-link`, { token: admin, body: {} });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const mail = (await sentMail()).find((m) => m.destination.to.includes(seller.email) && m.body.text?.includes('/availability/'));
  const linkPath = /\/availability\/[A-Za-z0-9_-]+/.exec(mail?.body.text ?? '')?.[0];
  if (!linkPath) throw new Error(`no availability link in the e-mail to ${seller.email}`);
  return { propertyId, linkPath };
}

/** Stacked toasts are drawn faded behind the front one: axe runs once they are gone. */
const noToasts = (page: Page) => expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 15_000 }).toBe(0);

const day = (page: Page, date: string) => page.locator(`[data-day="${date}"] button`);
const editor = (page: Page, date: string) => page.locator(`[data-testid="availability-day"][data-date="${date}"]`);

beforeAll(async () => {
  useStackEnv();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('/availability/{token}', () => {
  it('from the e-mail: sign-in through /seller-register, two days of slots saved, the quota shaded, the slots in the admin dashboard', async () => {
    const seller = await freshSeller('Marco Conti');
    const { propertyId, linkPath } = await signedOptionLink(seller);

    // not signed in on this browser: the link leads to the seller sign-up page, which says what it is for
    const { context, page } = await newPage(browser);
    page.setDefaultTimeout(20_000);
    await page.goto(`${web()}${linkPath}`);
    await page.waitForURL((u) => u.pathname === '/seller-register' && u.searchParams.get('token') === linkPath.split('/').pop());
    await toastWith(page, 'Accesso richiesto').first().waitFor();
    await page.getByTestId('seller-register-intro').filter({ hasText: 'Registrati o accedi per inserire le tue disponibilità per le visite' }).waitFor();
    await page.getByTestId('tab-seller-login').click();
    await page.getByTestId('seller-login-email').fill(seller.email);
    await page.getByTestId('seller-login-password').fill(SELLER_PASSWORD);
    await page.getByTestId('seller-login-submit').click();
    // back to the link, not claimed as an invitation; its first arrival only: the page goes on by the property's id
    await page.waitForURL((u) => u.pathname === `/seller-availability/${propertyId}`);
    await page.getByRole('heading', { level: 1, name: 'Le tue disponibilità' }).waitFor();
    expect(await page.getByTestId('availability-address').textContent()).toBe('Via Carlo Goldoni 7, Milano');
    await page.getByTestId('availability-legend').getByText('Mese con la quota raggiunta (almeno 3 slot)').waitFor();
    expect(await page.getByTestId('availability-save').isDisabled()).toBe(true);
    // past days cannot be chosen
    const yesterday = new Date(Date.parse(`${todayInRome()}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    if (yesterday.slice(0, 7) === todayInRome().slice(0, 7)) expect(await day(page, yesterday).isDisabled()).toBe(true);
    await expectAccessible(page);

    // two days of next month
    const a = nextMonthDay(10);
    const b = nextMonthDay(17);
    await page.getByRole('button', { name: 'Vai al mese successivo' }).click();
    await day(page, a).click();
    await day(page, b).click();
    expect(await editor(page, a).getByRole('heading').textContent()).toBe(formatSlotDate(a));
    // new slots start as 09:00-10:00
    expect(await editor(page, a).getByTestId('slot-start').inputValue()).toBe('09:00');
    expect(await editor(page, a).getByTestId('slot-end').inputValue()).toBe('10:00');
    await editor(page, a).getByTestId('slot-add').click();
    await editor(page, a).getByTestId('slot-start').nth(1).selectOption('15:00');
    await editor(page, a).getByTestId('slot-end').nth(1).selectOption('14:00');
    // a day without slots cannot be saved
    await editor(page, b).getByTestId('slot-remove').click();
    await page.getByTestId('availability-save').click();
    await editor(page, b).getByText(AVAILABILITY_MESSAGES.atLeastOneSlot).waitFor();
    await editor(page, b).getByTestId('slot-add').click();
    await editor(page, b).getByTestId('slot-start').selectOption('11:00');
    await editor(page, b).getByTestId('slot-end').selectOption('12:30');
    expect(await page.getByTestId('availability-summary').textContent()).toBe('2 giorni selezionati, 3 slot');
    await page.getByTestId('availability-save').click();
    await editor(page, a).getByText(AVAILABILITY_MESSAGES.endAfterStart).waitFor();
    await editor(page, a).getByTestId('slot-end').nth(1).selectOption('16:00');
    await noToasts(page);
    await expectAccessible(page);
    await shot(page, 'availability-editing-desktop');

    await page.getByTestId('availability-save').click();
    await toastWith(page, AVAILABILITY_MESSAGES.saved).first().waitFor();
    await page.getByTestId('availability-no-days').waitFor();
    expect(await page.getByTestId('availability-save').isDisabled()).toBe(true);
    const saved = page.getByTestId('availability-saved-day');
    expect((await saved.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      `${formatSlotDate(a)}09:00–10:00Disponibile15:00–16:00Disponibile`,
      `${formatSlotDate(b)}11:00–12:30Disponibile`,
    ]);
    // three slots in the month: its quota is reached, shaded green and said in words
    await expect.poll(() => page.getByTestId('availability-month-quota').textContent()).toContain('3 su almeno 3 (quota raggiunta)');
    expect(await page.locator(`[data-day="${nextMonthDay(20)}"]`).getAttribute('class')).toContain('day-quota');
    expect(await day(page, a).getAttribute('aria-label')).toMatch(/disponibilità salvate, quota del mese raggiunta$/);
    await shot(page, 'availability-saved-toast');
    await noToasts(page);
    await expectAccessible(page);
    await shot(page, 'availability-saved-desktop');

    // a saved day opens with its slots, to change them
    await day(page, b).click();
    expect(await editor(page, b).getByTestId('slot-start').inputValue()).toBe('11:00');
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);
    await shot(page, 'availability-390');
    await context.close();

    // the admin's dashboard row lists them
    const admin = await signedInContext(browser, web(), stack().accounts.find((x) => x.role === 'admin')!, '/admin');
    const list = await admin.newPage();
    list.setDefaultTimeout(20_000);
    await list.goto(`${web()}/admin`);
    await list.getByTestId('requests-search').fill(seller.email);
    const row = list.locator(`[data-request-id="${propertyId}"]`);
    await row.getByTestId('request-expand').click();
    const slots = list.getByTestId('slots');
    await slots.waitFor();
    expect((await slots.locator('li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      `${formatSlotDate(a)}, 09:00–10:00Disponibile`,
      `${formatSlotDate(a)}, 15:00–16:00Disponibile`,
      `${formatSlotDate(b)}, 11:00–12:30Disponibile`,
    ]);
    await shot(list, 'availability-admin-row');
    await admin.close();
  });

  it('the owner is never locked out: with the link expired, the dashboard opens the page by id', async () => {
    const seller = await freshSeller('Sara Galli');
    const { propertyId, linkPath } = await signedOptionLink(seller);
    const token = linkPath.split('/').pop()!;
    await ddb().send(
      new UpdateCommand({ TableName: TABLE(), Key: keys.availabilityToken(token), UpdateExpression: 'SET expiresAt = :e', ExpressionAttributeValues: { ':e': Math.floor(Date.now() / 1000) - 60 } }),
    );
    const context = await signedInContext(browser, web(), { email: seller.email, password: SELLER_PASSWORD }, '/seller-dashboard');
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.setViewportSize(PHONE);
    // the e-mail's link no longer opens anything, and says where to go
    await page.goto(`${web()}${linkPath}`);
    await page.getByTestId('availability-invalid').getByRole('link', { name: 'Le mie richieste' }).click();
    await page.waitForURL((u) => u.pathname === '/seller-dashboard');
    const button = page.getByTestId('seller-property-availability');
    await button.waitFor();
    await expectAccessible(page);
    await shot(page, 'dashboard-availability-390');
    await button.click();
    await page.waitForURL((u) => u.pathname === `/seller-availability/${propertyId}`);
    await page.getByRole('heading', { level: 1, name: 'Le tue disponibilità' }).waitFor();
    expect(await page.getByTestId('availability-address').textContent()).toBe('Via Carlo Goldoni 7, Milano');
    const date = nextMonthDay(12);
    await page.getByRole('button', { name: 'Vai al mese successivo' }).click();
    await day(page, date).click();
    await page.getByTestId('availability-save').click();
    await toastWith(page, AVAILABILITY_MESSAGES.saved).first().waitFor();
    await shot(page, 'availability-by-id-390');
    await context.close();
  });

  it("an unknown link: 'Link non valido' with the way home", async () => {
    const seller = await freshSeller();
    const context = await signedInContext(browser, web(), { email: seller.email, password: SELLER_PASSWORD }, '/seller-dashboard');
    const page = await context.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(`${web()}/availability/${newToken()}`);
    const invalid = page.getByTestId('availability-invalid');
    await invalid.getByRole('heading', { name: AVAILABILITY_MESSAGES.invalidLinkTitle }).waitFor();
    await invalid.getByText(AVAILABILITY_MESSAGES.invalidLink).waitFor();
    await invalid.getByRole('link', { name: 'Home' }).waitFor();
    expect(await invalid.getByRole('link', { name: 'Le mie richieste' }).getAttribute('href')).toBe('/seller-dashboard');
    await expectAccessible(page);
    await shot(page, 'availability-invalid');
    await context.close();
  });
});
