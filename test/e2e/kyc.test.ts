/**
 * /seller-kyc?token= in Chromium with a fake camera (a face photo as a one-frame MJPEG): a
 * fresh seller with a submitted property completes the identity check (face from the
 * camera, document front and back by file upload), skips the co-owners, generates a
 * delegation, downloads it and uploads a signed PDF; then the admin creates the purchase
 * option through the API and the seller signs it; the completion card shows. axe at
 * desktop and at 390 px (screenshots with SCREENSHOTS_DIR, test/support/browser.ts saveShot).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { fiscalCodeCheckChar } from '../../functions/domain/onboarding/rules';
import { newToken } from '../../functions/model/tokens';
import { COMPLETION_MESSAGES } from '../../functions/domain/onboarding/rules';
import { optionExpiryDate } from '../../functions/domain/fees';
import { formatDate } from '../../functions/domain/format';
import { enterSignUpCode, expectAccessible, launchBrowser, newPage, watchPage, signedInContext, toastWith, waitForOrExplain, watchCspViolations, saveShot } from '../support/browser';
import { documentFront, facePhoto } from '../support/faces';
import { api, sentMail, signUp, stack, tokenForRole, uniqueEmail, useStackEnv } from '../support/helpers';
import { importOmi } from '../support/omi-import';
import { MILANO } from '../support/omi-samples';
import { apiFrom, fullBody, newClientIp, newId, pngBytes, upload } from '../support/submission';
import { freshSeller, SELLER_PASSWORD } from '../support/seller';
import { pagesCountMessage } from '../../functions/domain/onboarding/kyc';
import { DIGITAL_SIGNATURE_MESSAGES } from '../../functions/domain/onboarding/digital-signature';
import { addTrustAnchor } from '../../functions/lib/trust-store';
import { createTestCa, issueSignerCertificate, signCades } from '../../infra/local/digital-signing';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { PDFDocument } from 'pdf-lib';
import { s3 } from '../../functions/lib/aws/s3';

const web = () => stack().webUrl!;
const TABLE = () => stack().env.TABLE_NAME!;
const PASSWORD = 'segreta1';
const PHONE = { width: 390, height: 844 };
/** the camera's frame and the files the seller picks, made in beforeAll */
let DIR: string;
const FISCAL_CODE = (() => {
  const first = 'RSSMRA80A01H501';
  return first + fiscalCodeCheckChar(first);
})();
const CO_OWNER_FISCAL_CODE = 'NREMRC78B12F205' + fiscalCodeCheckChar('NREMRC78B12F205');
const SIGNED_PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

let browser: Browser;

/** A wizard submission linked to the seller (as the invitation claim does); answers its id and token. */
async function linkedProperty(userId: string): Promise<{ id: string; token: string }> {
  const id = newId();
  const ip = newClientIp();
  const roomId = newId();
  const form = await upload(ip, id, roomId, 'soggiorno.png', 'image/png', pngBytes(4, 4));
  const res = await apiFrom(ip, 'POST', '/properties', {
    ...fullBody(id, [{ id: roomId, type: 'soggiorno', media: [{ key: form.key }] }]),
    firstName: 'Mario',
    address: 'Via Carlo Goldoni 7',
    city: 'Milano',
    province: 'MI',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;
  const index = keys.sellerIndex(userId, item.createdAt as string);
  await ddb().send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: keys.property(id),
      UpdateExpression: 'SET userId = :u, gsi1pk = :pk, gsi1sk = :sk',
      ExpressionAttributeValues: { ':u': userId, ':pk': index.gsi1pk, ':sk': index.gsi1sk },
    }),
  );
  return { id, token: item.invitationToken as string };
}

/**
 * The way a seller really arrives: a request submitted with their e-mail, valued by the
 * admin, and the estimate e-mail sent; answers the registration link the e-mail carries.
 */
async function invitedByEstimate(email: string): Promise<{ id: string; link: string }> {
  const id = newId();
  const submitted = await apiFrom(newClientIp(), 'POST', '/properties', {
    ...fullBody(id),
    firstName: 'Mario',
    email,
    address: 'Via Carlo Goldoni 7',
    city: 'Milano',
    province: 'MI',
  });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
  const admin = await tokenForRole('admin');
  const valued = await api<{ available: boolean }>('POST', `/admin/properties/${id}/valuations`, { token: admin, body: {} });
  expect(valued.body.available, JSON.stringify(valued.body)).toBe(true);
  const sent = await api('POST', `/admin/properties/${id}/estimate-email`, { token: admin, body: {} });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const mail = (await sentMail()).find((m) => m.destination.to.includes(email));
  const path = /\/seller-register\?token=[A-Za-z0-9_-]+/.exec(mail?.body.text ?? '')?.[0];
  if (!path) throw new Error(`no registration link in the estimate e-mail to ${email}`);
  return { id, link: `${web()}${path}` };
}

async function closeOtherPages(page: Page) {
  for (const p of page.context().pages()) if (p !== page) await p.close().catch(() => undefined);
}

