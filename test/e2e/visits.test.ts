/**
 * The deal after the signature, in Chromium (issue 19): the seller signs through their own
 * routes -> the option is 'Firmata' on the Istruttoria and the availability mail has arrived
 * -> the seller saves slots with that link -> the admin publishes, the agent asks, the admin
 * approves and marks the bank transfer paid -> 'Assegnata' -> the agent opens "Venditore e
 * visite", sees the seller's contact and books a slot by clicking it -> the seller sees the
 * visit on the dashboard, the admin on the Istruttoria, and the invitation each got parses
 * (node-ical) at the slot's time in Europe/Rome. axe and a 390 px layout on the new pages.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as nodeIcal from 'node-ical';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { addDays, todayInRome } from '../../functions/domain/availability';
import { romeInstant } from '../../functions/domain/visits';
import type { PresignedUpload } from '../../functions/domain/uploads';
import { expectAccessible, launchBrowser, screenshots, signedInContext, toastWith } from '../support/browser';
import { api, sentMail, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { AGENT_PASSWORD, freshAgent, type TestAgent } from '../support/agent';
import { freshSeller, ownedProperty, SELLER_PASSWORD, type Seller } from '../support/seller';
import { postToBucket } from '../support/submission';

const { shot, fitsPhone } = screenshots('visits');
const web = () => stack().webUrl!;
let browser: Browser;
let admin: string;
let seller: Seller;
let agent: TestAgent;
let id: string;

async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 14 });
  return Buffer.from(await doc.save());
}



beforeAll(async () => {
  useStackEnv();
  browser = await launchBrowser();
  admin = await tokenForRole('admin');
  seller = await freshSeller('Elena Visite');
  agent = await freshAgent('Paolo Visite');
  id = await ownedProperty(seller.userId);
  const at = new Date().toISOString();
  // the seller side before the option (identity, delegation, co-owners) is tested in kyc.test.ts: written here
  await ddb().send(new PutCommand({ TableName: stack().env.TABLE_NAME!, Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', verifiedAt: at, checkedAt: at } }));
  await ddb().send(
    new PutCommand({
      TableName: stack().env.TABLE_NAME!,
      Item: { ...keys.delegation(id, 'catasto'), entity: 'delegation', propertyId: id, type: 'catasto', province: 'MI', municipality: 'Milano', documentKey: `${id}/documents/delega-catasto.pdf`, signedAt: at },
    }),
  );
  const created = await api('POST', `/admin/properties/${id}/option`, {
    token: admin,
    body: { propertyValue: 300_000, optionDuration: 8, hasKeys: false, agentCommissionPercentage: 4, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 2 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('from the signature to the first visit', () => {
  let adminContext: BrowserContext;
  let sellerContext: BrowserContext;
  let agentContext: BrowserContext;
  const date = addDays(todayInRome(), 9);

  it('the seller signs: Firmata on the Istruttoria, and the availability mail arrives with its link', async () => {
    const signed = await pdf('Opzione firmata');
    const form = await api<PresignedUpload>('POST', `/seller/properties/${id}/option/uploads`, { token: seller.token, body: { fileName: 'firmata.pdf', contentType: 'application/pdf', size: signed.length } });
    expect((await postToBucket(form.body, signed, 'firmata.pdf')).status).toBeLessThan(300);
    expect((await api('POST', `/seller/properties/${id}/option/signed`, { token: seller.token, body: { key: form.body.key } })).status).toBe(200);

    adminContext = await signedInContext(browser, web(), stack().accounts.find((a) => a.role === 'admin')!, '/admin');
    const page = await adminContext.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${web()}/investigation/${id}`);
    await expect.poll(() => page.getByTestId('option-summary').getByTestId('option-state').textContent()).toBe('Firmata');

    const contact = (await api<{ property: { email: string } }>('GET', `/admin/properties/${id}`, { token: admin })).body.property.email;
    const mail = (await sentMail()).find((m) => m.destination.to.includes(contact) && m.subject.startsWith('Indica le tue disponibilità per le visite'));
    expect(mail).toBeDefined();
    const linkPath = /\/availability\/[A-Za-z0-9_-]+/.exec(mail!.body.text ?? '')![0];
    // the seller opens the mail's link, which goes on by the property's id, and saves two slots of one day
    sellerContext = await signedInContext(browser, web(), { email: seller.email, password: SELLER_PASSWORD }, '/seller-dashboard');
    const slots = await sellerContext.newPage();
    slots.setDefaultTimeout(20_000);
    await slots.goto(`${web()}${linkPath}`);
    await slots.waitForURL((u) => u.pathname === `/seller-availability/${id}`);
    if (date.slice(0, 7) !== todayInRome().slice(0, 7)) await slots.getByRole('button', { name: 'Vai al mese successivo' }).click();
    await slots.locator(`[data-day="${date}"] button`).click();
    const day = slots.locator(`[data-testid="availability-day"][data-date="${date}"]`);
    await day.getByTestId('slot-start').selectOption('10:00');
    await day.getByTestId('slot-end').selectOption('11:00');
    await day.getByTestId('slot-add').click();
    await day.getByTestId('slot-start').nth(1).selectOption('15:30');
    await day.getByTestId('slot-end').nth(1).selectOption('16:30');
    await slots.getByTestId('availability-save').click();
    await toastWith(slots, 'Disponibilità salvate con successo!').first().waitFor();
    await slots.close();

    // published, asked for, approved, paid by bank transfer: Assegnata
    await page.getByTestId('option-action-publish').click();
    await page.getByTestId('option-action-confirm').click();
    await toastWith(page, 'Opzione pubblicata').first().waitFor();
    const req = await api<{ request: { id: string } }>('POST', `/agent/options/${id}/requests`, { token: agent.token, body: { commissionPercentage: 3 } });
    expect(req.status, JSON.stringify(req.body)).toBe(201);
    for (const action of ['approve', 'paid']) expect((await api('POST', `/admin/agent-requests/${req.body.request.id}/${action}`, { token: admin })).status).toBe(200);
    await page.reload();
    await expect.poll(() => page.getByTestId('option-summary').getByTestId('option-state').textContent()).toBe('Assegnata');
    await page.close();
  });

  it('the agent sees the seller and books the 15:30 slot; the seller and the admin see the visit; the invitation is at 15:30 in Rome', async () => {
    agentContext = await signedInContext(browser, web(), { email: agent.email, password: AGENT_PASSWORD }, '/agent-area/profile');
    const page = await agentContext.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${web()}/agent-area/purchase-options?tab=assigned`);
    const card = page.locator(`[data-testid="agent-option"][data-property-id="${id}"]`);
    await card.getByTestId('option-deal').click();
    await page.waitForURL((u) => u.pathname === `/agent-area/purchase-options/${id}`);
    await page.getByTestId('deal-facts').getByText('Elena Visite').or(page.getByTestId('deal-facts').getByText(/@/).first()).first().waitFor();
    expect(await page.getByTestId('deal-sale-price').textContent()).toMatch(/330\.000/);
    // the seller's phone read in groups, called as stored
    const phone = page.getByTestId('deal-facts').getByRole('link', { name: '+39 347 765 4321' });
    expect(await phone.getAttribute('href')).toBe('tel:+393477654321');
    await expectAccessible(page);
    await page.getByRole('button', { name: /15:30–16:30/ }).click();
    await toastWith(page, 'Visita prenotata').first().waitFor();
    await page.locator('[data-testid="visit"][data-status="booked"]').waitFor();
    expect(await page.getByTestId('slot-book').count()).toBe(1);
    await shot(page, 'agent-deal-desktop');
    await fitsPhone(page, 'agent-deal');
    await page.close();

    const dash = await sellerContext.newPage();
    dash.setDefaultTimeout(20_000);
    await dash.goto(`${web()}/seller-dashboard`);
    const visits = dash.getByTestId('seller-visits');
    await visits.locator('[data-testid="visit"][data-status="booked"]').getByText('15:30–16:30', { exact: false }).waitFor();
    await visits.getByText('Agente: Paolo Visite').waitFor();
    await expectAccessible(dash);
    await shot(dash, 'seller-visits-desktop');
    await fitsPhone(dash, 'seller-visits');
    await dash.close();

    const adminPage = await adminContext.newPage();
    adminPage.setDefaultTimeout(20_000);
    await adminPage.goto(`${web()}/investigation/${id}`);
    await adminPage.getByTestId('review-visits').locator('[data-testid="visit"][data-status="booked"]').waitFor();
    await adminPage.getByTestId('review-activity').locator('[data-kind="visit.booked"]').waitFor();
    await adminPage.close();

    const invitations = (await sentMail()).filter((m) => m.subject.startsWith('Visita prenotata') && m.subject.includes(date.slice(8, 10).replace(/^0/, '')) && (m.attachments ?? []).length);
    const ours = invitations.filter((m) => m.destination.to.includes(agent.email));
    expect(ours.length).toBeGreaterThanOrEqual(1);
    const ics = Buffer.from(ours[0]!.attachments![0]!.content, 'base64').toString('utf8');
    const event = Object.values(nodeIcal.sync.parseICS(ics)).find((e) => e?.type === 'VEVENT') as nodeIcal.VEvent;
    expect((event.start as Date & { tz?: string }).tz).toBe('Europe/Rome');
    expect((event.start as Date).getTime()).toBe(romeInstant(date, '15:30').getTime());
  });
});
