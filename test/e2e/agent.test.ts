/**
 * The agent marketplace in Chromium: an approved agent filters the options offered to agents,
 * opens an option's photos and videos, asks for it at 3%; the admin approves it on
 * /active-options; the agent chooses the bank transfer and reads the reference; the admin
 * marks it paid; the option moves to 'Opzioni in Carico'. axe at desktop and at 390 px;
 * screenshots in the temp folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_BANK_TRANSFER } from '../../functions/domain/runtime-config';
import type { PurchaseOption } from '../../functions/domain/requests';
import { expectAccessible, launchBrowser, screenshots, signedInContext, toastWith } from '../support/browser';
import { stack, useStackEnv } from '../support/helpers';
import { AGENT_PASSWORD, freshAgent, listedOption, type TestAgent } from '../support/agent';
import { newId } from '../support/submission';

const { shot, fitsPhone } = screenshots('agent');
let browser: Browser;
let admin: BrowserContext;
let agentContext: BrowserContext;
let agent: TestAgent;
let milano: PurchaseOption;
let monza: PurchaseOption;
const street = `Via dei Mercanti ${newId().slice(0, 4)}`;
const web = () => stack().webUrl!;
const toast = (page: Page, text: string) => toastWith(page, text).first();



async function agentPage(tab?: string): Promise<Page> {
  const page = await agentContext.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${web()}/agent-area/purchase-options${tab ? `?tab=${tab}` : ''}`);
  await page.getByRole('heading', { level: 1, name: 'Opzioni di Acquisto' }).waitFor();
  return page;
}

beforeAll(async () => {
  useStackEnv();
  milano = await listedOption({ media: true, property: { address: street, features: ['ascensore', 'cantina', 'doppi_vetri', 'balcone', 'fibra'] } });
  monza = await listedOption({ property: { address: 'Via Italia 10', city: 'Monza', province: 'MB' } });
  agent = await freshAgent('Marta Colombo');
  browser = await launchBrowser();
  admin = await signedInContext(browser, web(), stack().accounts.find((a) => a.role === 'admin')!, '/admin');
  agentContext = await signedInContext(browser, web(), { email: agent.email, password: AGENT_PASSWORD }, '/agent-area/profile');
});
afterAll(async () => {
  await agentContext?.close();
  await admin?.close();
  await browser?.close();
});

describe('Area agente: Opzioni di Acquisto', () => {
  it('filter, photos, request at 3%, approval, bank transfer, paid, in charge', async () => {
    // 'Le Mie Richieste' by default, empty
    const page = await agentPage();
    expect(await page.getByTestId('tab-requests').getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('requests-empty').getByText('Non hai ancora richieste').waitFor();
    await expectAccessible(page);

    // 'Opzioni Disponibili': both options, then the province and comune filters
    await page.getByTestId('tab-available').click();
    const milanoCard = page.locator(`[data-testid="agent-option"][data-property-id="${milano.propertyId}"]`);
    const monzaCard = page.locator(`[data-testid="agent-option"][data-property-id="${monza.propertyId}"]`);
    await milanoCard.waitFor();
    await monzaCard.waitFor();
    expect(await milanoCard.getByTestId('option-badge').textContent()).toBe('Disponibile');
    const badges = await milanoCard.getByTestId('option-features').locator('li').allTextContents();
    expect(badges.slice(0, 3)).toEqual(['Ascensore', 'Cantina', 'Doppi vetri']);
    expect(badges[3]).toMatch(/^\+2/);
    expect(await milanoCard.textContent()).not.toMatch(/Giulia|Bianchi|@example/);
    await page.getByLabel('Regione/Provincia').selectOption('MB');
    await monzaCard.waitFor();
    await milanoCard.waitFor({ state: 'detached' });
    expect(await page.getByLabel('Comune').locator('option').allTextContents()).toEqual(['Tutti i comuni', 'Monza']);
    await page.getByLabel('Regione/Provincia').selectOption('MI');
    await milanoCard.waitFor();
    await monzaCard.waitFor({ state: 'detached' });
    await page.getByLabel('Comune').selectOption('Milano');
    await milanoCard.waitFor();
    await expectAccessible(page);

    // photos and videos by room
    await milanoCard.getByTestId('option-media').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText("Foto e Video dell'Immobile").waitFor();
    await dialog.getByRole('heading', { name: 'Soggiorno 1' }).waitFor();
    await dialog.getByRole('heading', { name: 'Camera da letto 1' }).waitFor();
    await expect.poll(() => dialog.getByTestId('media-photo').count()).toBe(2);
    expect(await dialog.getByTestId('media-video').count()).toBe(1);
    await expect.poll(() => dialog.locator('img').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
    await expectAccessible(page);
    await shot(page, 'agent-media-desktop');
    await dialog.getByRole('button', { name: 'Chiudi' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // the slider: from 2% (the minimum) to 3% with the keyboard; 3% of 3.000 = 90,00
    const slider = milanoCard.getByTestId('commission-slider');
    expect(await slider.inputValue()).toBe('2');
    expect(await milanoCard.getByTestId('commission-amount').textContent()).toBe('60,00 €');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    expect(await slider.inputValue()).toBe('3');
    expect(await milanoCard.getByTestId('commission-value').textContent()).toBe('3%');
    expect(await milanoCard.getByTestId('commission-amount').textContent()).toBe('90,00 €');
    await milanoCard.getByTestId('option-request').click();
    await toast(page, 'Richiesta Inviata').waitFor();
    await milanoCard.getByTestId('my-request-status').getByText('In Attesa').waitFor();
    await shot(page, 'agent-available-desktop');
    await fitsPhone(page, 'agent-available');
    // asking again: the request is already there
    await milanoCard.getByTestId('option-request').click();
    await toast(page, 'Richiesta Già Presente').waitFor();
    await toastWith(page, 'Hai già una richiesta in stato: In Attesa').first().waitFor();

    // the admin approves on /active-options
    const list = await admin.newPage();
    list.setDefaultTimeout(20_000);
    await list.goto(`${web()}/active-options`);
    await list.getByRole('heading', { level: 1, name: 'Opzioni di Acquisto Attive' }).waitFor();
    const row = list.getByTestId('agent-request-row').filter({ hasText: agent.email });
    await row.waitFor();
    const rowText = await row.textContent();
    for (const text of ['Marta Colombo', street, 'Milano', '300.000 €', '3.000 €', '3%']) expect(rowText).toContain(text);
    expect(rowText).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    await expectAccessible(list);
    await shot(list, 'admin-agent-requests-desktop');
    await fitsPhone(list, 'admin-agent-requests');
    await row.getByTestId('agent-request-approve').click();
    await toast(list, 'Richiesta approvata').waitFor();
    await row.waitFor({ state: 'detached' });
    const payRow = list.getByTestId('agent-payment-row').filter({ hasText: agent.email });
    await payRow.waitFor();

    // the agent pays by bank transfer: the reference and the amount
    await page.getByTestId('tab-requests').click();
    await page.reload();
    const mine = page.getByTestId('my-request').filter({ hasText: street });
    await mine.getByTestId('my-request-status').getByText('Attesa Pagamento').waitFor();
    const requestId = await mine.getAttribute('data-request-id');
    await mine.getByTestId('pay-now').click();
    const pay = page.getByRole('dialog');
    await pay.getByText('Scegli Metodo di Pagamento').waitFor();
    await pay.getByTestId('card-not-configured').waitFor();
    expect(await pay.getByTestId('pay-card').isDisabled()).toBe(true);
    await expectAccessible(page);
    await pay.getByTestId('pay-bank').click();
    expect(await pay.getByTestId('bank-reference').textContent()).toBe(`OPZ-${requestId!.slice(0, 8)}`);
    expect(await pay.getByTestId('bank-amount').textContent()).toBe('90,00 €');
    expect(await pay.getByTestId('bank-iban').textContent()).toBe(DEMO_BANK_TRANSFER.iban);
    expect(await pay.getByTestId('bank-beneficiary').textContent()).toBe(DEMO_BANK_TRANSFER.beneficiary);
    await expectAccessible(page);
    await shot(page, 'agent-bank-transfer-desktop');
    await fitsPhone(page, 'agent-bank-transfer');
    await pay.getByRole('button', { name: 'Chiudi', exact: true }).last().click();
    await pay.waitFor({ state: 'hidden' });

    // the admin marks it paid
    await list.reload();
    await payRow.waitFor();
    expect(await payRow.textContent()).toContain(`OPZ-${requestId!.slice(0, 8)}`);
    await payRow.getByTestId('agent-request-paid').click();
    await list.getByRole('dialog').getByText('Segna come pagata').waitFor();
    await list.getByTestId('agent-request-paid-confirm').click();
    await toast(list, 'Pagamento registrato').waitFor();
    await payRow.waitFor({ state: 'detached' });
    const optionRow = list.locator(`[data-testid="option-row"][data-property-id="${milano.propertyId}"]`);
    await expect.poll(() => optionRow.textContent()).toContain('Marta Colombo');
    await list.close();

    // the option is now in the agent's charge; the request completed
    await page.reload();
    await page.getByTestId('my-request').filter({ hasText: street }).getByTestId('request-completed').getByText('Completata').waitFor();
    await page.getByTestId('tab-assigned').click();
    const inCharge = page.locator(`[data-testid="agent-option"][data-property-id="${milano.propertyId}"]`);
    await inCharge.waitFor();
    expect(await inCharge.getByTestId('option-badge').textContent()).toBe('In Carico');
    expect(await inCharge.getByTestId('commission-slider').isDisabled()).toBe(true);
    expect(await inCharge.getByTestId('commission-slider').inputValue()).toBe('3');
    expect(await inCharge.getByTestId('option-request').count()).toBe(0);
    await expectAccessible(page);
    await shot(page, 'agent-assigned-desktop');
    await fitsPhone(page, 'agent-assigned');
    // and no longer offered
    await page.getByTestId('tab-available').click();
    await monzaCard.waitFor();
    expect(await milanoCard.count()).toBe(0);
    await page.close();
  });

  it('shows a new agent the empty states of their requests and of the options in charge', async () => {
    const other = await freshAgent('Nuovo Agente');
    const context = await signedInContext(browser, web(), { email: other.email, password: AGENT_PASSWORD }, '/agent-area/profile');
    const page = await context.newPage();
    await page.goto(`${web()}/agent-area/purchase-options?tab=assigned`);
    await page.getByTestId('assigned-empty').getByText('Non hai ancora opzioni in carico').waitFor();
    await page.getByTestId('tab-requests').click();
    await page.getByTestId('requests-empty').getByText('Non hai ancora richieste').waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('requests');
    await expectAccessible(page);
    await context.close();
  });
});
