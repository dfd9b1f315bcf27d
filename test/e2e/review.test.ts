/**
 * Istruttoria Immobile and Opzioni di Acquisto Attive in Chromium, as the admin: open a
 * submitted property, recalculate the valuation with another discount, send the estimate
 * (the mail lands in the local store with a registration link), see step 3, create the
 * option once the seller side is complete, receive the signature while polling (or from a
 * reload of the dossier that learns of it first), then edit the option from /active-options. axe at desktop and at 390 px; screenshots in the temp folder.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { DESKTOP, expectAccessible, launchBrowser, signedInContext, toastWith, waitForOrExplain, watchPage, saveShot } from '../support/browser';
import { markSigned } from '../support/option';
import { api, sentMail, stack, tokenForRole, uniqueEmail, useStackEnv } from '../support/helpers';
import { catastoDelegation, freshSeller, ownedProperty } from '../support/seller';
import { checkIdentity } from '../support/identity';
import { facePhoto, REVIEW_BAND_PERSON, reviewBandCard } from '../support/faces';
import { IDENTITY_MESSAGES } from '../../functions/domain/identity';
import { apiFrom, fullBody, newClientIp, newId } from '../support/submission';
import { importOmi } from '../support/omi-import';
import { MILANO } from '../support/omi-samples';

const PHONE = { width: 390, height: 844 };
/** element screenshots scroll under the sticky header: hide it for the picture */
const HIDE_STICKY_HEADER = 'header { visibility: hidden !important; }';
let browser: Browser;
let admin: BrowserContext;
const web = () => stack().webUrl!;
const TABLE = () => stack().env.TABLE_NAME!;
const toast = (page: Page, text: string) => toastWith(page, text).first();

const shot = (page: Page, name: string) => saveShot(page, 'review', name);

async function submitted(): Promise<{ id: string; email: string }> {
  const id = newId();
  const email = uniqueEmail('venditore');
  const res = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(id), email });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id, email };
}

async function reviewPage(id: string, viewport = DESKTOP): Promise<Page> {
  const page = await admin.newPage();
  await page.setViewportSize(viewport);
  page.setDefaultTimeout(20_000);
  await page.goto(`${web()}/investigation/${id}`);
  await page.getByRole('heading', { level: 1, name: 'Istruttoria Immobile' }).waitFor();
  return page;
}

beforeAll(async () => {
  useStackEnv();
  await importOmi(MILANO.valori2025, '2025-S1');
  await importOmi(MILANO.zone2025, '2025-S1');
  // a second semester: the valuation's zone history has two points to draw
  await importOmi(MILANO.valori2024, '2024-S2');
  browser = await launchBrowser();
  admin = await signedInContext(browser, web(), stack().accounts.find((a) => a.role === 'admin')!, '/admin');
});
afterAll(async () => {
  await admin?.close();
  await browser?.close();
});