const step = (page: Page, id: string) => page.getByTestId(`kyc-step-${id}`);

/** The pages of a PDF stored in the media bucket. */
async function pagesOf(key: string): Promise<number> {
  const object = await s3().send(new GetObjectCommand({ Bucket: stack().env.MEDIA_BUCKET!, Key: key }));
  return (await PDFDocument.load(await object.Body!.transformToByteArray())).getPageCount();
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
/** The element's box lies wholly inside the viewport. */
async function inViewport(page: Page, locator: ReturnType<Page['locator']>): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width + 0.5 && box.y + box.height <= size.height + 0.5;
}

beforeAll(async () => {
  useStackEnv();
  DIR = mkdtempSync(path.join(os.tmpdir(), 'kyc-e2e-'));
  const CAMERA_FILE = `${DIR}/face.mjpeg`;
  // one 640x480 JPEG frame is a valid MJPEG stream for Chromium's fake capture device
  const frame = await sharp(facePhoto('person-a')).resize(640, 480, { fit: 'contain', background: '#dde3ea' }).jpeg({ quality: 92 }).toBuffer();
  writeFileSync(CAMERA_FILE, frame);
  writeFileSync(`${DIR}/front.jpg`, await documentFront('person-a'));
  writeFileSync(`${DIR}/back.jpg`, facePhoto('person-a'));
  writeFileSync(`${DIR}/face-a.jpg`, facePhoto('person-a'));
  writeFileSync(`${DIR}/front-b.jpg`, await documentFront('person-b'));
  // the co-owner's card: the name the seller typed for her and the number she types
  writeFileSync(`${DIR}/front-elena.jpg`, await documentFront('person-a', { surname: 'BLU', name: 'ELENA', number: 'CB7654321' }));
  // the estimate needs a valuation: the Milano quotations, imported as /omi-import does
  await importOmi(MILANO.valori2025, '2025-S1');
  await importOmi(MILANO.zone2025, '2025-S1');
  browser = await launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${CAMERA_FILE}`]);
});
afterAll(async () => {
  await browser?.close();
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('/seller-kyc', () => {
  it('an unknown token: toast and the invalid-link screen', async () => {
    const email = uniqueEmail('e2e.kyc');
    await signUp({ email, password: PASSWORD, name: 'Giulia Bianchi', userType: 'venditore' });
    const context = await signedInContext(browser, web(), { email, password: PASSWORD }, '/seller-dashboard');
    const page = await context.newPage();
    await page.setViewportSize(PHONE);
    await page.goto(`${web()}/seller-kyc?token=${'x'.repeat(32)}`);
    const toast = toastWith(page, 'Proprietà non trovata o link scaduto');
    await toast.waitFor();
    const title = page.getByRole('heading', { level: 1, name: 'Link non valido o scaduto' });
    await title.waitFor();
    // at 390 px the toast covers neither the page title nor the header, and stays in the live region
    // where it rests once its entry transition is over
    await expect.poll(() => toast.evaluate((el) => (el as HTMLElement).dataset.mounted === 'true' && el.getAnimations().length === 0)).toBe(true);
    const toastBox = (await toast.boundingBox())!;
    expect(toastBox.y).toBeGreaterThan(PHONE.height / 2);
    expect(overlaps(toastBox, (await title.boundingBox())!)).toBe(false);
    expect(overlaps(toastBox, (await page.locator('header').first().boundingBox())!)).toBe(false);
    expect(await inViewport(page, toast)).toBe(true);
    expect(await page.locator('section[aria-label^="Notifiche"][aria-live="polite"]').count()).toBe(1);
    await saveShot(page, 'kyc', 'kyc-390-toast', { fullPage: false });
    await page.getByTestId('kyc-invalid').getByRole('link', { name: 'Home' }).waitFor();
    await context.close();
  });

  it('from the estimate e-mail: registration, identity by camera, co-owners skipped, a signed delegation, then the option signed', async () => {
    const email = uniqueEmail('e2e.kyc');
    const { id, link } = await invitedByEstimate(email);
    const token = new URL(link).searchParams.get('token')!;

    // the e-mail's link: register, then sign in, and the page claims the request
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'it-IT', timezoneId: 'Europe/Rome' });
    await context.grantPermissions(['camera'], { origin: web() });
    // the whole onboarding under the site's CSP and permissions policy (camera=(self))
    const csp = await watchCspViolations(context);
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const calls = watchPage(page);
    await page.goto(link);
    await page.getByTestId('tab-seller-signup').click();
    await page.getByTestId('seller-signup-name').fill('Mario Rossi');
    await page.getByTestId('seller-signup-email').fill(email);
    await page.getByTestId('seller-signup-password').fill(PASSWORD);
    await page.getByTestId('seller-signup-phone').fill('347 123 4567');
    await page.getByTestId('seller-signup-submit').click();
    await enterSignUpCode(page, email, 'seller-confirm');
    await page.getByTestId('seller-login-password').fill(PASSWORD);
    expect(await page.getByTestId('seller-login-email').inputValue()).toBe(email);
    await page.getByTestId('seller-login-submit').click();
    // the link's first arrival claims the request, then the page goes on by the property's id
    await page.waitForURL((u) => u.pathname === '/seller-kyc' && u.searchParams.get('property') === id);
    page.on('console', (m) => m.type() === 'error' && console.log('[browser]', m.text()));
    await page.locator('[data-testid="kyc-page"], [data-testid="kyc-error"], [data-testid="kyc-invalid"]').first().waitFor();
    if (!(await page.getByTestId('kyc-page').isVisible())) throw new Error(`kyc page: ${await page.locator('main').innerText()}`);

    // welcome, 3 steps (no option yet), step 1 open, the others locked
    await page.getByTestId('kyc-welcome').getByText('Benvenuto, Mario').waitFor();
    expect(await page.getByTestId('kyc-address').textContent()).toContain('Via Carlo Goldoni 7, Milano');
    expect(await page.getByTestId('kyc-progress').locator('li').count()).toBe(3);
    expect(await step(page, 'identity').getAttribute('data-status')).toBe('todo');
    expect(await step(page, 'coOwners').getAttribute('data-status')).toBe('locked');
    await expectAccessible(page);

    // 390 px: the first step and the identity dialog
    const phoneStart = await context.newPage();
    await phoneStart.setViewportSize(PHONE);
    await phoneStart.goto(`${web()}/seller-kyc?token=${token}`);
    await phoneStart.getByTestId('kyc-page').waitFor();
    await expectAccessible(phoneStart);
    await saveShot(phoneStart, 'kyc', 'kyc-390-start');
    await phoneStart.getByTestId('identity-open').click();
    await phoneStart.getByTestId('identity-dialog').waitFor();
    await expectAccessible(phoneStart);
    await saveShot(phoneStart, 'kyc', 'kyc-390-identity', { fullPage: false });
    await phoneStart.close();

    // 1. identity: face from the fake camera, document by file upload
    await page.getByTestId('identity-open').click();
    const dialog = page.getByTestId('identity-dialog');
    await dialog.getByTestId('identity-face-camera-open').click();
    await dialog.getByTestId('identity-face-camera-shoot').click({ timeout: 20_000 });
    await dialog.getByTestId('identity-face-preview').waitFor();
    expect(await dialog.getByTestId('identity-document-type').inputValue()).toBe('carta_identita');
    // missing data: the toast
    await page.getByTestId('identity-submit').click();
    await toastWith(page, 'Dati mancanti').waitFor();
    await dialog.getByTestId('identity-front-file').setInputFiles(`${DIR}/front.jpg`);
    await dialog.getByTestId('identity-back-file').setInputFiles(`${DIR}/back.jpg`);
    await dialog.getByTestId('identity-document-number').fill('CA12345AB');
    await dialog.getByTestId('identity-full-name').fill('Mario Rossi');
    await dialog.getByTestId('identity-confirm').waitFor();
    await expectAccessible(page);
    await page.getByTestId('identity-submit').click();
    await waitForOrExplain(step(page, 'identity').and(page.locator('[data-status="done"]')), { timeout: 60_000, shown: page.getByTestId('identity-dialog'), calls });

    // 2. co-owners: skip
    await step(page, 'coOwners').getByTestId('coowner-add').click();
    await step(page, 'coOwners').getByTestId('coowner-share').fill('60');
    await step(page, 'coOwners').getByTestId('coowner-total').getByText('La somma delle quote è 60% (dovrebbe essere 100%)').waitFor();
    expect(await step(page, 'coOwners').getByTestId('coowner-send').isDisabled()).toBe(true);
    await step(page, 'coOwners').getByRole('button', { name: 'Salta (Proprietà Singola)' }).click();
    await step(page, 'coOwners').and(page.locator('[data-status="done"]')).waitFor();

    // 3. delegations, on a return visit (the verified identity loads after the page): the verified
    // name and document are reused and locked, 'Usa i dati del documento verificato' ticked
    await page.reload();
    const delegations = step(page, 'delegations');
    await delegations.getByTestId('delegation-generate').waitFor();
    expect(await delegations.getByTestId('delegation-use-identity').isChecked()).toBe(true);
    expect(await delegations.getByTestId('delegation-name').inputValue()).toBe('Mario Rossi');
    expect(await delegations.getByTestId('delegation-name').getAttribute('readonly')).not.toBeNull();
    expect(await delegations.getByTestId('delegation-document-type').inputValue()).toBe('carta_identita');
    expect(await delegations.getByTestId('delegation-document-type').isDisabled()).toBe(true);
    expect(await delegations.getByTestId('delegation-document-number').inputValue()).toBe('CA12345AB');
    expect(await delegations.getByTestId('delegation-document-number').getAttribute('readonly')).not.toBeNull();
    // unticked: the fields are the seller's to type, ticked again: the verified data
    await delegations.getByTestId('delegation-use-identity').uncheck();
    await delegations.getByTestId('delegation-document-number').fill('');
    await delegations.getByTestId('delegation-use-identity').check();
    expect(await delegations.getByTestId('delegation-document-number').inputValue()).toBe('CA12345AB');
    expect(await delegations.getByTestId('delegation-province').inputValue()).toBe('MI');
    await delegations.getByTestId('delegation-type-catasto').check();
    await delegations.getByTestId('delegation-fiscal-code').fill(FISCAL_CODE.toLowerCase());
    expect(await delegations.getByTestId('delegation-fiscal-code').inputValue()).toBe(FISCAL_CODE);
    await delegations.getByTestId('delegation-generate').click();
    await delegations.getByTestId('delegation-catasto').waitFor();
    const stored = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.delegation(id, 'catasto'), ConsistentRead: true }))).Item!;
    expect(stored).toMatchObject({ delegatorName: 'Mario Rossi', delegatorIdType: 'carta_identita', delegatorIdNumber: 'CA12345AB' });
    await delegations.getByTestId('delegation-hint').getByText('Carica tutte le deleghe firmate per completare questa fase').waitFor();
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    await saveShot(delegations, 'kyc', 'kyc-390-delegations', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });
    // the presigned GET of the generated PDF opens in a new tab
    const pdfRequest = context.waitForEvent('request', { predicate: (r) => r.url().includes(`${id}/delegations/catasto`) });
    await delegations.getByTestId('delegation-catasto-download').click();
    await pdfRequest;
    await closeOtherPages(page);
    await delegations.getByTestId('delegation-catasto-upload').setInputFiles({ name: 'delega-firmata.pdf', mimeType: 'application/pdf', buffer: SIGNED_PDF });
    await toastWith(page, 'Delega firmata caricata').waitFor();
    // the last signature completes the step (spec 000 section 4); 'Completa Fase' confirms it and moves on
    await delegations.getByTestId('delegation-complete-hint').waitFor();
    await delegations.getByTestId('delegation-complete').click();
    await step(page, 'delegations').and(page.locator('[data-status="done"]')).waitFor();
    await delegations.getByTestId('delegations-summary').waitFor();
    expect(await delegations.getByTestId('delegation-generate').count()).toBe(0);
    await toastWith(page, 'Fase completata').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('kyc-complete-title');

    // without an option: the completion card with the first text
    await page.getByTestId('kyc-complete').getByText(COMPLETION_MESSAGES.noOption).waitFor();
    await saveShot(page, 'kyc', 'kyc-desktop-no-option');

    // the admin creates the option; the 4th step appears
    const admin = await tokenForRole('admin');
    const created = await api('POST', `/admin/properties/${id}/option`, {
      token: admin,
      body: { propertyValue: 300_000, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 4 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await page.reload();
    await step(page, 'option').waitFor();
    expect(await page.getByTestId('kyc-progress').locator('li').count()).toBe(4);
    const option = step(page, 'option');
    // the document may still be in preparation: 'Ricarica' until it is ready
    for (let i = 0; i < 20 && (await option.getByTestId('option-pending').isVisible()); i++) {
      await option.getByTestId('option-reload').click();
      await page.waitForTimeout(1_000);
    }
    // the amount with its rule (6 months by default: 700 per 100.000) and the expiry rule before the signature
    expect(await option.getByTestId('option-amount').textContent()).toBe('2.100 €');
    await option.getByText("Importo dell'opzione (700 € ogni 100.000 €, 6 mesi)").waitFor();
    expect(await option.getByTestId('option-expiry').textContent()).toBe('6 mesi dalla firma');
    const optionRequest = context.waitForEvent('request', { predicate: (r) => r.url().includes(`${id}/`) && /option/i.test(r.url()) });
    await option.getByTestId('option-download').click();
    await optionRequest;
    await closeOtherPages(page);
    await option.getByTestId('option-upload').setInputFiles({ name: 'opzione-firmata.pdf', mimeType: 'application/pdf', buffer: SIGNED_PDF });
    await option.getByTestId('option-confirm').click();
    await option.getByTestId('option-signed').getByText('Firmata').waitFor();
    // the expiry recorded with the signature: the signature's day in Italy + 6 months, shown it-IT
    const signedOption = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id), ConsistentRead: true }))).Item!;
    expect(signedOption.expiresAt).toBe(optionExpiryDate(signedOption.signedAt as string, 6));
    await expect.poll(() => option.getByTestId('option-expiry').textContent()).toBe(`Scade il ${formatDate(signedOption.expiresAt as string)}.`);
    await page.getByTestId('kyc-complete').getByText(COMPLETION_MESSAGES.optionSigned).waitFor();
    await expectAccessible(page);
    await saveShot(page, 'kyc', 'kyc-desktop');

    // 390 px, from the dashboard: by id, no link needed
    const phone = await context.newPage();
    await phone.setViewportSize(PHONE);
    await phone.goto(`${web()}/seller-dashboard`);
    await phone.locator(`[data-testid="seller-property"][data-property-id="${id}"]`).click();
    await phone.waitForURL((u) => u.pathname === '/seller-kyc' && u.searchParams.get('property') === id);
    await phone.getByTestId('kyc-complete').waitFor();
    await expectAccessible(phone);
    await saveShot(phone, 'kyc', 'kyc-390');
    expect(await csp.list()).toEqual([]);
    await context.close();
  });
  it('camera refused, then a document of another person: Verifica non riuscita with the reason', async () => {
    const email = uniqueEmail('e2e.kyc');
    const res = await signUp({ email, password: PASSWORD, name: 'Luca Verdi', userType: 'venditore' });
    const { token } = await linkedProperty(res.UserSub!);
    const context = await signedInContext(browser, web(), { email, password: PASSWORD }, '/seller-dashboard');
    // this seller's camera is refused
    await context.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const calls = watchPage(page);
    await page.setViewportSize(PHONE);
    await page.goto(`${web()}/seller-kyc?token=${token}`);
    await page.getByTestId('identity-open').click();
    const dialog = page.getByTestId('identity-dialog');
    // at 390x844 the dialog's buttons are whole on screen
    expect(await inViewport(page, page.getByTestId('identity-submit'))).toBe(true);
    await dialog.getByTestId('identity-face-camera-open').click();
    await toastWith(page, 'Impossibile accedere alla fotocamera: permesso negato. Verifica i permessi.').waitFor();
    // the toast is in the open modal dialog (the top layer), not under its backdrop in the inert page
    expect(await page.locator('dialog[open] [data-sonner-toaster]').count()).toBe(1);
    // the camera mode closes
    await dialog.getByTestId('identity-face-camera-open').waitFor();
    await dialog.getByTestId('identity-face-file').setInputFiles(`${DIR}/face-a.jpg`);
    await dialog.getByTestId('identity-document-type').selectOption('passaporto');
    await dialog.getByTestId('identity-front-file').setInputFiles(`${DIR}/front-b.jpg`);
    await dialog.getByTestId('identity-back-file').setInputFiles(`${DIR}/front-b.jpg`);
    // the number is required
    await dialog.getByTestId('identity-document-number').focus();
    await dialog.getByTestId('identity-document-number').blur();
    await dialog.getByText('Il numero del documento è obbligatorio').waitFor();
    await dialog.getByTestId('identity-document-number').fill('YA1234567');
    // every image chosen and read: the summary of step 3 shows
    await dialog.getByTestId('identity-confirm').waitFor();
    await page.getByTestId('identity-submit').click();
    await waitForOrExplain(dialog.getByTestId('identity-failure').getByText('Verifica non riuscita'), { timeout: 60_000, shown: dialog, calls });
    expect(await dialog.getByTestId('identity-failure').textContent()).toContain('Il volto non corrisponde alla foto del documento');
    // the refusal is where it is read: in view, focused, an alert; the submit button still whole
    const failure = dialog.getByTestId('identity-failure');
    expect(await failure.getAttribute('role')).toBe('alert');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('identity-failure');
    await expect.poll(() => inViewport(page, failure)).toBe(true);
    expect(await inViewport(page, page.getByTestId('identity-submit'))).toBe(true);
    await saveShot(page, 'kyc', 'kyc-390-identity-refused', { fullPage: false });
    await toastWith(page, 'Verifica non riuscita').waitFor();
    await expectAccessible(page);
    await context.close();
  });

  it("co-owners: the seller's share and the co-owners' total 100, invitations sent, badges", async () => {
    const email = uniqueEmail('e2e.kyc');
    const res = await signUp({ email, password: PASSWORD, name: 'Anna Neri', userType: 'venditore' });
    const { id, token } = await linkedProperty(res.UserSub!);
    // identity already verified: the co-owners step is open
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', status: 'verified', confidence: 88, reason: 'Identità verificata', documentType: 'carta_identita' } }));
    const context = await signedInContext(browser, web(), { email, password: PASSWORD }, '/seller-dashboard');
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.setViewportSize(PHONE);
    await page.goto(`${web()}/seller-kyc?token=${token}`);
    const card = step(page, 'coOwners');
    expect(await card.getAttribute('data-status')).toBe('todo');
    await card.getByTestId('coowner-add').click();
    const rows = card.getByTestId('coowner-row');
    // a couple: the seller's own half and the spouse's; the spouse at 100 is over the whole
    await card.getByLabel('La tua quota (%)').fill('50');
    await rows.nth(0).getByTestId('coowner-email').fill(uniqueEmail('e2e.coprop'));
    await rows.nth(0).getByTestId('coowner-name').fill('Paolo Neri');
    await rows.nth(0).getByTestId('coowner-share').fill('100');
    await card.getByText('La somma delle quote è 150% (dovrebbe essere 100%)').waitFor();
    expect(await card.getByTestId('coowner-send').isDisabled()).toBe(true);
    await card.getByTestId('coowner-add').click();
    await rows.nth(1).getByTestId('coowner-email').fill(uniqueEmail('e2e.coprop'));
    await rows.nth(1).getByTestId('coowner-name').fill('Sara Neri');
    await rows.nth(1).getByTestId('coowner-share').fill('30');
    await rows.nth(0).getByTestId('coowner-share').fill('25');
    await card.getByText('La somma delle quote è 105% (dovrebbe essere 100%)').waitFor();
    expect(await card.getByTestId('coowner-send').isDisabled()).toBe(true);
    await expectAccessible(page);
    await rows.nth(1).getByTestId('coowner-share').fill('25');
    await card.getByTestId('coowner-total').getByText('Totale quote: 100%').waitFor();
    await card.getByRole('button', { name: 'Invia inviti' }).click();
    await card.and(page.locator('[data-status="done"]')).waitFor();
    const summary = card.getByTestId('coowners-summary');
    expect(await summary.getByText('Invito inviato').count()).toBe(2);
    expect(await summary.getByTestId('seller-share-summary').textContent()).toBe('La tua quota50%');
    const property = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;
    expect(property.sellerShare).toBe(50);
    // each invitation says the co-owner's own share
    const invitations = (await sentMail()).filter((m) => m.subject === 'Invito a verificare la tua identità di comproprietario' && /Paolo Neri|Sara Neri/.test(m.body.text ?? ''));
    expect(invitations.length).toBeGreaterThanOrEqual(2);
    for (const m of invitations.slice(-2)) expect(m.body.text).toMatch(/Quota di proprietà\W+25%/);
    await expectAccessible(page);
    await saveShot(page, 'kyc', 'kyc-390-coowners');
    await context.close();
  });

  it("a co-owner's link: their own identity check with the same dialog, then Verificato", async () => {
    const owner = await signUp({ email: uniqueEmail('e2e.kyc'), password: PASSWORD, name: 'Marco Blu', userType: 'venditore' });
    const { id } = await linkedProperty(owner.UserSub!);
    const email = uniqueEmail('e2e.coprop');
    await signUp({ email, password: PASSWORD, name: 'Elena Blu', userType: 'venditore' });
    const coOwnerId = newId();
    const coToken = newToken();
    const at = new Date().toISOString();
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.coOwner(id, coOwnerId), entity: 'coOwner', propertyId: id, id: coOwnerId, email, fullName: 'Elena Blu', share: 50, invitedAt: at, verifiedAt: null } }));
    await ddb().send(
      new PutCommand({ TableName: TABLE(), Item: { ...keys.coOwnerInvitation(coToken), entity: 'coOwnerInvitation', propertyId: id, coOwnerId, email, createdAt: at, expiresAt: Math.floor(Date.now() / 1000) + 3600 } }),
    );
    // the link's sign-up page says it is a co-owner's invitation and fills in the invited address, on both tabs
    const anonymous = await newPage(browser, PHONE);
    await anonymous.page.goto(`${web()}/seller-register?token=${coToken}`);
    await anonymous.page.getByTestId('seller-register-intro').filter({ hasText: `Sei stato invitato come comproprietario: registrati o accedi con ${email}` }).waitFor();
    await expect.poll(() => anonymous.page.getByTestId('seller-signup-email').inputValue()).toBe(email);
    await anonymous.page.getByTestId('seller-signup-email').fill(uniqueEmail('e2e.altro'));
    await anonymous.page.getByTestId('seller-signup-name').fill('Elena Blu');
    await anonymous.page.getByTestId('seller-signup-password').fill(PASSWORD);
    await anonymous.page.getByTestId('seller-signup-submit').click();
    await anonymous.page.getByText(`Usa l'indirizzo a cui è arrivato l'invito: ${email}`).waitFor();
    await anonymous.page.getByTestId('tab-seller-login').click();
    expect(await anonymous.page.getByTestId('seller-login-email').inputValue()).toBe(email);
    await expectAccessible(anonymous.page);
    await anonymous.context.close();

    const context = await signedInContext(browser, web(), { email, password: PASSWORD }, '/seller-dashboard');
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const calls = watchPage(page);
    await page.goto(`${web()}/seller-kyc?token=${coToken}`);
    await page.getByTestId('kyc-coowner').waitFor();
    expect(await step(page, 'identity').getAttribute('data-status')).toBe('todo');
    await page.getByTestId('identity-open').click();
    const dialog = page.getByTestId('identity-dialog');
    await dialog.getByTestId('identity-face-file').setInputFiles(`${DIR}/face-a.jpg`);
    await dialog.getByTestId('identity-front-file').setInputFiles(`${DIR}/front-elena.jpg`);
    await dialog.getByTestId('identity-back-file').setInputFiles(`${DIR}/back.jpg`);
    await dialog.getByTestId('identity-document-number').fill('CB7654321');
    await dialog.getByTestId('identity-confirm').waitFor();
    await page.getByTestId('identity-submit').click();
    await waitForOrExplain(step(page, 'identity').and(page.locator('[data-status="done"]')), { timeout: 60_000, shown: page.getByTestId('identity-dialog'), calls });
    await page.getByTestId('coowner-verified').getByText('Verificato').waitFor();
    const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.coOwner(id, coOwnerId), ConsistentRead: true }))).Item!;
    expect(typeof item.verifiedAt).toBe('string');
    await expectAccessible(page);
    await context.close();
  });

  it('on a phone, signed copies photographed: a delegation page by page with the camera, the option from chosen photos; a wrong page count refused', async () => {
    const seller = await freshSeller('Anna Neri');
    const { id } = await linkedProperty(seller.userId);
    const at = new Date().toISOString();
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', fullName: 'Anna Neri', confidence: 91.5, verifiedAt: at } }));
    expect((await api('POST', `/seller/properties/${id}/co-owners/skip`, { token: seller.token, body: {} })).status).toBe(200);
    const generated = await api('PUT', `/seller/properties/${id}/delegations`, {
      token: seller.token,
      body: {
        province: 'MI',
        municipality: 'Milano',
        types: ['catasto'],
        delegator: { fullName: 'Anna Neri', fiscalCode: FISCAL_CODE, documentType: 'carta_identita', documentNumber: 'CA12345AB', birthDate: '1980-01-01', birthPlace: 'Roma', address: 'Via Verdi 12' },
      },
    });
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const delegationPages = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.delegation(id, 'catasto'), ConsistentRead: true }))).Item!.documentPages as number;
    expect(delegationPages).toBeGreaterThanOrEqual(1);

    const context = await signedInContext(browser, web(), { email: seller.email, password: SELLER_PASSWORD }, '/seller-dashboard');
    await context.grantPermissions(['camera'], { origin: web() });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.setViewportSize(PHONE);
    await page.goto(`${web()}/seller-kyc?property=${id}`);
    await page.getByTestId('kyc-welcome').waitFor();

    // the delegation: one photo too many is refused with the document's page count, then the extra page removed
    await page.getByTestId('delegation-catasto-photos').click();
    const dialog = page.getByTestId('delegation-catasto-photos-dialog');
    await dialog.getByTestId('delegation-catasto-photos-camera-open').click();
    const shoot = dialog.getByTestId('delegation-catasto-photos-camera-shoot');
    for (let i = 1; i <= delegationPages + 1; i++) {
      await expect.poll(() => shoot.isEnabled()).toBe(true);
      await shoot.click();
      await expect.poll(() => dialog.getByTestId('delegation-catasto-photos-page').count()).toBe(i);
    }
    await page.getByTestId('delegation-catasto-photos-create').click();
    expect(await dialog.getByTestId('delegation-catasto-photos-error').textContent()).toBe(pagesCountMessage(delegationPages, delegationPages + 1));
    await expectAccessible(page);
    await saveShot(page, 'kyc', 'photographed-pages-390', { fullPage: false });
    await dialog.getByRole('button', { name: `Ruota la pagina 1` }).click();
    await dialog.getByRole('button', { name: `Elimina la pagina ${delegationPages + 1}` }).click();
    await page.getByTestId('delegation-catasto-photos-create').click();
    await page.getByTestId('delegation-catasto').getByText('Firmata', { exact: true }).waitFor();
    const delegation = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.delegation(id, 'catasto'), ConsistentRead: true }))).Item!;
    expect(await pagesOf(delegation.documentKey as string)).toBe(delegationPages);

    // the option: the admin creates it, the seller picks photos of its pages
    const admin = await tokenForRole('admin');
    const created = await api('POST', `/admin/properties/${id}/option`, {
      token: admin,
      body: { propertyValue: 300_000, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 3 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const optionPages = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id), ConsistentRead: true }))).Item!.documentPages as number;
    expect(optionPages).toBeGreaterThanOrEqual(1);
    await page.reload();
    await page.getByTestId('option-photos').waitFor();
    await expectAccessible(page);
    await saveShot(page, 'kyc', 'option-step-390');
    await page.getByTestId('option-photos').click();
    const photos = Array.from({ length: optionPages }, (_, i) => ({ name: `pagina-${i + 1}.png`, mimeType: 'image/png', buffer: pngBytes(60, 80, [250 - i * 20, 250, 250]) }));
    await page.getByTestId('option-photos-pick').setInputFiles(photos);
    expect(await page.getByTestId('option-photos-count').textContent()).toBe(`Pagine aggiunte: ${optionPages} su ${optionPages}`);
    await page.getByTestId('option-photos-create').click();
    await page.getByTestId('option-step').getByText('opzione-firmata.pdf').waitFor();
    await page.getByTestId('option-confirm').click();
    await page.getByTestId('option-signed').getByText('Firmata').waitFor();
    const option = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id), ConsistentRead: true }))).Item!;
    expect(await pagesOf((option.signatureData as { signedDocumentKey: string }).signedDocumentKey)).toBe(optionPages);
    await context.close();
  });

  it('on a phone, firma digitale: a delegation and the option signed with .p7m files (a co-owner too), refusals in view; the admin sees the signers', async () => {
    const seller = await freshSeller('Anna Neri');
    const { id } = await linkedProperty(seller.userId);
    const at = new Date().toISOString();
    await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', fullName: 'Anna Neri', confidence: 91.5, verifiedAt: at } }));
    const coOwners = await api('PUT', `/seller/properties/${id}/co-owners`, {
      token: seller.token,
      body: { sellerShare: 60, coOwners: [{ email: uniqueEmail('marco'), fullName: 'Marco Neri', share: 40 }] },
    });
    expect(coOwners.status, JSON.stringify(coOwners.body)).toBe(200);
    const generated = await api('PUT', `/seller/properties/${id}/delegations`, {
      token: seller.token,
      body: { province: 'MI', municipality: 'Milano', types: ['catasto'], delegator: { fullName: 'Anna Neri', fiscalCode: FISCAL_CODE, documentType: 'carta_identita', documentNumber: 'CA12345AB' } },
    });
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    // the test CA registered in the trust store, as the trusted list's CAs are in AWS
    const ca = await createTestCa({ name: 'Test CA e2e' });
    await addTrustAnchor(ca.certificate);
    const annaCert = await issueSignerCertificate(ca, { givenName: 'Anna', surname: 'Neri', fiscalCode: FISCAL_CODE });
    const marcoCert = await issueSignerCertificate(ca, { givenName: 'Marco', surname: 'Neri', fiscalCode: CO_OWNER_FISCAL_CODE });
    const bytesAt = async (key: string) => (await s3().send(new GetObjectCommand({ Bucket: stack().env.MEDIA_BUCKET!, Key: key }))).Body!.transformToByteArray();
    const delegationKey = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.delegation(id, 'catasto'), ConsistentRead: true }))).Item!.generatedKey as string;

    const context = await signedInContext(browser, web(), { email: seller.email, password: SELLER_PASSWORD }, '/seller-dashboard');
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.setViewportSize(PHONE);
    await page.goto(`${web()}/seller-kyc?property=${id}`);
    await page.getByTestId('kyc-welcome').waitFor();

    // the delegation: the .p7m of the downloaded PDF, signed by the delegator
    const p7m = (name: string, bytes: Uint8Array) => ({ name, mimeType: 'application/pkcs7-mime', buffer: Buffer.from(bytes) });
    await page.getByTestId('delegation-catasto-digital').setInputFiles(p7m('delega-catasto.pdf.p7m', await signCades(await bytesAt(delegationKey), [annaCert])));
    await page.getByTestId('delegation-catasto').getByText('Firmata digitalmente', { exact: true }).waitFor();
    expect(await page.getByTestId('delegation-catasto-signers').textContent()).toContain(`Anna Neri · codice fiscale ${FISCAL_CODE}`);

    // the option: signed by the seller alone first (refused, the co-owner named), then by both
    const admin = await tokenForRole('admin');
    const created = await api('POST', `/admin/properties/${id}/option`, {
      token: admin,
      body: { propertyValue: 300_000, optionDuration: 12, hasKeys: true, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 3 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const optionKey = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.option(id), ConsistentRead: true }))).Item!.documentKey as string;
    const document = await bytesAt(optionKey);
    await page.reload();
    const digital = page.getByTestId('option-digital');
    await digital.waitFor();
    await digital.getByLabel('Codice fiscale di Marco Neri').fill(CO_OWNER_FISCAL_CODE.toLowerCase());
    await page.getByTestId('option-digital-file').setInputFiles(p7m('opzione.pdf.p7m', await signCades(document, [annaCert])));
    await page.getByTestId('option-digital-confirm').click();
    const refusal = page.getByTestId('option-digital-error');
    expect(await refusal.textContent()).toBe(DIGITAL_SIGNATURE_MESSAGES.missingSigner('Marco Neri', CO_OWNER_FISCAL_CODE));
    await refusal.scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await saveShot(page, 'kyc', 'digital-refused-390', { fullPage: false });
    await page.getByTestId('option-digital-file').setInputFiles(p7m('opzione.pdf.p7m', await signCades(document, [annaCert, marcoCert])));
    await page.getByTestId('option-digital-confirm').click();
    await page.getByTestId('option-signed').getByText('Opzione di acquisto firmata digitalmente.').waitFor();
    expect(await page.getByTestId('option-signers').getByTestId('signer').count()).toBe(2);
    await page.getByText(COMPLETION_MESSAGES.optionSignedDigitally).waitFor();
    await expectAccessible(page);
    await saveShot(page, 'kyc', 'digital-signed-390');
    await context.close();

    // the admin's Istruttoria shows the same signers
    const adminContext = await signedInContext(browser, web(), stack().accounts.find((a) => a.role === 'admin')!, '/admin');
    const adminPage = await adminContext.newPage();
    adminPage.setDefaultTimeout(30_000);
    await adminPage.goto(`${web()}/investigation/${id}`);
    const signers = adminPage.getByTestId('option-signers');
    await signers.waitFor();
    expect(await signers.textContent()).toContain('Firma digitale verificata (CAdES)');
    expect(await signers.textContent()).toContain(`Marco Neri · codice fiscale ${CO_OWNER_FISCAL_CODE}`);
    expect(await adminPage.getByTestId('delegation-catasto-signers').textContent()).toContain('Certificato di Test CA e2e');
    await expectAccessible(adminPage);
    await adminContext.close();
  });
});