describe('Istruttoria Immobile (admin)', () => {
  it('valuation, estimate, option and signature, then the option edited from /active-options', async () => {
    const { id, email } = await submitted();
    const page = await reviewPage(id);
    await page.getByTestId('review-address').getByText('Via Giuseppe Verdi 12, Milano (MI)').waitFor();
    expect(await page.getByTestId('review-badge').textContent()).toBe('In Corso');
    // the submission's valuation counts: step 2
    expect(await page.getByTestId('review-steps').getAttribute('data-step')).toBe('2');
    await page.getByTestId('valuation-result').waitFor();
    expect(await page.getByTestId('valuation-history-row').count()).toBe(1);
    // pre-checks: floor 3, terrace, lift -> no correction checked
    expect(await page.getByTestId('valuation-applyGroundFloorCorrection').isChecked()).toBe(false);
    expect(await page.getByTestId('valuation-applyNoBalconyCorrection').isChecked()).toBe(false);
    expect(await page.getByTestId('valuation-applyNoElevatorCorrection').isChecked()).toBe(false);
    expect(await page.getByTestId('valuation-discount').inputValue()).toBe('-10');
    await page.getByText('Terrazzo: +5%').first().waitFor();
    await page.getByTestId('valuation-hint').getByText('Ricalcola').waitFor();
    const before = await page.getByTestId('valuation-adjusted').textContent();
    // the zone's price history: the band drawn, the changes in words, the same figures as a table
    const trend = page.getByTestId('valuation-trend');
    await trend.getByTestId('valuation-trend-chart').locator('svg.recharts-surface path.recharts-area-area').waitFor();
    expect(await trend.getByTestId('valuation-trend-chart').getAttribute('aria-hidden')).toBe('true');
    expect(await trend.getByTestId('valuation-trend-changes').textContent()).toContain('Dal primo semestre disponibile (dal 2024-S2 al 2025-S1)');
    await trend.getByText('Valori per semestre in tabella').click();
    const trendTable = trend.getByRole('table');
    expect(await trendTable.locator('caption').textContent()).toContain('quotazioni in euro al metro quadro per semestre');
    expect(await trendTable.locator('tbody th[scope="row"]').allTextContents()).toEqual(['2024-S2', '2025-S1']);
    expect(await trendTable.locator('thead th[scope="col"]').count()).toBe(4);
    // no smooth scrolling (the element screenshot scrolls to it) and no tooltip under the pointer
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.mouse.move(0, 0);
    await saveShot(trend, 'review', 'review-price-trend', { style: HIDE_STICKY_HEADER });
    await page.emulateMedia({ reducedMotion: null });
    await expectAccessible(page);

    // bad discount: the Italian message, nothing sent
    await page.getByTestId('valuation-discount').fill('-60');
    await page.getByTestId('valuation-run').click();
    await page.getByText('Il ribasso prudenziale deve essere tra -50 e 0').waitFor();

    await page.getByTestId('valuation-discount').fill('-20');
    await page.getByTestId('valuation-run').click();
    await toast(page, 'Valutazione completata').waitFor();
    await expect.poll(() => page.getByTestId('valuation-history-row').count()).toBe(2);
    await expect.poll(() => page.getByTestId('valuation-adjusted').textContent()).not.toBe(before);
    expect(await page.getByTestId('valuation-history-row').first().textContent()).toContain('-20%');
    expect(await page.getByTestId('valuation-discount').inputValue()).toBe('-20');
    // another zone of the comune
    const zone = await page.getByTestId('valuation-zone').textContent();
    const other = await page.getByTestId('valuation-zone-select').locator('option').nth(2).getAttribute('value');
    await page.getByTestId('valuation-zone-select').selectOption(other!);
    await page.getByTestId('valuation-run').click();
    await expect.poll(() => page.getByTestId('valuation-history-row').count()).toBe(3);
    await expect.poll(() => page.getByTestId('valuation-zone').textContent()).not.toBe(zone);
    expect(await page.getByTestId('valuation-zone-select').inputValue()).toBe(other);
    await shot(page, 'review-step1-desktop');

    // step 2: the estimate e-mail
    await page.getByTestId('estimate-send').click();
    await toast(page, 'Email inviata').waitFor();
    await page.getByTestId('estimate-sent').waitFor();
    await expect.poll(() => page.getByTestId('review-steps').getAttribute('data-step')).toBe('3');
    const mail = (await sentMail()).find((m) => m.destination.to.includes(email));
    expect(mail?.subject).toContain('La valutazione del tuo immobile');
    const token = /\/seller-register\?token=([A-Za-z0-9_-]+)/.exec(mail?.body.text ?? '')?.[1];
    expect(token).toBeTruthy();
    expect(mail?.body.text).toContain('-20%');

    // step 3: locked until the seller side is complete
    await page.getByTestId('option-locked').getByText("L'identità del venditore non è ancora verificata").waitFor();
    await page.reload();
    await page.getByTestId('estimate-sent').waitFor(); // restored from emailSentAt
    const at = new Date().toISOString();
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', fullName: 'Giulia Bianchi', verifiedAt: at } }));
    await ddb().send(
      new PutCommand({ TableName: TABLE(), Item: { ...keys.delegation(id, 'catasto'), entity: 'delegation', propertyId: id, type: 'catasto', province: 'MI', municipality: 'Milano', documentKey: `${id}/documents/delega-catasto.pdf`, signedAt: at } }),
    );
    await page.reload();
    await page.getByTestId('option-form').waitFor();
    expect(await page.getByTestId('identity-status').textContent()).toBe('Verificata');
    expect(await page.getByTestId('delegation-catasto').textContent()).toContain('Firmata il');
    expect(await page.getByTestId('delegation-urbanistica').textContent()).toContain('Non presente');
    const value = Number(await page.getByTestId('option-value').inputValue());
    expect(value).toBeGreaterThan(0);
    await page.getByTestId('option-value').fill('300000');
    // the seller's duration (6 months, the default) preselected: the simulator's 700 per 100.000
    expect(await page.getByTestId('option-duration').inputValue()).toBe('6');
    await expect.poll(() => page.getByTestId('option-amount-preview').textContent()).toMatch(/2\.100/);
    await page.getByTestId('option-duration').selectOption('8');
    await expect.poll(() => page.getByTestId('option-amount-preview').textContent()).toMatch(/3\.000/);
    expect(await page.getByTestId('option-amount-label').textContent()).toBe("Importo dell'opzione (1.000 € ogni 100.000 €, 8 mesi)");
    await expectAccessible(page);
    await page.getByTestId('option-create').click();
    await toast(page, 'Successo').waitFor();
    await page.getByTestId('option-summary').waitFor();
    expect(await page.getByTestId('review-badge').textContent()).toBe('Opzione Stipulata');
    await page.getByTestId('option-waiting').waitFor();
    await page.getByTestId('option-pdf').waitFor();
    expect(await page.getByTestId('option-amount').textContent()).toBe('3.000 €');
    expect(await page.getByTestId('option-expiry').textContent()).toBe('8 mesi dalla firma');

    await page.getByTestId('option-notify').click();
    await toast(page, 'Notifica inviata!').waitFor();

    // the seller signs: the poll (every 5 s) notices, toasts for 10 s and reloads
    await markSigned(id);
    await toast(page, 'Documento Firmato Ricevuto!').waitFor({ timeout: 15_000 });
    await page.getByTestId('option-signed').waitFor();
    await page.getByTestId('availability-panel').getByText('Invio Link Disponibilità').waitFor();
    await page.getByTestId('availability-send').click();
    await toast(page, 'Link inviato').waitFor();
    await expectAccessible(page);
    await shot(page, 'review-step3-desktop');

    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);
    await shot(page, 'review-390');
    await page.mouse.move(0, 0);
    await saveShot(page.getByTestId('valuation-trend'), 'review', 'review-price-trend-390', { style: HIDE_STICKY_HEADER });
    await page.close();

    // /active-options: the new option first, edited through the dialog
    const list = await admin.newPage();
    list.setDefaultTimeout(20_000);
    const calls = watchPage(list);
    await list.goto(`${web()}/active-options`);
    await list.getByRole('heading', { level: 1, name: 'Opzioni di Acquisto Attive' }).waitFor();
    const row = list.locator(`[data-testid="option-row"][data-property-id="${id}"]`);
    await row.waitFor();
    // (newest first is the list's order, tested against the API in test/integration/options.test.ts: other
    // browser files create options at the same time, so this one need not be the first row here)
    expect(await row.textContent()).toContain('Giulia Bianchi');
    expect(await row.getByTestId('option-payment').textContent()).toBe('Rateale');
    expect(await row.getByTestId('option-sale-price').textContent()).toMatch(/330\.000/);
    expect(await row.getByTestId('option-state').textContent()).toBe('Firmata');
    await expectAccessible(list);
    await row.getByTestId('option-edit').click();
    const dialog = list.getByRole('dialog');
    await dialog.getByText('Modifica Opzione di Acquisto').waitFor();
    await list.getByTestId('edit-option-sale').fill('120');
    await list.getByTestId('edit-option-save').click();
    await waitForOrExplain(dialog.getByText('La percentuale di vendita deve essere tra 0 e 100'), { timeout: 20_000, shown: dialog, calls });
    await list.getByTestId('edit-option-sale').fill('12.5');
    await expectAccessible(list);
    await list.getByTestId('edit-option-save').click();
    await toast(list, 'Opzione aggiornata con successo').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => row.getByTestId('option-sale-pct').textContent()).toBe('12,5%');
    expect(await row.getByTestId('option-state').textContent()).toBe('Firmata');
    expect(await row.getByTestId('option-sale-price').textContent()).toMatch(/337\.500/);
    await shot(list, 'options-desktop');
    await list.setViewportSize(PHONE);
    expect(await list.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(list);
    await shot(list, 'options-390');
    await row.getByTestId('option-details').click();
    await list.waitForURL((u) => u.pathname === `/investigation/${id}`);

    // the state moves by its actions: cancelling asks a reason, then the badge and the history follow
    await list.getByTestId('option-action-cancel').click();
    const cancel = list.getByRole('dialog');
    await cancel.getByText("L'opzione viene chiusa").waitFor();
    await list.getByTestId('option-action-confirm').click();
    await cancel.getByText("Scrivi il motivo dell'annullamento (almeno 5 caratteri)").waitFor();
    await expectAccessible(list);
    await list.getByTestId('option-cancel-reason').fill('Il venditore ha rinunciato alla vendita');
    await list.getByTestId('option-action-confirm').click();
    await toast(list, 'Opzione annullata').waitFor();
    await expect.poll(() => list.getByTestId('option-summary').getByTestId('option-state').textContent()).toBe('Annullata');
    expect(await list.getByTestId('option-actions').count()).toBe(0);
    const history = list.getByTestId('review-activity');
    await history.locator('[data-kind="option.cancel"]').getByText('Il venditore ha rinunciato alla vendita').waitFor();
    expect(await history.locator('[data-kind="option.cancel"]').getByTestId('activity-transition').textContent()).toBe('Firmata → Annullata');
    await history.locator('[data-kind="option.updated"]').first().waitFor();
    await list.setViewportSize({ width: 1280, height: 900 });
    await history.scrollIntoViewIfNeeded();
    await shot(list, 'review-activity-desktop');
    // the admins' feed
    await list.goto(`${web()}/activity`);
    await list.getByRole('heading', { level: 1, name: 'Attività' }).waitFor();
    await list.locator('[data-kind="option.cancel"]').first().waitFor();
    await expectAccessible(list);
    await list.setViewportSize(PHONE);
    expect(await list.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(list, 'activity-390');
    await list.close();
  });

  it('announces the signature when a reload of the dossier learns of it before the poll', async () => {
    // a property ready for its option (identity verified, a delegation signed), the option created, not signed
    const { id } = await submitted();
    const at = new Date().toISOString();
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', fullName: 'Anna Neri', verifiedAt: at } }));
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: catastoDelegation(id, at) }));
    const option = { propertyValue: 250_000, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 3 };
    const created = await api('POST', `/admin/properties/${id}/option`, { token: await tokenForRole('admin'), body: option });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const page = await reviewPage(id);
    await page.getByTestId('option-waiting').waitFor();
    // the poll's answers wait until the end; the dossier reload that the notification triggers
    // reaches the backend only once the seller has signed
    let releasePoll!: () => void;
    const pollReleased = new Promise<void>((r) => (releasePoll = r));
    let signedNow!: () => void;
    const signed = new Promise<void>((r) => (signedNow = r));
    const apiPath = `/api/admin/properties/${id}`;
    await page.route(
      (url) => url.pathname === `${apiPath}/option` || url.pathname === apiPath,
      async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        await (new URL(route.request().url()).pathname === apiPath ? signed : pollReleased);
        await route.continue().catch(() => undefined); // the page may have moved on
      },
    );
    await page.getByTestId('option-notify').click();
    await toast(page, 'Notifica inviata!').waitFor();
    await markSigned(id);
    signedNow();
    await toast(page, 'Documento Firmato Ricevuto!').waitFor({ timeout: 15_000 });
    await page.getByTestId('option-signed').waitFor();
    releasePoll();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.close();
  });

  it('answers "Immobile non trovato" for an unknown property, with the way back to /admin', async () => {
    const page = await admin.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${web()}/investigation/${newId()}`);
    await page.getByTestId('review-not-found').getByText('Immobile non trovato').waitFor();
    await page.getByTestId('back-to-admin').click();
    await page.waitForURL((u) => u.pathname === '/admin');
    await page.close();
  });
});

describe('Verifiche di identità da controllare (admin)', () => {
  it('approves a check from the queue with a reason; a page kept open while the seller checks again decides nothing', async () => {
    const seller = await freshSeller();
    const inReview = async () => {
      const id = await ownedProperty(seller.userId);
      const res = await checkIdentity(seller.token, id, facePhoto(REVIEW_BAND_PERSON), await reviewBandCard({ number: 'CA00000AA' }));
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 'review' });
      return id;
    };
    const [first, second] = [await inReview(), await inReview()];
    const page = await admin.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${web()}/identity-reviews`);
    await page.getByRole('heading', { level: 1, name: 'Verifiche di identità da controllare' }).waitFor();
    const item = (id: string) => page.locator(`[data-testid="identity-review-item"][data-property-id="${id}"]`);
    await item(first).waitFor();
    await item(second).waitFor();
    await expect.poll(() => item(first).getByRole('img').count()).toBeGreaterThanOrEqual(2);
    await expectAccessible(page);

    // the reason is required, said under the field
    await item(first).getByTestId('identity-review-approve').click();
    await item(first).getByText(IDENTITY_MESSAGES.reviewReason).waitFor();
    // the field takes the focus, so a screen reader reads the error tied to it
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-describedby') ?? '')).toMatch(/-error$/);
    await item(first).getByLabel('Motivo della decisione').fill('Stessa persona: confrontate a vista');
    await item(first).getByTestId('identity-review-approve').click();
    await toast(page, IDENTITY_MESSAGES.reviewApproved).waitFor();
    await item(first).waitFor({ state: 'detached' });
    const approved = await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.identity(first), ConsistentRead: true }));
    expect(approved.Item).toMatchObject({ status: 'verified', review: { decision: 'approve', reason: 'Stessa persona: confrontate a vista' } });

    // the seller checks again while the admin looks at the first check of the second property
    const looked = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.identity(second), ConsistentRead: true }))).Item!;
    const again = await checkIdentity(seller.token, second, facePhoto(REVIEW_BAND_PERSON), await reviewBandCard({ number: 'CA00000AA' }));
    expect(again.body).toMatchObject({ status: 'review' });
    const newer = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.identity(second), ConsistentRead: true }))).Item!;
    expect(newer.checkedAt).not.toBe(looked.checkedAt);
    const facePhotoSrc = () => item(second).getByRole('img', { name: 'Foto del volto' }).getAttribute('src');
    const oldPhoto = await facePhotoSrc();
    await item(second).getByLabel('Motivo della decisione').fill('Stessa persona');
    await item(second).getByTestId('identity-review-approve').click();
    await toast(page, IDENTITY_MESSAGES.reviewNotPending).waitFor();
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.identity(second), ConsistentRead: true }))).Item).toEqual(newer);
    // the queue shows the new check at once: its own photos, the reason kept
    await expect.poll(facePhotoSrc).not.toBe(oldPhoto);
    expect(await item(second).getByLabel('Motivo della decisione').inputValue()).toBe('Stessa persona');
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    await saveShot(item(second), 'review', 'identity-review-stale-390');

    // the admin looks again and rejects the new check
    await item(second).getByLabel('Motivo della decisione').fill('Il documento è scaduto');
    await item(second).getByTestId('identity-review-reject').click();
    await toast(page, IDENTITY_MESSAGES.reviewRejected).waitFor();
    await item(second).waitFor({ state: 'detached' });
    expect((await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.identity(second), ConsistentRead: true }))).Item).toMatchObject({
      status: 'rejected',
      checkedAt: newer.checkedAt,
      review: { decision: 'reject', reason: 'Il documento è scaduto' },
    });
    await page.close();
  });
});
